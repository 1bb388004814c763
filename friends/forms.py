from django import forms
from django.utils.translation import gettext_lazy as _

from players.forms import DisplayNameForm

from . import handles
from .models import Member

HANDLE_HELP = _("3-20 letters a-z, digits or _. Your profile's address: it cannot be changed later.")


class HandleForm(forms.Form):
    handle = forms.CharField(label=_("Handle"), max_length=40, help_text=HANDLE_HELP)

    def clean_handle(self) -> str:
        try:
            handle = handles.clean(self.cleaned_data["handle"])
        except handles.BadHandle as error:
            if str(error) == "reserved":
                raise forms.ValidationError(_("That handle is reserved: pick another.")) from None
            raise forms.ValidationError(_("Use 3-20 letters a-z, digits or _.")) from None
        if Member.objects.filter(handle=handle).exists():
            raise forms.ValidationError(
                _("@%(handle)s is taken (or looks like one that is): pick another.") % {"handle": handle}
            )
        return handle


class SignupForm(DisplayNameForm, HandleForm):
    """allauth's sign-up asks these two besides the email address (ACCOUNT_SIGNUP_FORM_CLASS)."""

    field_order = ["display_name", "handle"]

    def signup(self, request, user) -> None:
        """The handle now; the name is the account's until a browser's profile is linked at the
        first sign-in (accounts/linking.py takes it from the user's first_name)."""
        from django.db import IntegrityError, transaction

        try:
            with transaction.atomic():
                Member.objects.create(account=user, handle=self.cleaned_data["handle"])
        except IntegrityError:  # taken in between: chosen on the friends page instead
            pass
        user.first_name = self.cleaned_data["display_name"]
        user.save(update_fields=["first_name"])

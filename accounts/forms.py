"""allauth's passkey forms with our limits: a name of at most NAME_MAX characters, and every
passkey added is one that signs in alone (a passkey, not a second factor: accounts/adapter.py)."""

from allauth.mfa.webauthn.forms import AddWebAuthnForm, EditWebAuthnForm
from django import forms
from django.utils.translation import gettext_lazy as _

NAME_MAX = 40


class AddPasskeyForm(AddWebAuthnForm):
    name = forms.CharField(label=_("Name"), required=False, max_length=NAME_MAX)

    def clean(self) -> dict:
        self.cleaned_data["passwordless"] = True  # a resident key with user verification, always
        return super().clean()


class EditPasskeyForm(EditWebAuthnForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)

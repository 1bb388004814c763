"""allauth's account adapter, where our rules differ from its defaults."""

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.models import Authenticator
from django.urls import reverse
from django.utils.translation import gettext

# The mails that carry a code (templates/account/email/), and how long it lasts
CODE_MAILS = {
    "account/email/login_code": lambda: app_settings.LOGIN_BY_CODE_TIMEOUT,
    "account/email/email_confirmation": lambda: app_settings.EMAIL_VERIFICATION_BY_CODE_TIMEOUT,
    "account/email/email_confirmation_signup": lambda: app_settings.EMAIL_VERIFICATION_BY_CODE_TIMEOUT,
}


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        """A passkey is a way to sign in, never a second factor (docs/rules.md 6): a code sent by
        email signs in alone, also on a device that has no passkey. allauth's MFA stages
        would ask for the passkey after every code once the account had one."""
        return [stage for stage in super().get_login_stages() if not stage.startswith("allauth.mfa.stages.")]

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Our mails (templates/account/email/) say how long their code lasts, and link to the
        sign-in page (an address that already has an account is sent there, not to a password
        reset: there are no passwords)."""
        extra = {"login_url": _absolute(reverse("account_login"))}
        if template_prefix in CODE_MAILS:
            extra["minutes"] = CODE_MAILS[template_prefix]() // 60
        super().send_mail(template_prefix, email, {**context, **extra})


def _absolute(path: str) -> str:
    request = allauth_context.request
    return request.build_absolute_uri(path) if request is not None else path


class MFAAdapter(DefaultMFAAdapter):
    def generate_authenticator_name(self, user, type) -> str:
        """The name a new passkey's form starts with: 'Passkey 2', not allauth's 'Master key' and
        'Backup key' (every passkey signs in alone here)."""
        n = Authenticator.objects.filter(user_id=user.pk, type=type).count()
        return gettext("Passkey %(n)s") % {"n": n + 1}

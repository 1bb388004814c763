"""allauth's account adapter, where our rules differ from its defaults."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.models import Authenticator
from django.utils.translation import gettext


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        """A passkey is a way to sign in, never a second factor (docs/rules.md 6): a code sent by
        email signs in alone, also on a device that has no passkey. allauth's MFA stages
        would ask for the passkey after every code once the account had one."""
        return [stage for stage in super().get_login_stages() if not stage.startswith("allauth.mfa.stages.")]


class MFAAdapter(DefaultMFAAdapter):
    def generate_authenticator_name(self, user, type) -> str:
        """The name a new passkey's form starts with: 'Passkey 2', not allauth's 'Master key' and
        'Backup key' (every passkey signs in alone here)."""
        n = Authenticator.objects.filter(user_id=user.pk, type=type).count()
        return gettext("Passkey %(n)s") % {"n": n + 1}

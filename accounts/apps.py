from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from . import signals  # noqa: F401  (links profiles at sign-in, a fresh one at sign-out)

import secrets

from django.conf import settings
from django.db import models

NAME_MAX_LENGTH = 24
GUEST_PK = 0  # players.middleware.guest(): ids start at 1, so this matches no row


def new_token() -> str:
    return secrets.token_urlsafe(32)


def default_name() -> str:
    return f"Player {secrets.randbelow(9000) + 1000}"


class Profile(models.Model):
    """An anonymous player, bound to one browser by a long-lived cookie (Local stats)."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    display_name = models.CharField(max_length=NAME_MAX_LENGTH, default=default_name)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)
    # The account this browser's profile is linked to (docs/rules.md section 6): the records of
    # every profile of one account count for it (players.identity). Indexed: the reads
    # filter by it. Deleting the account leaves the profiles anonymous and unreachable.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="profiles",
        db_index=True,
    )
    # Unlinked from its account's page: its records still count for the account, but no
    # browser plays as it any more (its token was replaced).
    # db_default too: rows written by code that predates the column (an older process mid-deploy,
    # the migration tests' old models) get False from the database.
    unlinked = models.BooleanField(default=False, db_default=False)
    # Which browser this is, for its account's list of linked browsers ("Chrome on Android"):
    # read from the user agent at each sign-in (accounts/browsers.py); "" before any.
    browser = models.CharField(max_length=40, blank=True, default="", db_default="")
    system = models.CharField(max_length=40, blank=True, default="", db_default="")
    # The display settings (players/display.py): only the player's own choices, the defaults left
    # out. Kept the same on every profile of an account (players.views.save_display).
    display = models.JSONField(default=dict, blank=True, db_default={})

    class Meta:
        ordering = ["-created_at"]
        db_table = "stats_profile"  # created by the stats app, before players had its own app

    def __str__(self):
        return self.display_name

    def save(self, *args, **kwargs):
        if self.pk == GUEST_PK:  # a guest only reads; a write must create a real profile first
            raise ValueError("A guest profile cannot be saved; use players.middleware.ensure_player().")
        super().save(*args, **kwargs)

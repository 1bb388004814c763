import secrets

from django.db import models

NAME_MAX_LENGTH = 24


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

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.display_name

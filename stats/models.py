import secrets

from django.db import models

NAME_MAX_LENGTH = 24
GUEST_PK = 0  # stats.middleware.guest(): ids start at 1, so this matches no row


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

    def save(self, *args, **kwargs):
        if self.pk == GUEST_PK:  # a guest only reads; a write must create a real profile first
            raise ValueError("A guest profile cannot be saved; use stats.middleware.ensure_player().")
        super().save(*args, **kwargs)


class ShowdownResult(models.Model):
    """One player's summary of one room's final results (RULES.md "After the showdown")."""

    player = models.ForeignKey(Profile, on_delete=models.CASCADE, related_name="showdown_results")
    room_code = models.CharField(max_length=6)
    game = models.CharField(max_length=12, default="showdown")
    placement = models.PositiveSmallIntegerField()
    player_count = models.PositiveSmallIntegerField()
    difficulty = models.CharField(max_length=8)
    preset = models.CharField(max_length=10)
    status = models.CharField(max_length=10)
    seconds = models.FloatField(null=True, blank=True)
    score = models.IntegerField()
    mistakes = models.PositiveIntegerField()
    hints = models.PositiveIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at"]
        constraints = [models.UniqueConstraint(fields=["player", "room_code"], name="one_result_per_room")]

    @property
    def is_custom(self) -> bool:
        return self.preset == "custom"

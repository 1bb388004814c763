from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Level


class PoolEntry(models.Model):
    """One request to race now (docs/rules.md 9): a player waiting in a level's pool, then
    seated in the public room the pool formed, or gone (cancelled, or stopped asking). The
    pool's state is these rows: a restarted process finds everyone still waiting."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        SEATED = "seated", _("Seated")
        GONE = "gone", _("Gone")

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="pool_entries")
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    level = models.CharField(max_length=8, choices=Level.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.WAITING)
    band = models.CharField(max_length=5, help_text="rated: an established rating; open: everyone else")
    key = models.FloatField(help_text="The rating, or the recent-results key, the pool pairs by")
    asked_at = models.DateTimeField()
    seen_at = models.DateTimeField(help_text="The waiting page's last poll: a closed page stops waiting")
    room = models.ForeignKey("rooms.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    last_opponents = models.JSONField(default=list, blank=True, help_text="Who they raced last time (no repeat)")

    class Meta:
        ordering = ["asked_at", "id"]
        indexes = [models.Index(fields=["level", "state"])]
        constraints = [
            # One pool at a time, per browser and per account (a second browser is refused).
            models.UniqueConstraint(fields=["player"], condition=models.Q(state="waiting"), name="one_wait_per_player"),
            models.UniqueConstraint(
                fields=["account"], condition=models.Q(state="waiting"), name="one_wait_per_account"
            ),
        ]

    def __str__(self):
        return f"{self.player} {self.state} at {self.level}"

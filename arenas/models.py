"""Arenas (docs/rules.md 12): a window in which joined players are paired continuously into
rooms; points per room, fire, berserk, one table. The arena's state is its rows: any process
can run its tick, and a restarted one finds everyone where they were."""

import secrets

from django.conf import settings
from django.db import models

from games.models import Level


def new_code() -> str:
    return secrets.token_urlsafe(6)[:8].replace("-", "x").replace("_", "y")


class Arena(models.Model):
    code = models.CharField(max_length=12, unique=True, default=new_code)
    level = models.CharField(max_length=8, choices=Level.choices)
    preset = models.CharField(max_length=12, default="standard")
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(help_text="30, 60 or 90 (tests: any)")
    ends_at = models.DateTimeField(db_index=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    private = models.BooleanField(default=False)
    schedule_key = models.CharField(
        max_length=40, unique=True, null=True, blank=True, help_text="The site's schedule: one arena per slot"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Raised with every change the table shows (a join, a room scored): the table's ranking is
    # computed once per version per process, not once per open page (arenas/table.py).
    table_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["starts_at"]

    def __str__(self):
        return f"Arena {self.code} ({self.level}, {self.starts_at:%Y-%m-%d %H:%M})"


class Entry(models.Model):
    """One player in one arena: where they are (waiting, racing, withdrawn) and their score."""

    class State(models.TextChoices):
        WAITING = "waiting"
        RACING = "racing"
        PAUSED = "paused"  # left the arena's page: not paired until back
        WITHDRAWN = "withdrawn"

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    waiting_since = models.DateTimeField(null=True, blank=True)
    room_code = models.CharField(max_length=12, blank=True, default="")
    berserk = models.BooleanField(default=False, help_text="Chosen for the next room")
    points = models.IntegerField(default=0)
    rooms = models.PositiveIntegerField(default=0)
    solving_seconds = models.FloatField(default=0)
    firsts = models.PositiveSmallIntegerField(default=0, help_text="First places in a row")
    leaves = models.PositiveSmallIntegerField(default=0)
    recent = models.JSONField(default=list, help_text="[points, fire, berserk] per room, oldest first")
    last_group = models.JSONField(default=list, help_text="Entry ids of the last room's players")
    history = models.JSONField(
        default=list, help_text="Every room scored, in order: {room, place, size, points, fire, berserk, left}"
    )
    # Reminders of the arena's start, as a scheduled showdown's guests have them (notify/):
    # the channels picked, the zone and language the message uses, and what was sent already.
    by_push = models.BooleanField(default=False)
    by_email = models.BooleanField(default=False)
    time_zone = models.CharField(max_length=64, blank=True, default="")
    language = models.CharField(max_length=8, blank=True, default="")
    reminded = models.PositiveSmallIntegerField(default=0, help_text="0 none, 1 'starts soon' sent, 2 'started' sent")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["arena", "account"], name="one_entry_per_account")]
        indexes = [models.Index(fields=["arena", "-points", "rooms", "solving_seconds"])]

    @property
    def on_fire(self) -> bool:
        return self.firsts >= 2


class ArenaRoom(models.Model):
    """A room the arena made; `scored` once its results are in the entries (exactly once)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="arena_rooms")
    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="+")
    scored = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

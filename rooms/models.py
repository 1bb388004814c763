import secrets
from typing import TYPE_CHECKING

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

# No look-alikes: no 0/O, 1/I/L. 31 symbols ** 6 is about 2**30 codes.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def game_choices() -> "list[tuple[str, str | StrPromise]]":
    """Room.game's choices, from the game types' registry (imported late: the game types
    import these models)."""
    from .gametypes import GAME_TYPES

    return [(key, _(game.label)) for key, game in GAME_TYPES.items()]


class Room(models.Model):
    class State(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        COUNTDOWN = "countdown", _("Countdown")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        EXPIRED = "expired", _("Expired")

    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code)
    game = models.CharField(max_length=12, choices=game_choices, default="showdown", db_index=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.LOBBY, db_index=True)
    host = models.ForeignKey(
        "players.Profile", null=True, blank=True, on_delete=models.SET_NULL, related_name="hosted_rooms"
    )
    level = models.CharField(max_length=8, default="medium")
    rules = models.JSONField(default=dict, blank=True)
    puzzle = models.ForeignKey("games.Puzzle", null=True, blank=True, on_delete=models.PROTECT)
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="Duels: the stone order / deal, the same for every seat"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity = models.DateTimeField(auto_now=True)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="End of the countdown: play begins")
    finished_at = models.DateTimeField(null=True, blank=True)
    expired_at = models.DateTimeField(null=True, blank=True)
    scheduled_for = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="UTC start of a scheduled showdown"
    )
    host_timezone = models.CharField(max_length=64, blank=True, default="")
    # The .ics SEQUENCE (RFC 5545): every reschedule or cancel raises it, and a reminder is
    # sent only for the schedule it was due for (notify/).
    schedule_sequence = models.PositiveIntegerField(default=0, db_default=0)
    cancelled_at = models.DateTimeField(null=True, blank=True, help_text="The host cancelled the scheduled showdown")
    expiry_reason = models.CharField(max_length=120, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every change (resync checks)")
    public = models.BooleanField(
        default=False, db_default=False, help_text="A public race the pool formed (docs/rules.md 9): no host"
    )
    # Each seat's account as the countdown started (seat id -> account id, null: anonymous):
    # the rating is decided from this, so signing in or out during play changes nothing.
    accounts_at_start = models.JSONField(null=True, blank=True)
    # A public race the pool completed with ghosts (docs/rules.md 10): each ghost as its lane
    # plays it (replays.presenters.ghost_data: name, the cells it filled and when, its finish).
    ghosts = models.JSONField(default=list, blank=True)
    # An arena's room (docs/rules.md 12): the arena's code, its end (the arena's end, then 60 s
    # after the first finisher: rooms/lifecycle.py finishes it there) and who raced berserk.
    arena = models.CharField(max_length=12, blank=True, default="", db_default="")
    ends_at = models.DateTimeField(null=True, blank=True)
    berserk = models.JSONField(default=list, blank=True, help_text="Profile ids racing with notes off")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.code} ({self.get_game_display()}, {self.state})"


class Seat(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ELIMINATED = "eliminated", _("Eliminated")
        LEFT = "left", _("Left")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="seats")
    joined_at = models.DateTimeField(auto_now_add=True)
    ready = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    state = models.JSONField(default=dict, blank=True, help_text="The game engine's board (never sent to others)")
    score = models.IntegerField(default=0)
    mistakes = models.PositiveIntegerField(default=0, help_text="Showdown: mistakes; Domino: lives lost")
    progress = models.PositiveIntegerField(default=0)
    to_fill = models.PositiveIntegerField(default=0)
    finish_seconds = models.FloatField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="one_seat_per_player")]

    def __str__(self):
        return f"{self.player} in {self.room.code}"


class Guest(models.Model):
    """A scheduled showdown's guest list (docs/rules.md 1, "Scheduled showdowns"): who said they
    are coming, or not, and how they want to be reminded. Not a seat: seats are taken in the
    ready room. The calendar file is always there; push and email are the guest's choice."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="guests")
    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="guest_of")
    coming = models.BooleanField(default=True)
    by_push = models.BooleanField(default=False, help_text="Web Push to this profile's subscribed browsers")
    by_email = models.BooleanField(default=False, help_text="Email to the signed-in player's address")
    time_zone = models.CharField(
        max_length=64, blank=True, default="", help_text="The guest's browser's zone: reminders say times in it"
    )
    language = models.CharField(max_length=8, blank=True, default="", help_text="The page's language: reminders use it")
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["answered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["room", "player"], name="one_guest_per_player")]

    def __str__(self):
        return f"{self.player} {'coming to' if self.coming else 'not coming to'} {self.room.code}"


class RoomEvent(models.Model):
    """The room's move log: every applied change, in order. `message_id` makes a re-sent
    socket message harmless (the htmx ws extension re-sends queued messages)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    kind = models.CharField(max_length=20)
    data = models.JSONField(default=dict, blank=True)
    message_id = models.CharField(max_length=64, blank=True, default="")
    version = models.PositiveIntegerField()
    # The server's time of the change (the writer's `now`): a replay's tempo (replays/).
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["room", "message_id"])]
        constraints = [
            # A stale owner (one whose lease ran out) cannot write over its successor.
            models.UniqueConstraint(fields=["room", "version"], name="one_event_per_room_version"),
            # A re-sent socket message applies once, even across processes.
            models.UniqueConstraint(
                fields=["room", "seat", "message_id"], condition=~models.Q(message_id=""), name="one_event_per_message"
            ),
        ]

    def __str__(self):
        return f"{self.room.code} v{self.version} {self.kind}"


class RoomResult(models.Model):
    """One player's result of one finished room, whatever its game (docs/rules.md "After the
    showdown"): what every game has in columns, and what the game type records of its own in
    `summary` (GameType.result_summary), which its template's `result` partial shows."""

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="room_results")
    room_code = models.CharField(max_length=CODE_LENGTH)
    game = models.CharField(max_length=12)
    placement = models.PositiveSmallIntegerField()
    player_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10)
    seconds = models.FloatField(null=True, blank=True)
    score = models.IntegerField()
    finished_at = models.DateTimeField()
    in_totals = models.BooleanField(
        default=True, help_text="False for a custom-rule room: kept in the history, left out of the totals"
    )
    summary = models.JSONField(default=dict, blank=True, help_text="The game type's own record (difficulty, ...)")

    class Meta:
        ordering = ["-finished_at"]
        constraints = [models.UniqueConstraint(fields=["player", "room_code"], name="one_result_per_room")]

    def __str__(self):
        return f"{self.player} in {self.room_code}: {self.placement} of {self.player_count}"

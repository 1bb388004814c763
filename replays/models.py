from django.db import models

from games.models import Level

from . import tracks


class Track(models.Model):
    """One player's recorded run of one race (docs/rules.md 10): a finished Showdown room's
    seat or a finished Solo Run, as a compact event list (replays/tracks.py). A replay page
    and a ghost read it alone, never the room's move log."""

    puzzle = models.ForeignKey("games.Puzzle", on_delete=models.PROTECT, related_name="+")
    level = models.CharField(max_length=8, choices=Level.choices)
    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="tracks")
    name = models.CharField(max_length=80, help_text="The player's display name when it was raced")
    room_code = models.CharField(max_length=12, blank=True, default="", db_index=True)
    run = models.OneToOneField("games.SoloRun", null=True, blank=True, on_delete=models.CASCADE, related_name="track")
    daily = models.ForeignKey("daily.Daily", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    delayed = models.BooleanField(default=False, help_text="Delayed feedback: entries unjudged until submitted")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, help_text="finished, eliminated, left, playing (unfinished)")
    finish_ms = models.PositiveIntegerField(null=True, blank=True, help_text="Its time, when it finished")
    length_ms = models.PositiveIntegerField(default=0, help_text="Where the replay's timeline ends")
    mistakes = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    splits = models.JSONField(default=list, help_text="ms each 3x3 box was right, by box (None: never)")
    events = models.BinaryField(help_text="zlib of [[ms, cell, value, mark], ...] (replays/tracks.py)")
    ranked = models.BooleanField(
        default=False, help_text="A ranked daily run: the daily's secrecy applies (replays/access.py)"
    )
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["place", "finish_ms", "id"]
        indexes = [models.Index(fields=["puzzle", "status"]), models.Index(fields=["level", "status", "finish_ms"])]
        constraints = [
            models.UniqueConstraint(
                fields=["room_code", "player"], condition=~models.Q(room_code=""), name="one_track_per_seat"
            )
        ]

    def __str__(self):
        return f"{self.name} on {self.room_code or f'run {self.run_id}'}"

    @property
    def event_list(self) -> list[list]:
        return tracks.unpack(self.events)

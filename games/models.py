from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import sudoku
from games.engines.race import STANDARD, Board

# The engine's levels (games/engines/sudoku/levels.py) as model choices: one definition.
# The labels are translated lazily (the engine marks them for the catalog).
Level = models.TextChoices("Level", [(level.name, (level.value, _(level.label))) for level in sudoku.Level])  # type: ignore[call-overload]  # the stubs know the class form only


class Puzzle(models.Model):
    """A ready puzzle in the bank. Taking one marks it used; the bank refills in the background."""

    level = models.CharField(max_length=8, choices=Level.choices, db_index=True)
    givens = models.CharField(max_length=81)
    solution = models.CharField(max_length=81)
    clues = models.PositiveSmallIntegerField()
    techniques = models.JSONField(default=list)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # A daily's puzzle (games/daily): made used when chosen and never claimed by the bank, so
    # no Solo Run, room, Domino game or other daily gets it.
    for_daily = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"{self.get_level_display()} #{self.pk} ({self.clues} clues)"

    @property
    def givens_tuple(self) -> tuple[int, ...]:
        return tuple(int(c) for c in self.givens)

    @property
    def solution_tuple(self) -> tuple[int, ...]:
        return tuple(int(c) for c in self.solution)


class Revised(models.Model):
    """A game row its write path may keep in memory between moves (games/common/rowwriter.py). Every write
    moves `revision` on, so a kept copy is written back only over the row it was read as."""

    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, update_fields=None, **kwargs):  # the admin, a sweep: writes outside games/common/rowwriter.py
        self.revision += 1
        if update_fields is not None:
            update_fields = {*update_fields, "revision"}
        super().save(*args, update_fields=update_fields, **kwargs)


class SoloRun(Revised):
    """One Solo Run. Its board lives in `board` (the race engine's Board as JSON)."""

    class State(models.TextChoices):
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="solo_runs")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="solo_runs")
    level = models.CharField(max_length=8, choices=Level.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PLAYING, db_index=True)
    board = models.JSONField()
    # Assisted from the first hint on, for good (docs/rules.md section 2), and from a long pause
    # or too many mistakes (games/sudoku/solo.py, How to Play).
    assisted = models.BooleanField(default=False)

    class AssistedBy(models.TextChoices):
        """What made the run Assisted (its first cause; the finish screen says it)."""

        NONE = "", _("Classic")
        HINT = "hint", _("A hint")
        MISTAKES = "mistakes", _("Too many mistakes")
        PAUSE = "pause", _("A pause over 10 s")

    assisted_by = models.CharField(max_length=8, choices=AssistedBy.choices, blank=True, default="", db_default="")
    score = models.IntegerField(default=0)
    mistakes = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(default=timezone.now)
    # Play time is elapsed_before + (now - active_since) while playing; pauses don't count.
    active_since = models.DateTimeField(null=True, blank=True)
    elapsed_before = models.FloatField(default=0.0)
    # When a pause that stops the clock began: its first PAUSE_GRACE seconds still count.
    paused_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    elapsed = models.FloatField(null=True, blank=True, help_text="Final play time in seconds")
    moves = models.PositiveIntegerField(default=0)

    # --- Daily puzzles (games/daily, docs/rules.md section 7) ---
    # The daily this run plays; practice: an unranked replay (from the archive).
    daily = models.ForeignKey("daily.Daily", null=True, blank=True, on_delete=models.PROTECT, related_name="runs")
    practice = models.BooleanField(default=False, db_default=False)
    # A ranked daily run: when its daily closes everywhere (a move after it is refused: DNF).
    closes_at = models.DateTimeField(null=True, blank=True)
    # Every run's moves with their server times: [ms since the start, kind, cell, digit] (replays/).
    log = models.JSONField(null=True, blank=True)
    # A ghost race (docs/rules.md 10): the recorded run this one races, shown as a rival.
    ghost = models.ForeignKey("replays.Track", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Review(models.TextChoices):
        NONE = "", _("On the board")
        HELD = "held", _("Under review")
        CLEARED = "cleared", _("Cleared")
        VOIDED = "voided", _("Voided")
        UNLISTED = "unlisted", _("Not on the board")

    review = models.CharField(max_length=8, choices=Review.choices, default="", db_default="", blank=True)
    review_reason = models.CharField(max_length=200, blank=True, default="", db_default="")

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["player", "level", "state", "assisted"]),
            # A daily's board: its finished ranked runs in board order (games/daily/boards.py).
            models.Index(
                fields=["daily", "assisted", "elapsed", "mistakes"],
                name="daily_board",
                condition=models.Q(daily__isnull=False, practice=False, state="finished"),
            ),
        ]
        constraints = [
            # One ranked run per profile and daily (per account: games/daily/play.py locks it).
            models.UniqueConstraint(
                fields=["daily", "player"],
                condition=models.Q(daily__isnull=False, practice=False),
                name="one_ranked_run_per_daily",
            )
        ]

    def __str__(self):
        return f"{self.player} {self.get_level_display()} run #{self.pk}"

    @property
    def rules(self):
        return STANDARD

    def get_board(self) -> Board:
        return Board.from_dict(self.board)

    PAUSE_GRACE = 10.0  # seconds of a pause that count (games/sudoku/solo.py)

    def play_seconds(self, now=None) -> float:
        if self.elapsed is not None:
            return self.elapsed
        seconds = self.elapsed_before
        if self.active_since is not None:
            seconds += ((now or timezone.now()) - self.active_since).total_seconds()
        elif self.paused_at is not None:
            seconds += min(max(0.0, ((now or timezone.now()) - self.paused_at).total_seconds()), self.PAUSE_GRACE)
        return seconds


class SoloBest(models.Model):
    """An account's best Solo Run on one all-time board across accounts (a level, Classic or
    Assisted; docs/rules.md section 8): the run and the fields the board orders by, copied, so
    the board is an indexed slice of this table and a place one indexed count of the rows
    ahead (stats/rankings.py). Kept by games.sudoku.bests.refresh_best wherever a run joins or
    leaves an account's boards; games.sudoku.bests.rebuild makes it from scratch."""

    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    level = models.CharField(max_length=8, choices=Level.choices)
    assisted = models.BooleanField()
    # The run's, copied: the boards' orders (games.sudoku.bests.ORDER), then the earliest finish.
    elapsed = models.FloatField()
    mistakes = models.PositiveIntegerField()
    hints = models.PositiveIntegerField()
    score = models.IntegerField()
    finished_at = models.DateTimeField(null=True)
    run = models.OneToOneField(SoloRun, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "level", "assisted"], name="one_best_per_board")]
        # Each board's order, whole: the top is read along it and the rows ahead of one
        # are counted from it alone (games.sudoku.bests.ORDER; the Classic one serves Classic
        # boards, the other Assisted ones).
        indexes = [
            models.Index(
                fields=["level", "assisted", "elapsed", "mistakes", "-score", "finished_at", "run"],
                name="solobest_time",
            ),
            models.Index(
                fields=["level", "assisted", "hints", "mistakes", "elapsed", "-score", "finished_at", "run"],
                name="solobest_hints",
            ),
        ]

    def __str__(self):
        return f"{self.account_id} {self.level} {'assisted' if self.assisted else 'classic'}: run #{self.run_id}"


class SoloBand(models.Model):
    """How many SoloBest rows one band of a board holds: a board's rows cut by their order's
    fields before the time (none for Classic; hints, then mistakes, for Assisted) and the time
    in whole seconds. A place off the top list is then a sum over the bands ahead (hundreds of
    rows) plus a count within the viewer's own band, not a count of every row ahead (100,000
    index entries took 35 ms on PostgreSQL; issue 24). games.sudoku.bests counts a band afresh, its
    row locked, wherever a best enters or leaves it; rebuild_solo_bests makes them all again.
    A band that empties keeps its row (at 0): a row deleted under a waiting lock would be lost
    to the one waiting."""

    level = models.CharField(max_length=8, choices=Level.choices)
    assisted = models.BooleanField()
    hints = models.PositiveIntegerField()  # 0 on a Classic board (its order starts with the time)
    mistakes = models.PositiveIntegerField()  # likewise
    second = models.PositiveIntegerField()  # the time's whole seconds
    runs = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["level", "assisted", "hints", "mistakes", "second"], name="one_row_per_band"
            )
        ]

    def __str__(self):
        kind = "assisted" if self.assisted else "classic"
        return f"{self.level} {kind} {self.hints}/{self.mistakes}/{self.second}s: {self.runs}"

from datetime import timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import domino as engine
from games.models import Level, Revised

from . import play

TIME_LIMIT = timedelta(seconds=engine.TIME_LIMIT)


class DominoGame(Revised):
    """One solo Sudoku Domino game. ``state`` is the engine's state dict (it holds the
    solution and the stone order: never render it). The other columns are copies of
    the state's numbers, for the admin, the stats and the overdue sweep."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class EndReason(models.TextChoices):
        FULL = engine.END_FULL, _("Grid full")
        LIVES = engine.END_LIVES, _("Out of lives")
        STUCK = engine.END_STUCK, _("Stuck")
        TIME = engine.END_TIME, _("Time up")

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="domino_games")
    puzzle = models.ForeignKey("games.Puzzle", on_delete=models.PROTECT, related_name="domino_games")
    level = models.CharField(max_length=8, choices=Level.choices)
    seed = models.BigIntegerField(help_text="Stone order seed (a duel shares it)")
    state = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING, db_index=True)
    end_reason = models.CharField(max_length=8, choices=EndReason.choices, blank=True)
    score = models.IntegerField(default=0)
    lives = models.PositiveSmallIntegerField(default=engine.LIVES)
    stones_placed = models.PositiveSmallIntegerField(default=0)
    jokers_used = models.PositiveSmallIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0, help_text="Applied moves: the board's version")
    started_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField(db_index=True, help_text="started_at + 10 minutes")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["player", "status", "level"])]

    def __str__(self):
        return f"{self.player} Domino {self.get_level_display()} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def engine_state(self) -> engine.State:
        """The engine's state of ``state`` (loaded once per instance: the write path keeps
        the state it just computed, so a move never loads what it saved)."""
        loaded = self.__dict__.get("_engine")
        if loaded is None or loaded[0] is not self.state:
            loaded = self._engine = (self.state, play.restore(self.state))
        return loaded[1]

    def is_overdue(self, now=None) -> bool:
        return not self.finished and (now or timezone.now()) >= self.deadline

    def seconds_left(self, now=None) -> float:
        return self.engine_state().seconds_left((now or timezone.now()).timestamp())

    def store_state(self, state: engine.State, now) -> None:
        """``store`` for an engine state, kept loaded."""
        self.store(engine.to_dict(state), now, state)

    def store(self, data: dict, now, state: engine.State | None = None) -> None:
        """Keep ``data`` and copy its numbers into the columns. ``state`` is ``data``'s
        engine state when the caller has it (saves a load)."""
        numbers = play.summary(state if state is not None else data)
        if state is not None:
            self._engine = (data, state)
        self.state = data
        self.score = numbers["score"]
        self.lives = numbers["lives"]
        self.stones_placed = numbers["stones_placed"]
        self.jokers_used = numbers["jokers_used"]
        self.moves = numbers["moves"]
        self.end_reason = numbers["end_reason"]
        if numbers["finished"] and not self.finished:
            self.status = self.Status.FINISHED
            self.finished_at = min(now, self.deadline)

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Revised

from . import play


class CardokuGame(Revised):
    """One solo Cardoku game. ``state`` is the state dict of games/cardoku/play.py (the
    engine's layout, seed and moves, plus the board version ``step``). It names the seed,
    so it describes every card to come: never render it. The other columns are copies of
    the state's numbers, for the admin and the stats."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class LayoutKind(models.TextChoices):
        DEFAULT = "default", _("Default staircase")
        RANDOM = "random", _("Random")
        CUSTOM = "custom", _("Custom")

    player = models.ForeignKey("players.Profile", on_delete=models.CASCADE, related_name="cardoku_games")
    layout_kind = models.CharField(max_length=8, choices=LayoutKind.choices, default=LayoutKind.DEFAULT)
    deal_code = models.CharField(
        max_length=26, db_index=True, help_text="Shareable code of the shuffle (26 characters for a duel's deal)"
    )
    state = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING, db_index=True)
    score = models.IntegerField(default=0, help_text="Running total; final once finished")
    units = models.PositiveSmallIntegerField(default=0, help_text="Completed rows, columns and boxes")
    discards = models.PositiveSmallIntegerField(default=0)
    cards_placed = models.PositiveSmallIntegerField(default=0)
    cards_left = models.PositiveSmallIntegerField(default=45)
    step = models.PositiveIntegerField(default=0, help_text="Applied actions: the board's version")
    show_moves = models.BooleanField(default=False, help_text='"Show possible moves" toggle')
    show_restrictions = models.BooleanField(default=False, help_text='"Show placement restrictions" toggle')
    started_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["player", "status", "score"])]

    def __str__(self):
        return f"{self.player} Cardoku {self.deal_code} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def engine_state(self):
        """The engine's state of ``state``, loaded once per instance (the write path keeps
        the state it just computed, so a move never loads what it saved) and without
        replaying the rules: only this app's write path writes ``state``."""
        loaded = self.__dict__.get("_engine")
        if loaded is None or loaded[0] is not self.state:
            loaded = self._engine = (self.state, play.restore(self.state))
        return loaded[1]

    def store_state(self, state, step: int, now) -> None:
        """``store`` for an engine state at board version ``step``, kept loaded."""
        self.store(play.dump(state, step), now, state)

    def store(self, data: dict, now, state=None) -> None:
        """Keep ``data`` and copy its numbers into the columns; record the finish once.
        ``state`` is ``data``'s engine state when the caller has it (saves a load)."""
        numbers = play.summary(state if state is not None else data)
        if state is not None:
            self._engine = (data, state)
        self.state = data
        self.score = numbers["score"]
        self.units = numbers["units"]
        self.discards = numbers["discards"]
        self.cards_placed = numbers["cards_placed"]
        self.cards_left = numbers["cards_left"]
        self.step = play.step_of(data)
        if numbers["finished"] and not self.finished:
            self.status = self.Status.FINISHED
            self.finished_at = now

"""Difficulty levels and their clue bands (docs/rules.md section 1, "Difficulty")."""

from __future__ import annotations

from enum import StrEnum

from ..text import _

_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard"), "expert": _("Expert")}


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    @property
    def label(self) -> str:
        """Display name, e.g. "Expert" (marked for translation: games.models.Level translates it)."""
        return _LABELS[self.value]

    @property
    def clue_range(self) -> tuple[int, int]:
        """Inclusive (min, max) number of givens for this level."""
        return CLUE_BANDS[self]

    @property
    def rank(self) -> int:
        return _ORDER.index(self)

    @classmethod
    def coerce(cls, value: Level | str) -> Level:
        """Accept a Level, its value ("hard") or its label ("Hard")."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls(value.strip().lower())
            except ValueError:
                pass
        raise ValueError(f"unknown difficulty {value!r}; expected one of easy, medium, hard, expert")


_ORDER = (Level.EASY, Level.MEDIUM, Level.HARD, Level.EXPERT)

# The bands do not overlap, so the clue count alone already tells levels apart.
CLUE_BANDS: dict[Level, tuple[int, int]] = {
    Level.EASY: (36, 40),
    Level.MEDIUM: (30, 35),
    Level.HARD: (26, 29),
    Level.EXPERT: (22, 25),
}

"""Typed errors for the Cardoku engine.

Every error the engine raises is a :class:`CardokuError`, and its message is written
for the player. Two families are kept apart (like python-chess's InvalidMoveError and
IllegalMoveError), subclassing the shared kinds of ``games.engines.errors``:

* :class:`InvalidInput` -- the request itself is malformed: coordinates off the board,
  an unknown card code, a bad deal code, a corrupt saved game. A well-behaved client
  never sends these.
* :class:`IllegalMove` -- the request is well formed but the rules forbid it: the
  square is not allowed for this card, the game is over, there is nothing to undo.

:class:`LayoutError` (a bad starting layout) is its own kind of error.
"""

from __future__ import annotations

from ..errors import Illegal, Malformed, Refusal


class CardokuError(Refusal):
    """Base class of every error raised by the Cardoku engine."""


# --- malformed input -------------------------------------------------------------------


class InvalidInput(CardokuError, Malformed):
    """The request is malformed (not a rule question)."""


class BadMove(InvalidInput):
    """A move that cannot even be read: off-board coordinates, unknown move kind..."""


class BadCard(InvalidInput):
    """A card code that names no card."""


class BadDealCode(InvalidInput):
    """A deal code (or seed) that names no deal."""


class BadState(InvalidInput):
    """A saved game (``from_dict``) that is corrupt or inconsistent."""


# --- against the rules -----------------------------------------------------------------


class IllegalMove(CardokuError, Illegal):
    """The move is well formed but the rules do not allow it."""


class IllegalSquare(IllegalMove):
    """The current card may not go on this square.

    ``reason`` is one of ``"occupied"``, ``"not_adjacent"``, ``"digit"``,
    ``"wild_rank"``, ``"wild_suit"``; ``square`` is the (row, col) tried and
    ``blockers`` the squares of the cards that forbid it (empty for the first two).
    """

    def __init__(
        self,
        message: str,
        *,
        square: tuple[int, int],
        reason: str,
        blockers: frozenset[tuple[int, int]] = frozenset(),
    ) -> None:
        super().__init__(message)
        self.square = square
        self.reason = reason
        self.blockers = blockers


class GameOver(IllegalMove):
    """A move was tried after the deck ran out."""


class NothingToUndo(IllegalMove):
    """Undo at the start of the deal."""


# --- setup -----------------------------------------------------------------------------


class LayoutError(CardokuError, Malformed):
    """A starting layout of the nine spades that breaks the setup rules."""

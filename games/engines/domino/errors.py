"""Typed errors of the Sudoku Domino engine.

Two families, kept apart on purpose (python-chess keeps InvalidMoveError and
IllegalMoveError apart for the same reason), subclassing the shared kinds of
``games.engines.errors`` (``Malformed``, ``Illegal``):

- ``BadMove`` / ``BadPosition``: malformed input. The request could not even be
  understood (an edge that is not one of the four, a line outside 1-9, an unknown
  joker kind, a stored state that does not hold together). Usually a client or
  storage bug.
- ``IllegalMove`` and its subclasses: a well-formed move that the rules refuse
  (no stone to meet on that line, a joker on a filled cell, no jokers left, a move
  after the game ended). A normal thing for a player to try.

A *wrong* placement (a stone that does not fit the solution) is neither: it is a
legal move with a bad outcome, so ``push`` returns it as an ``Outcome`` (it costs a
life) instead of raising.

Every error carries a player-readable ``message`` (also its ``str``).
"""

from __future__ import annotations

from ..errors import Illegal, Malformed, Refusal


class DominoError(Refusal):
    """Base of every error the domino engine raises."""


class BadMove(DominoError, Malformed):
    """Malformed move input: unknown edge, line or cell outside 1-9, unknown joker
    kind, a clock value that is not a finite number, an unreadable replay entry."""


class BadPosition(DominoError, Malformed):
    """Malformed start data for ``new_game`` or a stored state for ``from_dict``."""


class IllegalMove(DominoError, Illegal):
    """A well-formed move that the rules do not allow."""


class InvalidEntry(IllegalMove):
    """The entry point is not valid: the slide would meet no stone, or the first
    cell of the line is already occupied (no room at the edge)."""

    def __init__(self, message: str, edge: str, line: int, reason: str) -> None:
        super().__init__(message)
        self.edge = edge
        self.line = line
        self.reason = reason  # "no_stone" or "no_room"


class CellOccupied(IllegalMove):
    """A joker was aimed at a cell that already holds a stone or a joker."""

    def __init__(self, message: str, cell: tuple[int, int]) -> None:
        super().__init__(message)
        self.cell = cell


class NoJokersLeft(IllegalMove):
    """No joker of the requested kind is left."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class GameOver(IllegalMove):
    """A move was made after the game ended."""

    def __init__(self, message: str, end_reason: str | None) -> None:
        super().__init__(message)
        self.end_reason = end_reason

"""The two kinds of refusal every engine raises, kept apart as python-chess keeps
InvalidMoveError (syntax) and IllegalMoveError (legality):

- ``Malformed``: the request cannot even be read (no such cell, a digit outside 1-9, a
  corrupt saved state). A well-behaved client never sends one.
- ``Illegal``: a well-formed request the rules forbid (a given cell, no hints left, the
  game is over). A normal thing for a player to try.

Each engine subclasses both under its own base (race.MoveError, cardoku's CardokuError,
domino's DominoError), so a caller catches one engine's errors, or one kind across all
engines. Both derive from ``Refusal``, whose ``str`` (and ``message``) is written for the
player; the rooms' own refusals (not seated, room full) derive from it too.
"""

from __future__ import annotations


class Refusal(Exception):
    """An action the server refuses; ``str(error)`` is the message for the player."""

    game: object = None  # the game row, when a write path refused a move on it (its answer shows it)

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class Malformed(Refusal, ValueError):
    """The request is malformed: not a rule question."""


class Illegal(Refusal):
    """The request is well formed but the rules do not allow it."""

"""Sudoku board moves: the one parser for form posts (Solo Run) and socket messages
(Showdown), and the one way to apply a move to a race board. Pure Python, no Django.

A move is `Enter` or `Note` (a cell and a digit), `SetNotes` (a cell and its marks),
`Hint` (a cell, or None: any cell) or `FillNotes` (every empty cell's candidates as its
notes: Solo Run's Assisted play only, so only a parse that asks for it reads one).
The race engine judges it (games/engines/race.py); a malformed request raises
`race.MalformedMove` with a message for the player, before the engine sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.common.numbers import ascii_int, number_field
from games.engines import race
from games.engines.text import _


@dataclass(frozen=True)
class Enter:
    cell: int
    digit: int
    kind: ClassVar[str] = "enter"


@dataclass(frozen=True)
class Note:
    cell: int
    digit: int
    kind: ClassVar[str] = "note"


@dataclass(frozen=True)
class SetNotes:
    """A cell's pencil marks set to exactly these (bit d = digit d): Backspace clearing a
    cell's notes, and the page's undo of a change to them."""

    cell: int
    notes: int
    kind: ClassVar[str] = "notes"
    digit: ClassVar[None] = None


@dataclass(frozen=True)
class Hint:
    cell: int | None = None  # None: the engine picks a cell
    kind: ClassVar[str] = "hint"
    digit: ClassVar[None] = None  # the engine's digit: every move has the three fields


@dataclass(frozen=True)
class FillNotes:
    """Auto-candidates: every empty cell's notes set to the digits its row, column and box
    do not hold yet."""

    kind: ClassVar[str] = "fill"
    cell: ClassVar[None] = None
    digit: ClassVar[None] = None


@dataclass(frozen=True)
class Erase:
    """Take an own entry off the board (delayed feedback only)."""

    cell: int
    kind: ClassVar[str] = "erase"
    digit: ClassVar[None] = None


@dataclass(frozen=True)
class Submit:
    """Hand the full grid in to be checked (delayed feedback only)."""

    kind: ClassVar[str] = "submit"
    cell: ClassVar[None] = None
    digit: ClassVar[None] = None


Move = Enter | Note | Hint | SetNotes | FillNotes
DelayedMove = Erase | Submit


def number(value, name: str, low: int, high: int) -> int:
    return number_field(value, name, low, high, race.MalformedMove)


def parse_move(data, *, fill: bool = False) -> Move:
    """A board move from POST data or a socket message: ``action`` enter, note, notes (with
    ``marks``, the cell's digits) or hint (or
    ``command=hint``; without either, a ``digit`` entered or noted as ``mode`` says), with
    ``cell`` 0-80 and ``digit`` 1-9 as numbers or strings. ``action=fill`` (FillNotes) only
    with `fill` (Solo Run): a room has no Assisted play, so it is an unknown action there."""
    action = data.get("action")
    if action is None:
        command = data.get("command")
        if command == "hint":
            action = "hint"
        elif command not in (None, ""):
            raise race.MalformedMove(_("Unknown command %(command)s.", command=repr(str(command)[:20])))
        else:
            action = parse_mode(data)
    if action in ("enter", "note"):
        if data.get("mode", "enter") not in ("enter", "note"):
            raise race.MalformedMove(_("Mode must be enter or note."))
        cell = _required_cell(data)
        if data.get("digit") in (None, ""):
            raise race.MalformedMove(_("Choose a digit from 1 to 9."))
        digit = number(data.get("digit"), "digit", 1, 9)
        return (Enter if action == "enter" else Note)(cell, digit)
    if action == "notes":
        if data.get("cell") in (None, ""):
            raise race.MalformedMove(_("Pick a cell on the board first."))
        return SetNotes(number(data.get("cell"), "cell", 0, 80), parse_marks(data.get("marks", "")))
    if action == "hint":
        cell = data.get("cell")
        return Hint(None if cell in (None, "") else number(cell, "cell", 0, 80))
    if action == "fill" and fill:
        return FillNotes()
    raise race.MalformedMove(_("Unknown action %(action)s.", action=repr(str(action)[:20])))


def parse_marks(value) -> int:
    """A cell's pencil marks as the page sends them: its digits ("258", or "" for none), as a bitmask."""
    text = "" if value is None else value
    if not isinstance(text, str) or len(text) > 9 or not all(ch in "123456789" for ch in text):
        raise race.MalformedMove(_("Notes are digits from 1 to 9."))
    mask = 0
    for ch in text:
        mask |= 1 << int(ch)
    return mask


def parse_delayed_move(data) -> DelayedMove | None:
    """``action`` erase (with a ``cell``) or submit, the delayed mode's own moves (the
    Showdown game type reads them; Solo Run has none); None for any other action."""
    action = data.get("action")
    if action == "submit":
        return Submit()
    if action == "erase":
        return Erase(_required_cell(data))
    return None


def _required_cell(data) -> int:
    """A move's cell: 0-80, refused when missing or anything else."""
    if data.get("cell") in (None, ""):
        raise race.MalformedMove(_("Pick a cell on the board first."))
    return number(data.get("cell"), "cell", 0, 80)


def apply_delayed(
    board: race.Board, rules: race.Rules, solution, move: DelayedMove
) -> tuple[race.Board, race.Outcome | race.Submission]:
    """An erase or a submission, as apply() does a move."""
    if isinstance(move, Erase):
        return race.erase(board, rules, move.cell)
    return race.submit(board, rules, solution)


def apply(board: race.Board, rules: race.Rules, solution, move: Move) -> tuple[race.Board, race.Outcome]:
    """The board after `move` and what happened; raises the engine's MoveError (and the
    board is unchanged) when the rules refuse it."""
    if isinstance(move, Enter):
        return race.enter(board, rules, solution, move.cell, move.digit)
    if isinstance(move, Note):
        return race.toggle_note(board, rules, move.cell, move.digit)
    if isinstance(move, SetNotes):
        return race.set_notes(board, rules, move.cell, move.notes)
    if isinstance(move, FillNotes):
        return race.fill_notes(board, rules)
    return race.hint(board, rules, solution, move.cell)


def parse_mode(data) -> str:
    """The pad's mode a page or socket message was sent in: "note" or (anything else) "enter"."""
    return "note" if data.get("mode") == "note" else "enter"


def parse_cell(data) -> int | None:
    """The cell the page had selected, for redrawing it: None unless a number 0-80 (as a
    move's cell is read: ASCII digits or a JSON number). The one reading for Solo Run's
    form posts and the rooms' socket messages."""
    try:
        number = ascii_int(data.get("cell"))
    except AttributeError:  # not a dict: a socket message that is a list or a number
        return None
    return number if number is not None and 0 <= number < 81 else None

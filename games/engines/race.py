"""Sudoku race rules: scoring, hints, notes, mistake caps and rankings.

Shared by Solo Run (fixed Standard rules) and Showdown rooms (host-chosen rules). Pure
Python: boards are immutable values, every action returns a new board and an Outcome or
raises a typed error. The solution is an argument, never part of the board's state, so a
board can be rendered without any risk of leaking it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from .errors import Illegal, Malformed, Refusal
from .ranking import places
from .text import _

CORRECT_POINTS = 10
HINT_COST = 25
FINISH_BONUS = 100
FLAT_PENALTY = 5
PROGRESSIVE_STEP = 5

HINT_LIMITS = (0, 1, 3, 5)
MISTAKE_CAPS = (None, 3, 5, 7)

_UNITS_OF: list[tuple[int, int, int]] = [(i // 9, 9 + i % 9, 18 + (i // 27) * 3 + (i % 9) // 3) for i in range(81)]
_PEERS: list[frozenset[int]] = [
    frozenset(j for j in range(81) if j != i and set(_UNITS_OF[i]) & set(_UNITS_OF[j])) for i in range(81)
]


class Penalty(StrEnum):
    NONE = "none"
    FLAT = "flat"
    PROGRESSIVE = "progressive"


class Status(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"
    ELIMINATED = "eliminated"
    LEFT = "left"


class MoveError(Refusal):
    """Base of every action this engine refuses; `str(error)` is a message for the player."""


class MalformedMove(MoveError, Malformed):
    """The request itself is broken: no such cell, a digit outside 1-9."""


class IllegalMove(MoveError, Illegal):
    """A well-formed action the rules forbid: a given cell, a locked board, no hints left."""


@dataclass(frozen=True)
class Rules:
    notes: bool = True
    hint_limit: int = 3
    penalty: Penalty = Penalty.FLAT
    mistake_cap: int | None = None

    def __post_init__(self):
        if self.hint_limit not in HINT_LIMITS:
            raise MalformedMove(_("Hint limit must be one of %(limits)s.", limits=", ".join(map(str, HINT_LIMITS))))
        if self.mistake_cap not in MISTAKE_CAPS:
            raise MalformedMove(_("Mistake cap must be off, 3, 5 or 7."))
        object.__setattr__(self, "penalty", Penalty(self.penalty))

    @property
    def preset(self) -> str:
        """The matching preset's key, or "custom"."""
        for key, rules in PRESETS.items():
            if rules == self:
                return key
        return "custom"

    def penalty_for(self, mistake_number: int) -> int:
        """Points lost for the n-th mistake (1-based)."""
        if self.penalty is Penalty.FLAT:
            return FLAT_PENALTY
        if self.penalty is Penalty.PROGRESSIVE:
            return PROGRESSIVE_STEP * mistake_number
        return 0

    def summary(self) -> list[str]:
        """Compact rule summary lines shown in the lobby, during play and after."""
        penalty = {
            Penalty.NONE: _("no mistake penalty"),
            Penalty.FLAT: _("-%(points)s per mistake", points=FLAT_PENALTY),
            Penalty.PROGRESSIVE: _("progressive penalty (-5, -10, -15, ...)"),
        }[self.penalty]
        hints = {0: _("no hints"), 1: _("1 hint")}.get(self.hint_limit) or _("%(n)s hints", n=self.hint_limit)
        return [
            _("notes allowed") if self.notes else _("no notes"),
            hints,
            penalty,
            _("out after %(n)s mistakes", n=self.mistake_cap) if self.mistake_cap else _("no mistake cap"),
        ]

    def to_dict(self) -> dict:
        return {
            "notes": self.notes,
            "hint_limit": self.hint_limit,
            "penalty": str(self.penalty),
            "mistake_cap": self.mistake_cap,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        return cls(
            bool(data["notes"]),
            int(data["hint_limit"]),
            Penalty(data["penalty"]),
            data["mistake_cap"] and int(data["mistake_cap"]),
        )


PRESETS: dict[str, Rules] = {
    "friendly": Rules(notes=True, hint_limit=5, penalty=Penalty.NONE, mistake_cap=None),
    "standard": Rules(notes=True, hint_limit=3, penalty=Penalty.FLAT, mistake_cap=None),
    "hardcore": Rules(notes=False, hint_limit=0, penalty=Penalty.PROGRESSIVE, mistake_cap=3),
}
STANDARD = PRESETS["standard"]


@dataclass(frozen=True)
class Board:
    """One player's board. `cells` holds givens plus locked correct entries and hints."""

    givens: tuple[int, ...]
    cells: tuple[int, ...]
    hinted: frozenset[int] = frozenset()
    notes: tuple[int, ...] = (0,) * 81  # bitmask per cell: bit d set = pencil mark d
    score: int = 0
    mistakes: int = 0
    hints: int = 0
    status: Status = Status.PLAYING

    @classmethod
    def new(cls, givens: tuple[int, ...]) -> Board:
        if len(givens) != 81:
            raise MalformedMove("A board has 81 cells.")
        return cls(givens=tuple(givens), cells=tuple(givens))

    @property
    def progress(self) -> int:
        """Cells correctly filled by the player, hints included."""
        return sum(1 for g, v in zip(self.givens, self.cells, strict=True) if not g and v)

    @property
    def to_fill(self) -> int:
        return sum(1 for g in self.givens if not g)

    @property
    def is_complete(self) -> bool:
        return all(self.cells)

    def notes_at(self, index: int) -> list[int]:
        mask = self.notes[index]
        return [d for d in range(1, 10) if mask >> d & 1]

    def to_dict(self) -> dict:
        return {
            "givens": "".join(map(str, self.givens)),
            "cells": "".join(map(str, self.cells)),
            "hinted": sorted(self.hinted),
            "notes": list(self.notes),
            "score": self.score,
            "mistakes": self.mistakes,
            "hints": self.hints,
            "status": str(self.status),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Board:
        return cls(
            givens=tuple(map(int, data["givens"])),
            cells=tuple(map(int, data["cells"])),
            hinted=frozenset(data["hinted"]),
            notes=tuple(data["notes"]),
            score=data["score"],
            mistakes=data["mistakes"],
            hints=data["hints"],
            status=Status(data["status"]),
        )


@dataclass(frozen=True)
class Outcome:
    kind: str  # "correct", "wrong", "hint", "note"
    cell: int
    digit: int
    points: int = 0
    finished: bool = False
    eliminated: bool = False
    message: str = ""


def cell_name(index: int) -> str:
    return _("row %(row)s, column %(col)s", row=index // 9 + 1, col=index % 9 + 1)


def _check_cell(cell: object) -> int:
    if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < 81:
        raise MalformedMove(_("Pick a cell on the board first."))
    return cell


def _check_digit(digit: object) -> int:
    if not isinstance(digit, int) or isinstance(digit, bool) or not 1 <= digit <= 9:
        raise MalformedMove(_("Digits run from 1 to 9."))
    return digit


def _check_playing(board: Board) -> None:
    if board.status is Status.FINISHED:
        raise IllegalMove(_("You have already finished this puzzle."))
    if board.status is Status.ELIMINATED:
        raise IllegalMove(_("You reached the mistake cap: your board is locked."))
    if board.status is Status.LEFT:
        raise IllegalMove(_("You left this game."))


def _fill(board: Board, cell: int, digit: int, points: int, hinted: bool) -> Board:
    cells = list(board.cells)
    cells[cell] = digit
    notes = list(board.notes)
    notes[cell] = 0
    bit = 1 << digit
    for peer in _PEERS[cell]:  # a placed digit can no longer be a pencil mark beside it
        notes[peer] &= ~bit
    score = max(0, board.score + points)
    new = replace(
        board,
        cells=tuple(cells),
        notes=tuple(notes),
        score=score,
        hinted=board.hinted | {cell} if hinted else board.hinted,
    )
    if new.is_complete:
        new = replace(new, status=Status.FINISHED, score=new.score + FINISH_BONUS)
    return new


def enter(board: Board, rules: Rules, solution: tuple[int, ...], cell: int, digit: int) -> tuple[Board, Outcome]:
    """Judge one entry: a correct digit locks (+10), a wrong one is counted and removed."""
    cell, digit = _check_cell(cell), _check_digit(digit)
    _check_playing(board)
    if board.givens[cell]:
        raise IllegalMove(_("The cell at %(cell)s is a given and cannot change.", cell=cell_name(cell)))
    if board.cells[cell]:
        raise IllegalMove(_("The cell at %(cell)s is already solved.", cell=cell_name(cell)))
    if solution[cell] == digit:
        new = _fill(board, cell, digit, CORRECT_POINTS, hinted=False)
        finished = new.status is Status.FINISHED
        message = _("Puzzle complete!") if finished else _("%(digit)s is correct.", digit=digit)
        return new, Outcome("correct", cell, digit, new.score - board.score, finished=finished, message=message)
    mistakes = board.mistakes + 1
    new = replace(board, mistakes=mistakes, score=max(0, board.score - rules.penalty_for(mistakes)))
    eliminated = rules.mistake_cap is not None and mistakes >= rules.mistake_cap
    message = _("%(digit)s is not right at %(cell)s.", digit=digit, cell=cell_name(cell))
    if eliminated:
        new = replace(new, status=Status.ELIMINATED)
        message = _(
            "%(digit)s is not right at %(cell)s. That was mistake %(mistakes)s of %(cap)s: your board is locked.",
            digit=digit,
            cell=cell_name(cell),
            mistakes=mistakes,
            cap=rules.mistake_cap,
        )
    return new, Outcome("wrong", cell, digit, new.score - board.score, eliminated=eliminated, message=message)


def _candidates(cells: tuple[int, ...], cell: int) -> int:
    used = {cells[p] for p in _PEERS[cell]}
    return sum(1 for d in range(1, 10) if d not in used)


def hint(board: Board, rules: Rules, solution: tuple[int, ...], cell: int | None = None) -> tuple[Board, Outcome]:
    """Reveal one correct value (-25): the selected cell if empty, else the server picks
    the empty cell with the fewest candidates (the most useful one to know)."""
    _check_playing(board)
    if board.hints >= rules.hint_limit:
        raise IllegalMove(_("No hints left.") if rules.hint_limit else _("Hints are off in this game."))
    if cell is not None:
        cell = _check_cell(cell)
    if cell is None or board.cells[cell]:
        empty = [i for i in range(81) if not board.cells[i]]
        cell = min(empty, key=lambda i: (_candidates(board.cells, i), i))
    digit = solution[cell]
    new = _fill(replace(board, hints=board.hints + 1), cell, digit, -HINT_COST, hinted=True)
    finished = new.status is Status.FINISHED
    return new, Outcome(
        "hint",
        cell,
        digit,
        new.score - board.score,
        finished=finished,
        message=_("Hint: %(digit)s at %(cell)s.", digit=digit, cell=cell_name(cell)),
    )


def toggle_note(board: Board, rules: Rules, cell: int, digit: int) -> tuple[Board, Outcome]:
    cell, digit = _check_cell(cell), _check_digit(digit)
    _check_playing(board)
    if not rules.notes:
        raise IllegalMove(_("Notes are off in this game."))
    if board.cells[cell]:
        raise IllegalMove(_("The cell at %(cell)s is already filled.", cell=cell_name(cell)))
    notes = list(board.notes)
    notes[cell] ^= 1 << digit
    return replace(board, notes=tuple(notes)), Outcome("note", cell, digit)


def leave(board: Board) -> Board:
    """A player leaves or forfeits; a finished or eliminated result stands."""
    if board.status is Status.PLAYING:
        return replace(board, status=Status.LEFT)
    return board


# --- Rankings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    key: object  # the caller's identifier (seat id, player name)
    status: Status
    progress: int
    mistakes: int
    hints: int
    score: int
    finish_time: float | None = None  # seconds from the start, for finished players
    extra: dict = field(default_factory=dict, compare=False, hash=False)


def rank(standings: list[Standing], near_tie: float = 1.0) -> list[tuple[int, Standing]]:
    """Places per RULES.md "Rankings": finished (near-ties within `near_tie` seconds are
    separated by fewer mistakes, fewer hints, then the earlier finish), then solving,
    then eliminated, then players who left. Ties that remain share a place."""
    finished = sorted((s for s in standings if s.status is Status.FINISHED), key=_finish_time)
    ordered: list[tuple[tuple, Standing]] = []
    group_index = 0
    i = 0
    while i < len(finished):
        # A near-tie group: everyone within `near_tie` seconds of the group's first finisher.
        start = _finish_time(finished[i])
        j = i
        while j < len(finished) and _finish_time(finished[j]) - start <= near_tie:
            j += 1
        for s in finished[i:j]:
            ordered.append(((0, group_index, s.mistakes, s.hints, s.finish_time), s))
        group_index += 1
        i = j
    for s in standings:
        if s.status is Status.PLAYING:
            ordered.append(((1, 0, -s.progress, s.mistakes, -s.score), s))
        elif s.status is Status.ELIMINATED:
            ordered.append(((2, 0, -s.progress, -s.score, 0), s))
        elif s.status is Status.LEFT:
            ordered.append(((3, 0, -s.progress, -s.score, 0), s))
    ordered.sort(key=lambda pair: pair[0])
    return [(place, s) for place, (_, s) in places(ordered, key=lambda pair: pair[0])]


def _finish_time(standing: Standing) -> float:
    if standing.finish_time is None:
        raise ValueError(f"{standing.key!r} finished without a finish time")
    return standing.finish_time

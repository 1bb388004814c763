"""Sudoku race rules: scoring, hints, notes, mistake caps and rankings, with Immediate
or Delayed feedback (docs/rules.md 1, "Delayed feedback": entries are judged only when the
player submits the full grid).

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
from .text import Sentences, _

CORRECT_POINTS = 10
HINT_COST = 25
FINISH_BONUS = 100
FLAT_PENALTY = 5
PROGRESSIVE_STEP = 5

HINT_LIMITS = (0, 1, 3, 5)
MISTAKE_CAPS = (None, 3, 5, 7)
SUBMISSION_LIMITS = (1, 3, 5)
DEFAULT_SUBMISSIONS = 3
SUBMISSION_PENALTY_SECONDS = 60  # added to a delayed player's time per wrong submission

_UNITS_OF: list[tuple[int, int, int]] = [(i // 9, 9 + i % 9, 18 + (i // 27) * 3 + (i % 9) // 3) for i in range(81)]
_PEERS: list[frozenset[int]] = [
    frozenset(j for j in range(81) if j != i and set(_UNITS_OF[i]) & set(_UNITS_OF[j])) for i in range(81)
]


class Penalty(StrEnum):
    NONE = "none"
    FLAT = "flat"
    PROGRESSIVE = "progressive"


class Feedback(StrEnum):
    IMMEDIATE = "immediate"  # v1: every entry is judged at once
    DELAYED = "delayed"  # entries are judged only when the full grid is submitted


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
    feedback: Feedback = Feedback.IMMEDIATE
    submissions: int = DEFAULT_SUBMISSIONS  # the delayed mode's limit; immediate rules ignore it

    def __post_init__(self):
        if self.hint_limit not in HINT_LIMITS:
            raise MalformedMove(_("Hint limit must be one of %(limits)s.", limits=", ".join(map(str, HINT_LIMITS))))
        if self.mistake_cap not in MISTAKE_CAPS:
            raise MalformedMove(_("Mistake cap must be off, 3, 5 or 7."))
        if self.submissions not in SUBMISSION_LIMITS:
            raise MalformedMove(_("Submissions must be 1, 3 or 5."))
        object.__setattr__(self, "penalty", Penalty(self.penalty))
        object.__setattr__(self, "feedback", Feedback(self.feedback))
        if self.feedback is Feedback.IMMEDIATE:
            # Submissions mean nothing with immediate feedback: one value keeps presets equal.
            object.__setattr__(self, "submissions", DEFAULT_SUBMISSIONS)
        else:
            # The submission limit is the delayed mode's cap; a mistake cap has nothing to count.
            object.__setattr__(self, "mistake_cap", None)

    @property
    def delayed(self) -> bool:
        return self.feedback is Feedback.DELAYED

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
        if self.delayed:
            penalty = {
                Penalty.NONE: _("no penalty per wrong submission"),
                Penalty.FLAT: _("-%(points)s per wrong submission", points=FLAT_PENALTY),
                Penalty.PROGRESSIVE: _("progressive penalty (-5, -10, -15, ...)"),
            }[self.penalty]
            cap = (
                _("Delayed feedback, 1 submission")
                if self.submissions == 1
                else _("Delayed feedback, %(n)s submissions", n=self.submissions)
            )
        else:
            cap = _("out after %(n)s mistakes", n=self.mistake_cap) if self.mistake_cap else _("no mistake cap")
        return [_("notes allowed") if self.notes else _("no notes"), hints, penalty, cap]

    def to_dict(self) -> dict:
        return {
            "notes": self.notes,
            "hint_limit": self.hint_limit,
            "penalty": str(self.penalty),
            "mistake_cap": self.mistake_cap,
            "feedback": str(self.feedback),
            "submissions": self.submissions,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        return cls(
            bool(data["notes"]),
            int(data["hint_limit"]),
            Penalty(data["penalty"]),
            data["mistake_cap"] and int(data["mistake_cap"]),
            Feedback(data.get("feedback", Feedback.IMMEDIATE)),  # rules stored before issue 25 are immediate
            int(data.get("submissions", DEFAULT_SUBMISSIONS)),
        )


PRESETS: dict[str, Rules] = {
    "friendly": Rules(notes=True, hint_limit=5, penalty=Penalty.NONE, mistake_cap=None),
    "standard": Rules(notes=True, hint_limit=3, penalty=Penalty.FLAT, mistake_cap=None),
    "hardcore": Rules(notes=False, hint_limit=0, penalty=Penalty.PROGRESSIVE, mistake_cap=3),
    "tournament": Rules(notes=True, hint_limit=0, penalty=Penalty.FLAT, feedback=Feedback.DELAYED, submissions=3),
}
TOURNAMENT = PRESETS["tournament"]
STANDARD = PRESETS["standard"]


@dataclass(frozen=True)
class Board:
    """One player's board. `cells` holds givens plus locked correct entries and hints; with
    delayed feedback it holds the player's unjudged entries too (locked: givens and hints),
    `mistakes` counts wrong submissions and `checked` says the grid as it stands was
    submitted and judged wrong (so the same grid is not submitted twice)."""

    givens: tuple[int, ...]
    cells: tuple[int, ...]
    hinted: frozenset[int] = frozenset()
    notes: tuple[int, ...] = (0,) * 81  # bitmask per cell: bit d set = pencil mark d
    score: int = 0
    mistakes: int = 0
    hints: int = 0
    status: Status = Status.PLAYING
    checked: bool = False

    @classmethod
    def new(cls, givens: tuple[int, ...]) -> Board:
        if len(givens) != 81:
            raise MalformedMove("A board has 81 cells.")
        return cls(givens=tuple(givens), cells=tuple(givens))

    @property
    def progress(self) -> int:
        """Cells filled by the player, hints included: correctly filled with immediate
        feedback; with delayed feedback, filled (right or not: nobody knows until a
        submission)."""
        return sum(1 for g, v in zip(self.givens, self.cells, strict=True) if not g and v)

    @property
    def to_fill(self) -> int:
        return sum(1 for g in self.givens if not g)

    @property
    def is_complete(self) -> bool:
        return all(self.cells)

    @property
    def submittable(self) -> bool:
        """Delayed feedback: full, and not the grid a wrong submission already checked."""
        return self.is_complete and not self.checked

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
            "checked": self.checked,
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
            checked=bool(data.get("checked", False)),
        )


@dataclass(frozen=True)
class Outcome:
    kind: str  # "correct", "wrong", "hint", "note", "fill"
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


def _check_playing(board: Board, rules: Rules | None = None) -> None:
    if board.status is Status.FINISHED:
        raise IllegalMove(_("You have already finished this puzzle."))
    if board.status is Status.ELIMINATED and rules is not None and rules.delayed:
        raise IllegalMove(_("You used your last submission: you are out and your board is locked."))
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
    """Judge one entry: a correct digit locks (+10), a wrong one is counted and removed.
    With delayed feedback nothing is judged: the entry is kept as typed (see _enter_delayed)."""
    cell, digit = _check_cell(cell), _check_digit(digit)
    if rules.delayed:
        return _enter_delayed(board, rules, cell, digit)
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


def candidate_mask(cells: tuple[int, ...], cell: int) -> int:
    """The digits `cell` may still hold, as a notes bitmask (bit d = digit d): those not
    already in its row, column or box. The cell's own digit is not looked at."""
    mask = NOTE_BITS
    for p in _PEERS[cell]:
        mask &= ~(1 << cells[p])  # an empty peer (0) clears bit 0, never a digit's
    return mask & NOTE_BITS


def candidates(cells: tuple[int, ...]) -> tuple[int, ...]:
    """Every empty cell's candidates (candidate_mask), 0 for a filled cell."""
    return tuple(0 if cells[i] else candidate_mask(cells, i) for i in range(81))


def _candidates(cells: tuple[int, ...], cell: int) -> int:
    return candidate_mask(cells, cell).bit_count()


def hint(board: Board, rules: Rules, solution: tuple[int, ...], cell: int | None = None) -> tuple[Board, Outcome]:
    """Reveal one correct value (-25): the selected cell if empty, else the server picks
    the empty cell with the fewest candidates (the most useful one to know)."""
    _check_playing(board, rules)
    if board.hints >= rules.hint_limit:
        raise IllegalMove(_("No hints left.") if rules.hint_limit else _("Hints are off in this game."))
    if cell is not None:
        cell = _check_cell(cell)
    if rules.delayed:
        return _hint_delayed(board, solution, cell)
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


def _check_notable(board: Board, rules: Rules, cell: int) -> None:
    """Pencil marks go on an empty cell of a game still running, in a game with notes on."""
    _check_playing(board, rules)
    if not rules.notes:
        raise IllegalMove(_("Notes are off in this game."))
    if board.cells[cell]:
        raise IllegalMove(_("The cell at %(cell)s is already filled.", cell=cell_name(cell)))


def toggle_note(board: Board, rules: Rules, cell: int, digit: int) -> tuple[Board, Outcome]:
    cell, digit = _check_cell(cell), _check_digit(digit)
    _check_notable(board, rules, cell)
    notes = list(board.notes)
    notes[cell] ^= 1 << digit
    return replace(board, notes=tuple(notes)), Outcome("note", cell, digit)


NOTE_BITS = 0b11_1111_1110  # bits 1-9: the digits a cell's pencil marks can hold


def set_notes(board: Board, rules: Rules, cell: int, notes: int) -> tuple[Board, Outcome]:
    """A cell's pencil marks set to exactly `notes` (a bitmask, bit d = digit d): one move
    for what the pad does many of, clearing a cell's marks or taking back a change to them."""
    cell = _check_cell(cell)
    if not isinstance(notes, int) or isinstance(notes, bool) or notes & ~NOTE_BITS:
        raise MalformedMove(_("Notes are digits from 1 to 9."))
    _check_notable(board, rules, cell)
    marks = list(board.notes)
    marks[cell] = notes
    return replace(board, notes=tuple(marks)), Outcome("note", cell, 0)


def fill_notes(board: Board, rules: Rules) -> tuple[Board, Outcome]:
    """Auto-candidates: every empty cell's notes become its candidates, replacing the marks
    it had (the Assisted play's Fill notes, docs/rules.md 2). The outcome's cell is the
    first empty one (0 on a full board)."""
    _check_playing(board, rules)
    if not rules.notes:
        raise IllegalMove(_("Notes are off in this game."))
    marks = candidates(board.cells)
    empty = [i for i in range(81) if not board.cells[i]]
    return replace(board, notes=marks), Outcome(
        "fill", empty[0] if empty else 0, 0, message=_("Notes filled: every empty cell shows its candidates.")
    )


# --- Delayed feedback (docs/rules.md 1, "Delayed feedback") ----------------------------------
# Entries, erasures and notes never look at the solution, so nothing they answer can say
# whether an entry is right. Only submit() does, and it says how many cells are wrong,
# never which.


def _check_changeable(board: Board, cell: int) -> None:
    if board.givens[cell]:
        raise IllegalMove(_("The cell at %(cell)s is a given and cannot change.", cell=cell_name(cell)))
    if cell in board.hinted:
        raise IllegalMove(_("The cell at %(cell)s was revealed by a hint and cannot change.", cell=cell_name(cell)))


def _set_cell(board: Board, cell: int, digit: int) -> Board:
    """The player's own entry (or erasure, digit 0): it clears that cell's notes only (a
    digit nobody has judged says nothing about the marks beside it) and makes the grid new."""
    cells = list(board.cells)
    cells[cell] = digit
    notes = list(board.notes)
    notes[cell] = 0
    return replace(board, cells=tuple(cells), notes=tuple(notes), checked=False)


def _enter_delayed(board: Board, rules: Rules, cell: int, digit: int) -> tuple[Board, Outcome]:
    _check_playing(board, rules)
    _check_changeable(board, cell)
    return _set_cell(board, cell, digit), Outcome("entry", cell, digit)


def erase(board: Board, rules: Rules, cell: int) -> tuple[Board, Outcome]:
    """Take one of the player's own entries off the board (delayed feedback only)."""
    cell = _check_cell(cell)
    if not rules.delayed:
        raise IllegalMove(_("Every entry is judged at once in this game: there is nothing to erase."))
    _check_playing(board, rules)
    _check_changeable(board, cell)
    if not board.cells[cell]:
        raise IllegalMove(_("The cell at %(cell)s is already empty.", cell=cell_name(cell)))
    return _set_cell(board, cell, 0), Outcome("erase", cell, 0)


def _hint_delayed(board: Board, solution: tuple[int, ...], cell: int | None) -> tuple[Board, Outcome]:
    """A hint reveals and locks one right cell: the selected one unless it is locked (a
    player's own entry there is replaced), else the empty cell with the fewest candidates,
    else (a full grid) the player's entry with the fewest. The choice looks only at the
    board, never at which entries are right."""

    def locked(i: int) -> bool:
        return bool(board.givens[i]) or i in board.hinted

    if cell is None or locked(cell):
        open_cells = [i for i in range(81) if not board.cells[i]] or [i for i in range(81) if not locked(i)]
        cell = min(open_cells, key=lambda i: (_candidates(_set_cell(board, i, 0).cells, i), i))
    digit = solution[cell]
    new = _set_cell(board, cell, digit)
    new = replace(new, hinted=new.hinted | {cell}, hints=board.hints + 1)
    message = _("Hint: %(digit)s at %(cell)s.", digit=digit, cell=cell_name(cell))
    return new, Outcome("hint", cell, digit, -HINT_COST, message=message)


@dataclass(frozen=True)
class Submission:
    """What a submission answers: "finished", "wrong" or "out", and how many cells are
    wrong (never which)."""

    kind: str
    wrong: int = 0
    left: int = 0  # submissions left after this one
    penalty_seconds: int = 0  # added by this submission to the player's time
    message: str = ""

    @property
    def cell(self) -> None:
        return None  # a submission is about the whole grid (an Outcome names its cell)

    @property
    def finished(self) -> bool:
        return self.kind == "finished"

    @property
    def eliminated(self) -> bool:
        return self.kind == "out"


def submissions_used(board: Board) -> int:
    return board.mistakes + (board.status is Status.FINISHED)


def submit(board: Board, rules: Rules, solution: tuple[int, ...]) -> tuple[Board, Submission]:
    """Check the whole grid: all right finishes the player (scored at once); otherwise the
    player learns how many cells are wrong, the room's penalty applies, +60 s goes on the
    time, and after the last submission the player is out."""
    if not rules.delayed:
        raise IllegalMove(_("Every entry is judged at once in this game: there is nothing to submit."))
    _check_playing(board, rules)
    empty = sum(1 for v in board.cells if not v)
    if empty:
        raise IllegalMove(
            _("Fill every cell before you submit (1 cell is empty).")
            if empty == 1
            else _("Fill every cell before you submit (%(n)s cells are empty).", n=empty)
        )
    if board.checked:
        raise IllegalMove(_("This grid was already checked: change a cell before you submit again."))
    wrong = sum(1 for v, right in zip(board.cells, solution, strict=True) if v != right)
    if not wrong:
        new = replace(board, status=Status.FINISHED)
        new = replace(new, score=final_score(new, rules, solution))
        return new, Submission("finished", message=_("Every cell is right: puzzle complete!"))
    mistakes = board.mistakes + 1
    left = rules.submissions - mistakes
    new = replace(board, mistakes=mistakes, checked=True)
    said = _("1 cell is wrong") if wrong == 1 else _("%(n)s cells are wrong", n=wrong)
    if left <= 0:
        # Out, but not scored yet: a score now would say how many cells are right before
        # the room is over (settle() scores every board when it ends).
        new = replace(new, status=Status.ELIMINATED)
        return new, Submission(
            "out",
            wrong,
            0,
            SUBMISSION_PENALTY_SECONDS,
            Sentences([said, _("(that was your last submission: you are out)")]),
        )
    after = (
        _("(1 submission left, +%(s)s s)", s=SUBMISSION_PENALTY_SECONDS)
        if left == 1
        else _("(%(left)s submissions left, +%(s)s s)", left=left, s=SUBMISSION_PENALTY_SECONDS)
    )
    return new, Submission("wrong", wrong, left, SUBMISSION_PENALTY_SECONDS, Sentences([said, after]))


def penalty_seconds(board: Board) -> int:
    """Seconds added to a delayed player's time: 60 per wrong submission."""
    return SUBMISSION_PENALTY_SECONDS * board.mistakes


def right_cells(board: Board, solution: tuple[int, ...]) -> int:
    """Cells the player filled rightly, hints included (the delayed mode's progress once
    the room is over)."""
    return sum(1 for g, v, r in zip(board.givens, board.cells, solution, strict=True) if not g and v == r)


def final_score(board: Board, rules: Rules, solution: tuple[int, ...]) -> int:
    """docs/rules.md: 10 per right cell (hinted cells earn no +10), +100 for finishing, minus
    the penalties of the wrong submissions and 25 per hint; never below zero."""
    earned = CORRECT_POINTS * (right_cells(board, solution) - len(board.hinted))
    bonus = FINISH_BONUS if board.status is Status.FINISHED else 0
    penalties = sum(rules.penalty_for(n) for n in range(1, board.mistakes + 1))
    return max(0, earned + bonus - penalties - HINT_COST * board.hints)


def settle(board: Board, rules: Rules, solution: tuple[int, ...]) -> Board:
    """The board's score when the room ends (delayed feedback scores nothing before)."""
    return replace(board, score=final_score(board, rules, solution)) if rules.delayed else board


class Review(StrEnum):
    """What the end-of-room review shows in a cell."""

    GIVEN = "given"
    HINT = "hint"
    RIGHT = "right"
    WRONG = "wrong"  # filled with another digit: marked, the right digit shown small
    EMPTY = "empty"  # never filled: the right digit shown small


def review(board: Board, solution: tuple[int, ...]) -> list[Review]:
    """Per cell, for the review once the room is over (nothing is secret any more)."""
    kinds = []
    for i, (g, v, r) in enumerate(zip(board.givens, board.cells, solution, strict=True)):
        if g:
            kinds.append(Review.GIVEN)
        elif i in board.hinted:
            kinds.append(Review.HINT)
        elif not v:
            kinds.append(Review.EMPTY)
        else:
            kinds.append(Review.RIGHT if v == r else Review.WRONG)
    return kinds


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
    penalty_seconds: float = 0  # added to finish_time (delayed feedback's wrong submissions)
    extra: dict = field(default_factory=dict, compare=False, hash=False)


def rank(
    standings: list[Standing], near_tie: float = 1.0, feedback: Feedback = Feedback.IMMEDIATE
) -> list[tuple[int, Standing]]:
    """Places per docs/rules.md "Rankings": finished (near-ties within `near_tie` seconds are
    separated by fewer mistakes, fewer hints, then the earlier finish), then solving,
    then eliminated, then players who left. Ties that remain share a place.

    With delayed feedback ("Delayed feedback", Ranking): finished players by time plus
    their penalty seconds (the near-tie window applies to that total), then everyone else
    together by progress (the caller's right cells once the room ends, filled cells while
    it plays), fewer wrong submissions, then score."""
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
            ordered.append(((0, group_index, s.mistakes, s.hints, _finish_time(s), 0), s))
        group_index += 1
        i = j
    for s in standings:
        if s.status is Status.FINISHED:
            continue
        if feedback is Feedback.DELAYED or s.status is Status.PLAYING:  # delayed: everyone else together
            # ...but at an equal standing one still solving is ahead of one who is out (a
            # status everyone sees): they never share a place (issue 43 item 14).
            out = int(s.status is not Status.PLAYING)
            ordered.append(((1, 0, -s.progress, s.mistakes, -s.score, out), s))
        elif s.status is Status.ELIMINATED:
            ordered.append(((2, 0, -s.progress, -s.score, 0, 0), s))
        elif s.status is Status.LEFT:
            ordered.append(((3, 0, -s.progress, -s.score, 0, 0), s))
    ordered.sort(key=lambda pair: pair[0])
    return [(place, s) for place, (_, s) in places(ordered, key=lambda pair: pair[0])]


def _finish_time(standing: Standing) -> float:
    """The finish time plus penalty seconds (delayed feedback's 60 s per wrong submission)."""
    if standing.finish_time is None:
        raise ValueError(f"{standing.key!r} finished without a finish time")
    return standing.finish_time + standing.penalty_seconds

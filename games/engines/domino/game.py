"""Sudoku Domino rules (docs/rules.md section 4): state, moves, scoring and end of game.

Pure functions over an immutable ``State``: every move returns a new state (and an
``Outcome`` describing what happened) or raises a typed ``DominoError``. The engine
never reads a clock (every move takes ``now`` in seconds, on the same clock as the
game's ``started_at``) and draws randomness only from ``random.Random(seed)``.

Decisions beyond the rule book are listed in README.md next to this file.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from ..text import Sentences, _
from . import grid
from .errors import (
    BadMove,
    BadPosition,
    CellOccupied,
    GameOver,
    InvalidEntry,
    NoJokersLeft,
)
from .grid import EDGES, EMPTY, GOLD, GREY, Cell

TIME_LIMIT = 600.0  # seconds (10 minutes)
LIVES = 3
JOKERS = {"grey": 4, "gold": 2}
JOKER_KINDS = ("grey", "gold")
STONE_POINTS = 5
GOLD_JOKER_POINTS = 5
UNIT_FACTOR = 10
UNIT_MAX = 450
MULTI_UNIT_BONUS = {2: 50, 3: 100}
FULL_GRID_POINTS = 500
TIME_BONUS_PER_SECOND = 10

END_STUCK = "stuck"
END_FULL = "full"
END_LIVES = "lives"
END_TIME = "time"
END_REASONS = (END_STUCK, END_FULL, END_LIVES, END_TIME)

END_MESSAGES = {
    END_STUCK: _(
        "No jokers are left and the current stone can be placed nowhere: no cell a stone can reach is its cell."
    ),
    END_FULL: _("The grid is full."),
    END_LIVES: _("Third wrong placement: no lives left."),
    END_TIME: _("Time is up: the 10 minutes have passed."),
}
_UNIT_AT = {
    "row": lambda n: _("row %(n)s", n=n),
    "column": lambda n: _("column %(n)s", n=n),
    "box": lambda n: _("box %(n)s", n=n),
}


# --------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class State:
    """One player's game. Immutable; compare with ``==``.

    ``board`` holds 81 ints, row-major: 0 empty, 1-9 a stone (a given or a placed
    stone; ``puzzle`` tells which), ``GREY`` (-1) / ``GOLD`` (-2) a joker.
    ``bag`` holds the stones still to come, the current stone first. ``moves`` is the
    log of every applied move, so ``replay(..., state.moves) == state``.

    ``solution`` is inside: never send a state (or ``to_dict``) to a browser.
    """

    puzzle: tuple[int, ...]
    solution: tuple[int, ...]
    seed: int | str
    started_at: float
    board: tuple[int, ...]
    bag: tuple[int, ...]
    unreachable: frozenset[Cell]
    lives: int = LIVES
    grey_jokers: int = JOKERS["grey"]
    gold_jokers: int = JOKERS["gold"]
    score: int = 0
    stones_placed: int = 0
    finished: bool = False
    end_reason: str | None = None
    ended_at: float | None = None
    moves: tuple[tuple[Any, ...], ...] = ()

    # -- summary accessors for the UI --------------------------------------------

    @property
    def current_stone(self) -> int | None:
        """The stone the player holds (None once the bag is empty)."""
        return self.bag[0] if self.bag else None

    @property
    def next_stone(self) -> int | None:
        """The preview: the stone that becomes current once the current stone is
        placed correctly (stones that would then be skipped are looked past)."""
        if len(self.bag) < 2:
            return None
        left = _empty_targets(self.board, self.solution)
        left[self.bag[0]] -= 1
        for digit in self.bag[1:]:
            if left[digit] > 0:
                return digit
        return None

    @property
    def stones_left(self) -> int:
        """Stones still in the bag, the current one included."""
        return len(self.bag)

    @property
    def lives_left(self) -> int:
        return self.lives

    @property
    def jokers_left(self) -> dict[str, int]:
        return {"grey": self.grey_jokers, "gold": self.gold_jokers}

    @property
    def move_count(self) -> int:
        """Number of applied moves: a version number for the write path."""
        return len(self.moves)

    def seconds_left(self, now: float) -> float:
        """Seconds left on the 10-minute clock at ``now`` (frozen once finished)."""
        now = _check_now(now)
        if self.ended_at is not None:
            now = min(now, self.ended_at)
        return max(0.0, TIME_LIMIT - max(0.0, now - self.started_at))

    def cell(self, row: int, col: int) -> int:
        """Board code of a cell: 0 empty, 1-9 stone, GREY or GOLD joker."""
        return self.board[grid.index(_check_cell(row, col))]

    def is_given(self, row: int, col: int) -> bool:
        return self.puzzle[grid.index(_check_cell(row, col))] != EMPTY


@dataclass(frozen=True, slots=True)
class Clash:
    """A stone already on the board that a wrong placement duplicates."""

    digit: int
    unit: str  # "row", "column" or "box"
    number: int  # 1-9
    cell: Cell  # where the clashing stone stands

    def describe(self) -> str:
        row, col = self.cell
        return _(
            "duplicates the %(digit)s in %(unit)s (at row %(row)s, column %(col)s)",
            digit=self.digit,
            unit=_UNIT_AT[self.unit](self.number),
            row=row,
            col=col,
        )


@dataclass(frozen=True, slots=True)
class Completion:
    """A unit completed by a placement. ``void`` when a grey joker stands in it."""

    unit: str
    number: int
    points: int
    void: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one move did.

    kind: "placed" (correct stone), "wrong" (stone removed, a life lost),
    "joker" (joker placed), "time_up" (move refused: the clock ran out, game over).
    """

    kind: str
    message: str
    lives_left: int
    finished: bool
    end_reason: str | None
    cell: Cell | None = None
    digit: int | None = None  # the stone pushed (push moves)
    joker: str | None = None  # "grey" / "gold" (joker moves)
    points: int = 0
    scoring: tuple[tuple[str, int], ...] = ()  # (label, points), sums to ``points``
    completed: tuple[Completion, ...] = ()
    reason: str | None = None  # why a placement was wrong
    clashes: tuple[Clash, ...] = ()
    skipped: tuple[int, ...] = ()  # stones skipped automatically after this move

    @property
    def ok(self) -> bool:
        return self.kind in ("placed", "joker")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (never contains solution digits beyond what the move
        revealed: a correct stone's own cell)."""
        return {
            "kind": self.kind,
            "message": self.message,
            "lives_left": self.lives_left,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "cell": list(self.cell) if self.cell else None,
            "digit": self.digit,
            "joker": self.joker,
            "points": self.points,
            "scoring": [[label, pts] for label, pts in self.scoring],
            "completed": [
                {"unit": c.unit, "number": c.number, "points": c.points, "void": c.void} for c in self.completed
            ],
            "reason": self.reason,
            "clashes": [
                {"digit": c.digit, "unit": c.unit, "number": c.number, "cell": list(c.cell)} for c in self.clashes
            ],
            "skipped": list(self.skipped),
        }


# --------------------------------------------------------------------------- input checks


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_now(now: object) -> float:
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        raise BadMove(f"the time must be a finite number of seconds, not {now!r}")
    return float(now)


def _check_entry(edge: object, line: object) -> tuple[str, int]:
    if edge not in EDGES:
        raise BadMove(f"edge must be one of top, bottom, left, right, not {edge!r}")
    if not _is_int(line) or not 1 <= line <= 9:
        raise BadMove(f"line must be a whole number from 1 to 9, not {line!r}")
    return edge, line


def _check_cell(row: object, col: object) -> Cell:
    for name, value in (("row", row), ("column", col)):
        if not _is_int(value) or not 1 <= value <= 9:
            raise BadMove(f"{name} must be a whole number from 1 to 9, not {value!r}")
    return row, col  # type: ignore[return-value]  # both checked by the loop above


def _check_kind(kind: object) -> str:
    if kind not in JOKER_KINDS:
        raise BadMove(f"joker kind must be 'grey' or 'gold', not {kind!r}")
    return kind


def _check_seed(seed: object) -> int | str:
    if not (_is_int(seed) or isinstance(seed, str)):
        raise BadPosition(f"the seed must be an int or a str, not {seed!r}")
    return seed


def _check_grid(name: str, values: object, *, complete: bool) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise BadPosition(f"{name} must be a sequence of 81 ints")
    values = tuple(values)
    if len(values) != 81:
        raise BadPosition(f"{name} must hold 81 cells, not {len(values)}")
    low = 1 if complete else 0
    for i, v in enumerate(values):
        if not _is_int(v) or not low <= v <= 9:
            row, col = grid.cell_of(i)
            raise BadPosition(f"{name}: row {row}, column {col} holds {v!r}")
    return values


def _check_start(puzzle: object, solution: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    puzzle = _check_grid("puzzle", puzzle, complete=False)
    solution = _check_grid("solution", solution, complete=True)
    for (kind, number), cells in grid.UNIT_CELLS.items():
        if sorted(solution[grid.index(c)] for c in cells) != list(range(1, 10)):
            raise BadPosition(f"solution: {kind} {number} does not hold 1-9 once each")
    for i, (given, digit) in enumerate(zip(puzzle, solution, strict=True)):
        if given != EMPTY and given != digit:
            row, col = grid.cell_of(i)
            raise BadPosition(f"puzzle: row {row}, column {col} disagrees with the solution")
    if EMPTY not in puzzle:
        raise BadPosition("puzzle has no empty cell: there is nothing to play")
    return puzzle, solution


# --------------------------------------------------------------------------- helpers


def _empty_targets(board: Sequence[int], solution: Sequence[int]) -> list[int]:
    """For each digit, how many empty cells have it as their solution."""
    counts = [0] * 10
    for value, digit in zip(board, solution, strict=True):
        if value == EMPTY:
            counts[digit] += 1
    return counts


def _skip(bag: tuple[int, ...], board, solution) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Drop every stone whose digit has no empty target cell left."""
    targets = _empty_targets(board, solution)
    kept = tuple(d for d in bag if targets[d] > 0)
    skipped = tuple(d for d in bag if targets[d] == 0)
    return kept, skipped


def _jokers_total(state: State) -> int:
    return state.grey_jokers + state.gold_jokers


def _elapsed(state: State, now: float) -> float:
    return max(0.0, now - state.started_at)


def _end_reason(state: State) -> str | None:
    if grid.is_full(state.board):
        return END_FULL
    if state.lives <= 0:
        return END_LIVES
    if _jokers_total(state) == 0 and (not state.bag or not _fits_somewhere(state)):
        return END_STUCK
    return None


def _fits_somewhere(state: State) -> bool:
    """Some entry point lands the current stone on its own cell. Without jokers the board
    only changes when the current stone is placed right, so a stone that fits nowhere now
    never will: wrong pushes could only throw lives away (docs/rules.md section 4)."""
    stone = state.current_stone
    return any(state.solution[grid.index(cell)] == stone for cell in grid.valid_entries(state.board).values())


def _settle(state: State, now: float) -> State:
    """Recompute unreachable cells and end the game if it is over."""
    state = replace(state, unreachable=grid.unreachable_cells(state.board))
    reason = _end_reason(state)
    if reason is not None:
        state = replace(state, finished=True, end_reason=reason, ended_at=now)
    return state


def _ensure_playing(state: State) -> None:
    if state.finished:
        raise GameOver(
            f"the game is over: {END_MESSAGES.get(state.end_reason or '', 'finished')}",
            state.end_reason,
        )


def _time_up(state: State, move: tuple[Any, ...], now: float) -> tuple[State, Outcome]:
    state = replace(
        state,
        finished=True,
        end_reason=END_TIME,
        ended_at=state.started_at + TIME_LIMIT,
        moves=state.moves + (move,),
    )
    outcome = Outcome(
        kind="time_up",
        message=Sentences([END_MESSAGES[END_TIME], _("The move was not played.")]),
        lives_left=state.lives,
        finished=True,
        end_reason=END_TIME,
    )
    return state, outcome


def _completions(board: Sequence[int], cell: Cell) -> tuple[Completion, ...]:
    found = []
    for unit, number in grid.units_of(cell):
        values = [board[grid.index(c)] for c in grid.UNIT_CELLS[(unit, number)]]
        if EMPTY in values:
            continue
        if GREY in values:
            found.append(Completion(unit, number, 0, True))
        else:
            total = sum(v for v in values if v > 0) * UNIT_FACTOR
            found.append(Completion(unit, number, min(UNIT_MAX, total), False))
    return tuple(found)


def _clashes(board: Sequence[int], cell: Cell, digit: int) -> tuple[Clash, ...]:
    found = []
    for unit, number in grid.units_of(cell):
        for other in grid.UNIT_CELLS[(unit, number)]:
            if other != cell and board[grid.index(other)] == digit:
                found.append(Clash(digit, unit, number, other))
    return tuple(found)


def _fill(
    state: State, cell: Cell, code: int, first_points: tuple[str, int] | None, now: float
) -> tuple[State, list[tuple[str, int]], tuple[Completion, ...]]:
    """Put ``code`` on ``cell`` and score it: the placement itself, completed units,
    the multi-unit bonus and the full-grid bonus."""
    i = grid.index(cell)
    board = state.board[:i] + (code,) + state.board[i + 1 :]
    scoring: list[tuple[str, int]] = [first_points] if first_points else []
    completed = _completions(board, cell)
    for c in completed:
        label = _UNIT_AT[c.unit](c.number)
        if c.void:
            label = _("%(unit)s (grey joker: no points)", unit=label)
        scoring.append((label, c.points))
    earning = sum(1 for c in completed if not c.void)
    if earning in MULTI_UNIT_BONUS:
        scoring.append((_("%(n)s units at once", n=earning), MULTI_UNIT_BONUS[earning]))
    if grid.is_full(board):
        scoring.append((_("full grid"), FULL_GRID_POINTS))
        seconds = int(max(0.0, TIME_LIMIT - _elapsed(state, now)))
        scoring.append((_("time bonus (%(seconds)s s left)", seconds=seconds), seconds * TIME_BONUS_PER_SECOND))
    points = sum(p for _, p in scoring)
    return replace(state, board=board, score=state.score + points), scoring, completed


def _fill_and_skip(
    state: State,
    cell: Cell,
    code: int,
    first_points: tuple[str, int] | None,
    bag: tuple[int, ...],
    now: float,
    **changes: Any,
) -> tuple[State, dict[str, Any]]:
    """A stone or joker put on ``cell`` and scored (``_fill``), the stones of ``bag`` left
    without a place skipped, ``changes`` made, the state settled; with the Outcome's
    fields for what it scored."""
    state, scoring, completed = _fill(state, cell, code, first_points, now)
    bag, skipped = _skip(bag, state.board, state.solution)
    state = _settle(replace(state, bag=bag, **changes), now)
    points = sum(p for _, p in scoring)
    return state, {"points": points, "scoring": tuple(scoring), "completed": completed, "skipped": skipped}


def _outcome(state: State, kind: str, message: str, **fields: Any) -> Outcome:
    """A played move's outcome on the state it left: its message says so if the game ended."""
    return Outcome(
        kind=kind,
        message=_with_end(message, state),
        lives_left=state.lives,
        finished=state.finished,
        end_reason=state.end_reason,
        **fields,
    )


def _describe_points(head: str, points: int, scoring: Sequence[tuple[str, int]]) -> str:
    detail = Sentences([_("%(label)s %(points)s", label=label, points=pts) for label, pts in scoring], ", ")
    return _("%(head)s +%(points)s (%(detail)s).", head=head, points=points, detail=detail) if detail else head


def skipped_message(digits) -> str:
    return _("Skipped: %(digits)s (no empty cell left for it).", digits=", ".join(map(str, digits)))


def _with_end(message: str, state: State) -> str:
    if state.finished and state.end_reason:
        return _("%(message)s Game over: %(reason)s", message=message, reason=END_MESSAGES[state.end_reason])
    return message


# --------------------------------------------------------------------------- public API


def new_game(puzzle: Sequence[int], solution: Sequence[int], seed: int | str, started_at: float) -> State:
    """Start a game. ``puzzle`` and ``solution`` are 81 ints, row-major (0 = empty in
    the puzzle); the caller guarantees the solution is the puzzle's only one. The
    stones are the solution digits of the empty cells, shuffled by
    ``random.Random(seed)``: the same seed gives the same order (a duel gives every
    player the same seed). ``started_at`` is the start on the clock later moves use."""
    puzzle, solution = _check_start(puzzle, solution)
    seed = _check_seed(seed)
    try:
        started_at = _check_now(started_at)
    except BadMove as exc:
        raise BadPosition(exc.message) from None
    stones = [digit for given, digit in zip(puzzle, solution, strict=True) if given == EMPTY]
    random.Random(seed).shuffle(stones)
    state = State(
        puzzle=puzzle,
        solution=solution,
        seed=seed,
        started_at=started_at,
        board=puzzle,
        bag=tuple(stones),
        unreachable=frozenset(),
    )
    return _settle(state, started_at)


def entry_points(state: State) -> dict[tuple[str, int], Cell]:
    """Valid entry points ``(edge, line)`` with the cell the stone would land on.
    Empty once the game is over (no move is valid then)."""
    if state.finished:
        return {}
    return grid.valid_entries(state.board)


def push(state: State, edge: str, line: int, now: float) -> tuple[State, Outcome]:
    """Push the current stone in at ``(edge, line)``; it slides until it meets a stone.

    Correct (the solution digit of the landing cell): placed, scored, the next stone
    becomes current. Wrong: a life is lost, the stone is removed and stays current;
    the outcome says why. Raises ``BadMove`` for malformed input, ``GameOver`` after
    the end, ``InvalidEntry`` for an entry that is not valid. A push at or after the
    10-minute limit is not played: it ends the game (outcome kind "time_up")."""
    edge, line = _check_entry(edge, line)
    now = _check_now(now)
    _ensure_playing(state)
    move = ("push", edge, line, now)
    if _elapsed(state, now) >= TIME_LIMIT:
        return _time_up(state, move, now)
    cell, why = grid.landing(state.board, edge, line)
    if cell is None:
        assert why is not None  # landing names the reason whenever it lands nowhere
        text = _("no stone to meet on that line") if why == grid.NO_STONE else _("the line is full at the edge")
        raise InvalidEntry(
            _("%(edge)s %(line)s is not a valid entry: %(why)s", edge=edge, line=line, why=text), edge, line, why
        )

    digit = state.bag[0]
    state = replace(state, moves=state.moves + (move,))
    if state.solution[grid.index(cell)] != digit:
        return _wrong_stone(state, cell, digit, now)
    return _placed_stone(state, cell, digit, now)


def _wrong_stone(state: State, cell: Cell, digit: int, now: float) -> tuple[State, Outcome]:
    """The pushed stone does not fit its landing cell: a life is lost, the stone stays current."""
    clashes = _clashes(state.board, cell, digit)
    reason = clashes[0].describe() if clashes else _("does not fit the solution")
    state = _settle(replace(state, lives=state.lives - 1), now)
    lives_text = _("1 life left") if state.lives == 1 else _("%(n)s lives left", n=state.lives)
    message = _("Wrong: the %(digit)s %(reason)s. %(lives)s.", digit=digit, reason=reason, lives=lives_text)
    return state, _outcome(state, "wrong", message, cell=cell, digit=digit, reason=reason, clashes=clashes)


def _placed_stone(state: State, cell: Cell, digit: int, now: float) -> tuple[State, Outcome]:
    """The pushed stone fits: placed and scored, and the next stone that has a place becomes current."""
    state, scored = _fill_and_skip(
        state, cell, digit, ("stone", STONE_POINTS), state.bag[1:], now, stones_placed=state.stones_placed + 1
    )
    message = _describe_points(_("Correct:"), scored["points"], scored["scoring"])
    return state, _outcome(state, "placed", message, cell=cell, digit=digit, **scored)


def place_joker(state: State, kind: str, row: int, col: int, now: float) -> tuple[State, Outcome]:
    """Place a joker ("grey" or "gold") on any empty cell, without sliding. The
    current stone is kept (unless the joker took its last target cell: then it and
    every other stone of that digit are skipped). Raises ``BadMove``, ``GameOver``,
    ``NoJokersLeft`` or ``CellOccupied``; at or after the time limit it ends the game
    like ``push``."""
    kind = _check_kind(kind)
    cell = _check_cell(row, col)
    now = _check_now(now)
    _ensure_playing(state)
    move = ("joker", kind, row, col, now)
    if _elapsed(state, now) >= TIME_LIMIT:
        return _time_up(state, move, now)
    if state.jokers_left[kind] <= 0:
        raise NoJokersLeft(_("no grey jokers left") if kind == "grey" else _("no gold jokers left"), kind)
    if state.board[grid.index(cell)] != EMPTY:
        raise CellOccupied(_("row %(row)s, column %(col)s is not empty", row=row, col=col), cell)

    if kind == "grey":
        state = replace(state, grey_jokers=state.grey_jokers - 1)
        first = None
    else:
        state = replace(state, gold_jokers=state.gold_jokers - 1)
        first = (_("gold joker"), GOLD_JOKER_POINTS)
    state = replace(state, moves=state.moves + (move,))
    code = GREY if kind == "grey" else GOLD
    state, scored = _fill_and_skip(state, cell, code, first, state.bag, now)
    head = _("Grey joker placed.") if kind == "grey" else _("Gold joker placed.")
    message = _describe_points(head, scored["points"], scored["scoring"]) if scored["scoring"] else head
    if scored["skipped"]:
        message = Sentences([message, skipped_message(scored["skipped"])])
    return state, _outcome(state, "joker", message, cell=cell, joker=kind, **scored)


def check_time(state: State, now: float) -> State:
    """End the game if the 10 minutes have passed at ``now``; otherwise (or when the
    game is already over) return ``state`` unchanged. The ending is logged in
    ``moves`` as ``("time", now)`` so a replay reproduces it."""
    now = _check_now(now)
    if state.finished or _elapsed(state, now) < TIME_LIMIT:
        return state
    return replace(
        state,
        finished=True,
        end_reason=END_TIME,
        ended_at=state.started_at + TIME_LIMIT,
        moves=state.moves + (("time", now),),
    )


def apply_move(state: State, move: Sequence[Any]) -> tuple[State, Outcome | None]:
    """Apply one logged move: ``("push", edge, line, now)``,
    ``("joker", kind, row, col, now)`` or ``("time", now)`` (lists work too, as
    stored in JSON). Returns the new state and the outcome (None for "time")."""
    if isinstance(move, (str, bytes)) or not isinstance(move, Sequence) or not move:
        raise BadMove(f"a move must be a list or tuple, not {move!r}")
    name, args = move[0], tuple(move[1:])
    if name == "push" and len(args) == 3:
        return push(state, *args)
    if name == "joker" and len(args) == 4:
        return place_joker(state, *args)
    if name == "time" and len(args) == 1:
        return check_time(state, args[0]), None
    raise BadMove(f"not a move: {move!r}")


def replay(
    puzzle: Sequence[int], solution: Sequence[int], seed: int | str, started_at: float, moves: Sequence[Sequence[Any]]
) -> State:
    """Rebuild a game from its start data and its move log."""
    state = new_game(puzzle, solution, seed, started_at)
    for move in moves:
        state, _outcome = apply_move(state, move)
    return state

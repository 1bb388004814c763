"""Puzzle generation: a random full grid from the seed, then digging.

How it stays fast in pure Python:

* Easy: dig holes while naked/hidden singles still finish the puzzle (that
  also proves uniqueness) until the clue count reaches a target in the band;
  holes are tried in batches (if singles cope without a whole batch, they
  cope without each part of it).
* Medium/Hard/Expert: dig to a *minimal* unique puzzle in one random pass
  (without a singles-first bias about 40% of these need more than our
  techniques), then steer it into the level:
  - Adding a clue never makes a puzzle harder, so a too-hard puzzle is walked
    down one clue at a time.
  - The grade is the smallest technique set whose closure (apply those
    techniques until nothing changes) solves the puzzle. Closures are
    monotone, so the closure of "puzzle + clue c" equals the closure of
    "old closure + c": every candidate clue is tested from cached closures
    instead of re-grading from scratch.
  - A cell already solved in the closure just below the level (singles for
    Medium, Medium techniques for Hard, all techniques for Expert) can be
    added as a clue without changing the grade, which lifts the clue count
    into the band.
* Every removal keeps the puzzle unique: singles still finish it, or a search
  for a solution that differs in that cell fails.
* The cheap opening holes of a grid are shared by a few digs, each finishing
  in its own random order, so a failed attempt costs less than a fresh grid.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .grader import MAX_RANK, Grade, grade, rate_state
from .grid import CELLS, Grid
from .levels import CLUE_BANDS, Level
from .solver import FW, KEEP, PLACE, RBIT, initial_state, propagate, random_solution, search
from .techniques import ELIM

State = tuple[int, int, int]

MAX_ATTEMPTS = 300


@dataclass(frozen=True)
class Generated:
    puzzle: Grid
    solution: Grid
    level: Level
    grade: Grade
    clues: int
    seed: int


class GenerationFailed(RuntimeError):
    """No puzzle of the requested level was found within the attempt limit."""


def _open(U: int, c: int) -> bool:
    """Is cell c still unsolved in a state with unsolved mask U?"""
    return bool(U >> (FW * (c // 9) + c % 9) & 1)


def _closure(puz: list[int]) -> State:
    st = initial_state(tuple(puz))
    assert st is not None  # digging from a valid grid never creates clashes
    return propagate(*st)


def _place(st: State, c: int, v: int) -> State:
    X, P, U = st
    m = (v - 1) * 81 + c
    return X & KEEP[m], P | PLACE[m], U & ~RBIT[c]


def _close(st: State, cap: int, closed: int | None = None) -> State:
    """Closure of a state under techniques up to rank `cap`; `closed` is the
    bitboard of a closed state this one grew from (see rate_state)."""
    if cap <= 1:
        return propagate(*st)
    _, X, P, U = rate_state(*st, cap, None, closed)
    return X, P, U


# ------------------------------------------------------------------ digging
def _rectangles(sol: Grid) -> list[list[tuple[int, int, int]]]:
    """Per cell, the other three cells of each deadly rectangle through it.

    Four cells on two rows and two columns, spanning two boxes, holding a b /
    b a: with all four empty the puzzle has a second solution (swap a and b),
    so such a removal is refused without a search (about a quarter of the
    refusals while digging).
    """
    out: list[list[tuple[int, int, int]]] = [[] for _ in range(CELLS)]
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            same_band = r1 // 3 == r2 // 3
            row1, row2 = sol[r1 * 9 : r1 * 9 + 9], sol[r2 * 9 : r2 * 9 + 9]
            for c1 in range(9):
                a = row1[c1]
                b = row2[c1]
                for c2 in range(c1 + 1, 9):
                    if row1[c2] == b and row2[c2] == a and same_band != (c1 // 3 == c2 // 3):
                        cells = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
                        for x in cells:
                            out[x].append(tuple(y for y in cells if y != x))  # type: ignore[arg-type]
    return out


def _dig_minimal(
    sol: Grid,
    order: list[int],
    start: list[int] | None = None,
    first_batch: int = 16,
    rects: list[list[tuple[int, int, int]]] | None = None,
) -> list[int]:
    """One pass over `order` that removes every clue it can while staying
    unique, from the full grid or from `start` (a unique puzzle of `sol`).
    `rects` (from _rectangles) refuses some removals without a search.

    Early removals almost always keep the puzzle singles-solvable, so cells
    are tried in batches first: if singles solve the puzzle without the whole
    batch, each single removal would have passed too (fewer clues never make
    singles stronger), so the result equals the one-by-one pass.
    """
    puz = list(sol if start is None else start)
    i = 0
    k = first_batch
    while i < len(order):
        if k > 1:
            batch = order[i : i + k]
            if _singles_without(puz, batch):
                _clear(puz, batch)
                i += len(batch)
                k = min(2 * k, 32)
                continue
            # Binary search for the longest prefix singles still allow.
            good, bad = 0, len(batch)
            while bad - good > 1:
                mid = (good + bad) // 2
                if _singles_without(puz, batch[:mid]):
                    good = mid
                else:
                    bad = mid
            _clear(puz, batch[:good])
            i += good
            k //= 2
        c = order[i]
        i += 1
        v = puz[c]
        if not v:
            continue
        if rects is not None and any(not (puz[x] or puz[y] or puz[z]) for x, y, z in rects[c]):
            continue  # would empty a deadly rectangle: keep the clue
        puz[c] = 0
        # Unique iff no solution has anything but v in c. The search's own
        # propagation settles the easy cases, so no separate singles pass.
        st = initial_state(tuple(puz))
        assert st is not None
        X, P, U = st
        # Trying the known solution's digits first finds a second solution
        # fast; locked candidates cost more than they save on these shallow
        # searches (measured).
        if search(X & ~ELIM[(v - 1) * 81 + c], P, U, 1, 1_000_000, prefer=sol, use_locked=False)[0]:
            puz[c] = v
    return puz


def _dig_prefix(sol: Grid, order: list[int], target: int) -> list[int]:
    """Remove cells in order, in batches, while singles still solve, down to
    `target` clues (or until a batch fails): the cheap, shared start of digs."""
    puz = list(sol)
    n = CELLS
    i = 0
    k = 16
    while i < len(order) and n > target:
        batch = order[i : i + min(k, n - target)]
        if _singles_without(puz, batch):
            _clear(puz, batch)
            i += len(batch)
            n -= len(batch)
        elif k > 1:
            k //= 2
        else:
            i += 1
    return puz


def _singles_without(puz: list[int], cells: list[int]) -> bool:
    """Would singles still solve the puzzle with these clues removed?"""
    trial = list(puz)
    for c in cells:
        trial[c] = 0
    return _closure(trial)[2] == 0


def _clear(puz: list[int], cells: list[int]) -> None:
    for c in cells:
        puz[c] = 0


# ------------------------------------------------------------------ steering
class _Closures:
    """A puzzle's closures at the level's floor (just too weak) and cap."""

    def __init__(self, puz: list[int], floor: int, cap: int) -> None:
        self.floor_state = _close(_closure(puz), floor)
        self.cap_state = _close(self.floor_state, cap) if self.floor_state[2] else self.floor_state
        self.floor = floor
        self.cap = cap

    @property
    def too_easy(self) -> bool:
        return self.floor_state[2] == 0

    @property
    def too_hard(self) -> bool:
        return self.cap_state[2] != 0

    def add(self, c: int, v: int) -> _Closures:
        new = object.__new__(_Closures)
        new.floor, new.cap = self.floor, self.cap
        fs = self.floor_state
        new.floor_state = _close(_place(fs, c, v), self.floor, fs[0]) if _open(fs[2], c) else fs
        if new.floor_state[2] == 0:
            new.cap_state = new.floor_state
        elif _open(self.cap_state[2], c):
            # Start from both closures at once: the floor work is not redone.
            X, P, U = _place(self.cap_state, c, v)
            fX, fP, fU = new.floor_state
            new.cap_state = _close((X & fX, P | fP, U & fU), self.cap, self.cap_state[0])
        else:
            new.cap_state = self.cap_state
        return new


def _steer(puz: list[int], sol: Grid, level: Level, rng: random.Random) -> tuple[list[int], _Closures] | None:
    """Add clues until the puzzle is exactly `level` (or give up)."""
    floor = {Level.MEDIUM: 1, Level.HARD: MAX_RANK[Level.MEDIUM], Level.EXPERT: MAX_RANK[Level.HARD]}[level]
    cap = MAX_RANK[level]
    cl = _Closures(puz, floor, cap)
    if level is Level.EXPERT:
        return (puz, cl) if cl.too_hard else None
    if cl.too_easy:
        return None  # clues can only make it easier still
    hi = CLUE_BANDS[level][1]
    n = sum(1 for v in puz if v)
    # Measured: a second round rescues ~1 in 4 of the puzzles the first round
    # could not; later rounds almost never pay for themselves.
    for _ in range(2):
        if not cl.too_hard or n >= hi:
            break
        # Only cells the capped techniques never reach can change the grade.
        U = cl.cap_state[2]
        cand = [c for c in range(CELLS) if not puz[c] and _open(U, c)]
        rng.shuffle(cand)
        fallback = None
        for c in cand:
            new = cl.add(c, sol[c])
            if new.too_easy:
                continue
            if not new.too_hard:
                puz[c] = sol[c]
                return puz, new
            # Still too hard: keep the clue that leaves the fewest cells open.
            left = new.cap_state[2].bit_count()
            if fallback is None or left < fallback[0]:
                fallback = (left, c, new)
        if fallback is None:
            return None
        _, c, cl = fallback
        puz[c] = sol[c]
        n += 1
    return (puz, cl) if not cl.too_hard and not cl.too_easy else None


def _top_up(puz: list[int], sol: Grid, cl: _Closures, target: int, rng: random.Random) -> bool:
    """Add grade-neutral clues (solved in the floor closure) up to `target`."""
    n = sum(1 for v in puz if v)
    if n >= target:
        return n == target
    # For Expert the cap closure is the stuck state: anything solved there is neutral too.
    ref = cl.cap_state if cl.too_hard else cl.floor_state
    U = ref[2]
    free = [c for c in range(CELLS) if not puz[c] and not _open(U, c)]
    if len(free) < target - n:
        return False
    for c in rng.sample(free, target - n):
        puz[c] = sol[c]
    return True


def generate(level: Level | str, seed: int) -> Generated:
    """A unique puzzle of `level`, deterministic for (level, seed).

    Only a `random.Random` seeded from (level, seed) drives the choices.
    """
    lvl = Level.coerce(level)
    rng = random.Random(f"sudoku:{lvl.value}:{seed}")
    lo, hi = CLUE_BANDS[lvl]
    sol: Grid = ()
    prefix: list[int] = []
    rects: list[list[tuple[int, int, int]]] = []
    for attempt in range(MAX_ATTEMPTS):
        target = rng.randint(lo, hi)
        if lvl is Level.EASY:
            sol = random_solution(rng)
            order = list(range(CELLS))
            rng.shuffle(order)
            puz = _dig_prefix(sol, order, target)
            if sum(1 for v in puz if v) != target:
                continue
        else:
            if attempt % DIGS_PER_GRID == 0:
                # A new grid and its cheap opening holes, shared by the next
                # few digs; each dig finishes the job in its own random order.
                sol = random_solution(rng)
                order = list(range(CELLS))
                rng.shuffle(order)
                prefix = _dig_prefix(sol, order, PREFIX_CLUES)
                rects = _rectangles(sol)
            rest = [c for c in range(CELLS) if prefix[c]]
            rng.shuffle(rest)
            steered = _steer(_dig_minimal(sol, rest, start=prefix, first_batch=1, rects=rects), sol, lvl, rng)
            if steered is None:
                continue
            puz, cl = steered
            n = sum(1 for v in puz if v)
            if n > hi or not _top_up(puz, sol, cl, max(target, n), rng):
                continue
        result = tuple(puz)
        g = grade(result)
        if g.level is not lvl:  # belt and braces: the public grade decides
            continue
        return Generated(puzzle=result, solution=sol, level=lvl, grade=g, clues=sum(1 for v in result if v), seed=seed)
    raise GenerationFailed(f"no {lvl.value} puzzle after {MAX_ATTEMPTS} attempts (seed {seed})")


# Shared opening: holes that singles still fill, down to this many clues
# (cheap batch tests), reused by this many digs before drawing a new grid.
PREFIX_CLUES = 38
DIGS_PER_GRID = 4

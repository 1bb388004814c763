"""Human-technique grading and hints.

The grader solves like a person: at every step it applies the simplest
technique that makes progress (singles first), and the level is set by the
hardest technique the solve needed. It never consults the solution, so the
same code gives players hints.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import Grid, rc
from .levels import Level
from .solver import (
    KEEP,
    M1,
    M2,
    M4,
    MOVE_AT,
    PLACE,
    RBIT,
    REPL,
    SLOT,
    G,
    L,
    initial_state,
    locked,
    propagate,
)
from .techniques import (
    ELIMINATORS,
    HIDDEN_SINGLE,
    HIDDEN_TRIPLE,
    LOCKED_CANDIDATES,
    NAKED_SINGLE,
    RANK,
    SCANS,
    TECHNIQUES,
    XY_WING,
    Ctx,
    Found,
    delta,
    find_hidden_single,
    find_naked_single,
)

STUCK = len(TECHNIQUES)  # "needs something beyond our techniques"


def level_for_rank(rank: int) -> Level:
    """Hardest technique rank -> level (see docs/rules.md: Difficulty)."""
    if rank <= RANK[HIDDEN_SINGLE]:
        return Level.EASY
    if rank <= RANK[HIDDEN_TRIPLE]:
        return Level.MEDIUM
    if rank <= RANK[XY_WING]:
        return Level.HARD
    return Level.EXPERT


# Highest technique rank allowed for a level (used to stop grading early).
MAX_RANK: dict[Level, int] = {
    Level.EASY: RANK[HIDDEN_SINGLE],
    Level.MEDIUM: RANK[HIDDEN_TRIPLE],
    Level.HARD: RANK[XY_WING],
    Level.EXPERT: STUCK,
}


@dataclass(frozen=True)
class Grade:
    level: Level
    techniques: tuple[str, ...]  # in order of first use
    solved: bool  # did the techniques alone finish the puzzle?


@dataclass(frozen=True)
class Hint:
    technique: str
    cell: tuple[int, int]  # (row, col), 1-based
    digit: int | None
    explanation: str


class Contradiction(ValueError):
    """The grid breaks the rules somewhere (a cell or unit has no option left)."""


def _naked_singles(X: int, P: int, U: int) -> tuple[int, int, int, bool]:
    """Place every cell that has one candidate left. Returns (X, P, U, found); U == -1 on
    a contradiction (a cell with no candidate, or two singles that clash)."""
    a = X & M4
    b = (X >> 4 * SLOT) & M4
    o = a | b
    t = a & b
    a = o & M2
    b = o >> 2 * SLOT
    t = (t & M2) | (t >> 2 * SLOT) | (a & b)
    o = a | b
    a = o & M1
    b = o >> SLOT
    t = (t & M1) | (t >> SLOT) | (a & b)
    o = (o | b) & M1
    c = X >> 8 * SLOT
    ones = o | c  # cells with at least one candidate
    if U & ~ones:
        return X, P, -1, False
    s = ones & ~(t | (o & c)) & U  # unsolved cells with exactly one
    if not s:
        return X, P, U, False
    keep, place, move_at = KEEP, PLACE, MOVE_AT
    U ^= s
    x = X & (s * REPL)
    while x:
        low = x & -x
        x ^= low
        if not X & low:
            return X, P, -1, True
        m = move_at[low.bit_length() - 1]
        X &= keep[m]
        P |= place[m]
    return X, P, U, True


def _hidden_singles(X: int, P: int, U: int) -> tuple[int, int, int, bool]:
    """Place every digit that has one place left in a unit. Returns (X, P, U, found); U ==
    -1 on a contradiction (a digit with no place left in a unit)."""
    t = (X | G) - L
    nz = t & G
    if (G ^ nz) & ~P:
        return X, P, -1, False
    single = nz & ~(((X & t) | G) - L)
    if not single:
        return X, P, U, False
    keep, place, move_at = KEEP, PLACE, MOVE_AT
    x = X & (single - (single >> 9))
    while x:
        low = x & -x
        x ^= low
        m = move_at[low.bit_length() - 1]
        pl = place[m]
        if P & pl == pl:
            continue
        if not X & low:
            return X, P, -1, True
        X &= keep[m]
        P |= pl
        U &= ~RBIT[m % 81]
    return X, P, U, True


def singles(X: int, P: int, U: int, used: list[str] | None = None) -> tuple[int, int, int]:
    """Naked singles first, then hidden singles, to a fixpoint.

    Like solver.propagate, but tries the simpler technique first and records
    which were used. Returns U == -1 on a contradiction.
    """
    naked = hidden = False
    while U >= 0:
        X, P, U, found = _naked_singles(X, P, U)
        if found:
            naked = True
            continue
        if U < 0:
            break
        X, P, U, found = _hidden_singles(X, P, U)
        if not found:
            break
        hidden = True
    if used is not None:
        if naked and NAKED_SINGLE not in used:
            used.append(NAKED_SINGLE)
        if hidden and HIDDEN_SINGLE not in used:
            used.append(HIDDEN_SINGLE)
    return X, P, U


def rate_state(
    X: int, P: int, U: int, cap: int = STUCK, used: list[str] | None = None, closed: int | None = None
) -> tuple[int, int, int, int]:
    """Solve with techniques up to rank `cap`.

    Returns (hardest rank used, X, P, U). The rank is STUCK when the
    techniques cannot finish (U > 0 then), cap+1 when a harder technique than
    `cap` would be needed (stops early), and -1 on a contradiction.

    `closed` is the candidate bitboard of an earlier state that was already
    closed under every technique up to `cap` (the start must have evolved from
    it by placements and eliminations only); scans then only look at patterns
    that changed since, which makes re-closing after a new clue cheap.
    """
    hardest = RANK[NAKED_SINGLE]
    # Per scan: the last bitboard on which it found nothing.
    bases: list[int | None] = [closed] * len(SCANS)
    while True:
        X, P, U = singles(X, P, U, used)
        if U < 0:
            return -1, X, P, U
        if U == 0:
            return hardest, X, P, U
        if cap < RANK[LOCKED_CANDIDATES]:
            return cap + 1, X, P, U
        # Locked candidates in bulk: same technique everywhere it applies.
        X2 = locked(X)
        if X2 != X:
            X = X2
            hardest = max(hardest, RANK[LOCKED_CANDIDATES])
            if used is not None and LOCKED_CANDIDATES not in used:
                used.append(LOCKED_CANDIDATES)
            continue
        ctx = Ctx(X, P, U)
        for i in range(1, len(SCANS)):
            name, scan = SCANS[i]
            r = RANK[name]
            if r > cap:
                return cap + 1, X, P, U
            base = bases[i]
            if base == X:
                continue  # nothing changed since this scan last came up empty
            hits = scan(ctx, False, None if base is None else delta(base, X))
            if hits:
                # Every instance of the same technique at once: same closure, fewer rounds.
                for mask, _ in hits:
                    X &= ~mask
                hardest = max(hardest, r)
                if used is not None and name not in used:
                    used.append(name)
                break
            bases[i] = X
        else:
            return STUCK, X, P, U


def _state(grid: Grid) -> tuple[int, int, int]:
    st = initial_state(grid)
    if st is None:
        raise Contradiction("the grid repeats a digit in a row, column or box")
    return st


def grade(grid: Grid) -> Grade:
    """Grade a puzzle by the hardest technique a human solve needs.

    Assumes a valid puzzle; a puzzle with several solutions simply ends up
    Expert/unsolved because logic cannot finish it.
    """
    X, P, U = _state(grid)
    used: list[str] = []
    rank, X, P, U = rate_state(X, P, U, STUCK, used)
    if rank < 0:
        raise Contradiction("the puzzle has no solution")
    if U == 0 and not used:
        used.append(NAKED_SINGLE)  # already complete; call it trivially easy
    return Grade(level=level_for_rank(max(rank, 0)), techniques=tuple(used), solved=U == 0)


def _single_found(ctx: Ctx) -> Found | None:
    return find_naked_single(ctx) or find_hidden_single(ctx)


def next_hint(grid: Grid) -> Hint | None:
    """The next step a human would take from this grid, without the solution.

    A naked or hidden single is returned as is. Otherwise eliminations are
    applied (simplest technique first) until a single appears, and the hint
    names the hardest technique on that path, the cell and digit it unlocks,
    and explains each step. None when the grid is full, contradictory, or
    beyond the known techniques.
    """
    st = initial_state(grid)
    if st is None:
        return None
    X, P, U = st
    if U == 0 or propagate(X, P, U)[2] < 0:
        return None  # full, or singles already run into a dead cell or unit
    steps: list[Found] = []
    while True:
        ctx = Ctx(X, P, U)
        found = _single_found(ctx)
        if found is not None:
            assert found.placement is not None
            c, v = found.placement
            if not steps:
                return Hint(found.technique, rc(c), v, found.why)
            key = max(steps, key=lambda f: RANK[f.technique])
            chain = " ".join(f.why for f in steps)
            return Hint(key.technique, rc(c), v, f"{chain} Now: {found.why}")
        for _, finder in ELIMINATORS:
            found = finder(ctx)
            if found is not None:
                steps.append(found)
                X &= ~found.mask
                break
        else:
            if steps:
                # Progress was made but no placement follows: point at the
                # first affected cell so the player can update notes.
                first = steps[0]
                c, _ = first.eliminations[0]
                return Hint(first.technique, rc(c), None, " ".join(f.why for f in steps))
            return None
        if len(steps) > 40:  # safety net; real puzzles need far fewer
            return None


__all__ = [
    "MAX_RANK",
    "STUCK",
    "Contradiction",
    "Grade",
    "Hint",
    "grade",
    "level_for_rank",
    "next_hint",
    "rate_state",
    "singles",
]

"""Fast backtracking solver on one packed big-int bitboard.

Layout. Each digit's candidates are stored three times -- row-major,
column-major and box-major -- as 27 unit fields of 16 bits (9 cells + 1
guard bit, padded to 16) = 432 bits; the nine digits sit side by side in ONE
int of 3888 bits. CPython's cost for `&`, `|`, `-` and shifts barely depends on the size
of the int at this scale, so one operation examines all 243 (digit, unit)
pairs at once:

* hidden singles / dead units: `(X | G) - L` leaves a unit's guard bit set
  iff the unit has a place; repeating it on `X & that` finds units with
  exactly one place (the guard stops borrows from crossing units);
* naked singles / dead cells: fold the nine digit slots onto each other;
* locked candidates: shifts and masks over the box-major fields.

A search node is three ints (X, placed, unsolved), so branching copies nothing.
"""

from __future__ import annotations

import random as _random
from functools import reduce
from operator import or_

from .grid import BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, Grid

DEFAULT_MAX_STEPS = 200_000
FW = 10  # bits per unit field: 9 cells + a guard bit (bit 9). Wider fields cost time.
SLOT = 27 * FW  # bits per digit


def _pos_row(i: int) -> int:
    return FW * ROW_OF[i] + COL_OF[i]


def _pos_col(i: int) -> int:
    return 9 * FW + FW * COL_OF[i] + ROW_OF[i]


def _pos_box(i: int) -> int:
    return 18 * FW + FW * BOX_OF[i] + (ROW_OF[i] % 3) * 3 + COL_OF[i] % 3


def _rep(x: int) -> int:
    """Copy a one-slot mask into all nine digit slots."""
    return sum(x << (SLOT * d) for d in range(9))


CELL3: tuple[int, ...] = tuple((1 << _pos_row(i)) | (1 << _pos_col(i)) | (1 << _pos_box(i)) for i in range(CELLS))
PEER3: tuple[int, ...] = tuple(CELL3[i] | sum(CELL3[j] for j in PEERS[i]) for i in range(CELLS))
RBIT: tuple[int, ...] = tuple(1 << _pos_row(i) for i in range(CELLS))
ROWPART = sum(RBIT)
FULL1 = sum(CELL3)
FULL = _rep(FULL1)
G1 = sum(1 << (FW * u + 9) for u in range(27))
G = _rep(G1)  # guard bit of every (digit, unit) field
L = _rep(sum(1 << (FW * u) for u in range(27)))  # lowest bit of every field
M1 = (1 << SLOT) - 1
M2 = (1 << (2 * SLOT)) - 1
M4 = _rep(M1) & ((1 << (4 * SLOT)) - 1)  # slots 0-3

# Per (digit, cell) move, index d*81 + cell:
# KEEP clears the cell for every digit and the cell's peers for digit d;
# PLACE records the three unit guards and the row-major bit in d's slot.
KEEP: tuple[int, ...] = tuple(
    FULL ^ (_rep(CELL3[i]) | (PEER3[i] << (SLOT * d))) for d in range(9) for i in range(CELLS)
)
CLEAR: tuple[int, ...] = tuple(FULL ^ k for k in KEEP)
PLACE: tuple[int, ...] = tuple(
    ((1 << (FW * ROW_OF[i] + 9)) | (1 << (FW * (9 + COL_OF[i]) + 9)) | (1 << (FW * (18 + BOX_OF[i]) + 9)) | RBIT[i])
    << (SLOT * d)
    for d in range(9)
    for i in range(CELLS)
)
# Bit position in the packed int -> move index (d*81 + cell), -1 for guards.
MOVE_AT: list[int] = [-1] * (9 * SLOT)
for _d in range(9):
    for _i in range(CELLS):
        for _p in (_pos_row(_i), _pos_col(_i), _pos_box(_i)):
            MOVE_AT[SLOT * _d + _p] = _d * 81 + _i
POS2CELL: list[int] = [-1] * SLOT
for _i in range(CELLS):
    POS2CELL[_pos_row(_i)] = _i

# --- locked candidates: flags per (box, row-in-box) and (box, column-in-box) ---
BOXBASE = 18 * FW


def _fields(boxes) -> int:
    return _rep(sum(1 << (BOXBASE + FW * b + k) for b in boxes for k in range(9)))


SEGR = _rep(sum(1 << (BOXBASE + FW * b + 3 * k) for b in range(9) for k in range(3)))
SEGC = _rep(sum(1 << (BOXBASE + FW * b + m) for b in range(9) for m in range(3)))
F01, F2, F0, F12 = _fields([0, 1, 3, 4, 6, 7]), _fields([2, 5, 8]), _fields([0, 3, 6]), _fields([1, 2, 4, 5, 7, 8])
S01, S2, S0, S12 = _fields(range(6)), _fields(range(6, 9)), _fields(range(3)), _fields(range(3, 9))
# Flag bit position -> candidates it eliminates (pointing: line outside the
# box; claiming: box outside the line), already shifted into the digit's slot.
POINT_R: dict[int, int] = {}
CLAIM_R: dict[int, int] = {}
POINT_C: dict[int, int] = {}
CLAIM_C: dict[int, int] = {}
for _d in range(9):
    for _b in range(9):
        for _k in range(3):
            _r = _b // 3 * 3 + _k
            _c = _b % 3 * 3 + _k
            _pr = SLOT * _d + BOXBASE + FW * _b + 3 * _k
            _pc = SLOT * _d + BOXBASE + FW * _b + _k
            _sh = SLOT * _d
            POINT_R[_pr] = sum(CELL3[i] for i in range(CELLS) if ROW_OF[i] == _r and BOX_OF[i] != _b) << _sh
            CLAIM_R[_pr] = sum(CELL3[i] for i in range(CELLS) if ROW_OF[i] != _r and BOX_OF[i] == _b) << _sh
            POINT_C[_pc] = sum(CELL3[i] for i in range(CELLS) if COL_OF[i] == _c and BOX_OF[i] != _b) << _sh
            CLAIM_C[_pc] = sum(CELL3[i] for i in range(CELLS) if COL_OF[i] != _c and BOX_OF[i] == _b) << _sh
del _d, _i, _p, _b, _k, _r, _c, _pr, _pc, _sh


class SolverBudgetExceeded(RuntimeError):
    """The search used up its step budget before reaching an answer."""

    def __init__(self, max_steps: int) -> None:
        super().__init__(f"solver gave up after {max_steps} search steps")
        self.max_steps = max_steps


State = tuple[int, int, int]  # (candidates X, placed P, unsolved U)
_VALID = frozenset(range(10))


def initial_state(grid: Grid) -> State | None:
    """Packed state for the givens, or None if two givens clash."""
    if len(grid) != CELLS:
        raise ValueError(f"grid must have 81 cells, found {len(grid)}")
    if not _VALID.issuperset(grid):
        bad = next(v for v in grid if v not in _VALID)
        raise ValueError(f"cell value {bad!r} is not 0..9")
    moves = [v * 81 + i - 81 for i, v in enumerate(grid) if v]
    if not moves:
        return FULL, 0, ROWPART
    # The reductions run in C: far fewer interpreter steps than a loop.
    places = list(map(PLACE.__getitem__, moves))
    P = reduce(or_, places)
    if sum(places) != P:
        return None  # two givens share a (digit, unit) guard bit: a clash
    X = FULL & ~reduce(or_, map(CLEAR.__getitem__, moves))
    U = ROWPART & ~reduce(or_, [RBIT[m % 81] for m in moves])
    return X, P, U


def propagate(X: int, P: int, U: int) -> tuple[int, int, int]:
    """Naked and hidden singles to a fixpoint.

    Returns (X, P, U); U == -1 on a contradiction, U == 0 when solved.
    """
    keep = KEEP
    place = PLACE
    move_at = MOVE_AT
    m1, m2, m4, s1, s2, s4, s8 = M1, M2, M4, SLOT, 2 * SLOT, 4 * SLOT, 8 * SLOT
    g, low, repl = G, L, REPL
    while True:
        # ---- naked singles (fold the nine digit slots) ----
        a = X & m4
        b = (X >> s4) & m4
        o = a | b
        t = a & b
        a = o & m2
        b = o >> s2
        t = (t & m2) | (t >> s2) | (a & b)
        o = a | b
        a = o & m1
        b = o >> s1
        t = (t & m1) | (t >> s1) | (a & b)
        o = (o | b) & m1
        c = X >> s8
        ones = o | c
        if U & ~ones:
            return X, P, -1  # an unsolved cell with no candidate
        singles = ones & ~(t | (o & c)) & U
        if singles:
            U ^= singles
            x = X & (singles * repl)
            while x:
                low = x & -x
                x ^= low
                if not X & low:
                    return X, P, -1  # an equal single next door took its place
                m = move_at[low.bit_length() - 1]
                X &= keep[m]
                P |= place[m]
        # ---- hidden singles, all 243 (digit, unit) pairs at once ----
        t = (X | g) - low
        nz = t & g
        if (g ^ nz) & ~P:
            return X, P, -1  # a unit where a digit is neither placed nor possible
        single = nz & ~(((X & t) | g) - low)
        if not single:
            if singles:
                continue
            return X, P, U
        x = X & (single - (single >> 9))
        while x:
            low = x & -x
            x ^= low
            m = move_at[low.bit_length() - 1]
            pl = place[m]
            if P & pl == pl:
                continue  # same move found through another unit
            if not X & low:
                return X, P, -1  # another placement just took its only place
            X &= keep[m]
            P |= pl
            U &= ~RBIT[m % 81]


REPL = _rep(1)


def locked_flags(X: int) -> tuple[int, int, int, int]:
    """Productive locked-candidate patterns, all digits at once.

    Returns flag masks (pointing along a row, claiming from a row, pointing
    along a column, claiming from a column); each set bit keys POINT_R /
    CLAIM_R / POINT_C / CLAIM_C and always eliminates at least one candidate.
    """
    R = (X | (X >> 1) | (X >> 2)) & SEGR  # box has the digit in row k of the box
    C = (X | (X >> 3) | (X >> 6)) & SEGC  # ... in column m of the box
    ro = ((R >> FW) & F01) | ((R << 2 * FW) & F2) | ((R >> 2 * FW) & F0) | ((R << FW) & F12)
    bo = (R >> 3 | R << 6 | R >> 6 | R << 3) & SEGR
    co = ((C >> 3 * FW) & S01) | ((C << 6 * FW) & S2) | ((C >> 6 * FW) & S0) | ((C << 3 * FW) & S12)
    bc = (C >> 1 | C << 2 | C >> 2 | C << 1) & SEGC
    return R & ro & ~bo, R & bo & ~ro, C & co & ~bc, C & bc & ~co


def locked(X: int) -> int:
    """Apply every pointing and claiming elimination; returns the new X."""
    pr, cr, pc, cc = locked_flags(X)
    e = 0
    for f, table in ((pr, POINT_R), (cr, CLAIM_R), (pc, POINT_C), (cc, CLAIM_C)):
        while f:
            low = f & -f
            f ^= low
            e |= table[low.bit_length() - 1]
    return X & ~e


def candidate_counts(X: int, U: int) -> tuple[int, int, int]:
    """Row-major masks of unsolved cells with at least 2, 3 and 4 candidates."""
    ones = twos = threes = fours = 0
    for d in range(9):
        b = (X >> (SLOT * d)) & U
        fours |= threes & b
        threes |= twos & b
        twos |= ones & b
        ones |= b
    return twos, threes, fours


# Row-major bits of each cell's 20 peers (for the branching score).
PEER_ROWBITS: tuple[int, ...] = tuple(sum(RBIT[j] for j in PEERS[i]) for i in range(CELLS))


def pick_cell(X: int, U: int) -> int:
    """The branch cell: a bivalue cell if any, preferring one with many
    unsolved and bivalue peers (its choice propagates furthest; this halves
    the branch count on hard sets compared to the first bivalue cell)."""
    twos, threes, fours = candidate_counts(X, U)
    pick = twos & ~threes or threes & ~fours
    best = -1
    cell = -1
    peers = PEER_ROWBITS
    x = pick
    while x:
        low = x & -x
        x ^= low
        c = POS2CELL[low.bit_length() - 1]
        pr = peers[c]
        sc = (U & pr).bit_count() + (pick & pr).bit_count()
        if sc > best:
            best = sc
            cell = c
    if cell < 0:  # every unsolved cell has 4+ candidates: plain fewest-first
        best = 99
        x = U
        while x:
            low = x & -x
            x ^= low
            n = (X & (low * REPL)).bit_count()
            if n < best:
                best = n
                cell = POS2CELL[low.bit_length() - 1]
    return cell


def search(
    X: int,
    P: int,
    U: int,
    limit: int,
    max_steps: int,
    rng: _random.Random | None = None,
    prefer: Grid | None = None,
    use_locked: bool = True,
) -> tuple[int, int | None]:
    """Depth-first count of solutions up to `limit`; returns (count, P of the first).

    `max_steps` bounds the number of branch points (guesses); past it the
    search raises SolverBudgetExceeded. All state lives in local ints, so an
    abandoned search leaves nothing behind.

    `rng` shuffles the digit order (random grids); `prefer` tries a known
    grid's digit first, which finds a *second* solution near a known one fast.
    """
    count = 0
    steps = 0
    first: int | None = None
    stack: list[State] = [(X, P, U)]
    keep = KEEP
    place = PLACE
    while stack:
        X, P, U = stack.pop()
        X, P, U = propagate(X, P, U)
        # Locked candidates when singles stall: far fewer branch points.
        while U > 0 and use_locked:
            X2 = locked(X)
            if X2 == X:
                break
            X, P, U = propagate(X2, P, U)
        if U < 0:
            continue
        if not U:
            count += 1
            if first is None:
                first = P
            if count >= limit:
                break
            continue
        steps += 1
        if steps > max_steps:
            raise SolverBudgetExceeded(max_steps)
        c = pick_cell(X, U)
        rb = RBIT[c]
        digits = [d for d in range(9) if (X >> (SLOT * d)) & rb]
        if rng is not None:
            rng.shuffle(digits)
        elif prefer is not None and len(digits) > 1:
            d0 = prefer[c] - 1
            if d0 in digits:
                digits.remove(d0)
                digits.insert(0, d0)
        nu = U ^ rb
        for d in reversed(digits):  # reversed: the first digit is explored first
            m = d * 81 + c
            stack.append((X & keep[m], P | place[m], nu))
    return count, first


def grid_from_placed(P: int) -> Grid:
    out = [0] * CELLS
    for d in range(9):
        x = (P >> (SLOT * d)) & ROWPART
        while x:
            low = x & -x
            x ^= low
            out[POS2CELL[low.bit_length() - 1]] = d + 1
    return tuple(out)


def count_solutions(grid: Grid, limit: int = 2, max_steps: int = DEFAULT_MAX_STEPS) -> int:
    """Number of solutions, counting no further than `limit`.

    Raises SolverBudgetExceeded when more than `max_steps` branch points are
    needed; all search state is local, so nothing is left half-done.
    """
    st = initial_state(grid)
    if st is None:
        return 0
    return search(*st, limit, max_steps)[0]


def solve(grid: Grid, max_steps: int = DEFAULT_MAX_STEPS) -> Grid | None:
    """The first solution found, or None when there is none."""
    st = initial_state(grid)
    if st is None:
        return None
    _, first = search(*st, 1, max_steps)
    return grid_from_placed(first) if first is not None else None


def has_unique_solution(grid: Grid, max_steps: int = DEFAULT_MAX_STEPS) -> bool:
    return count_solutions(grid, 2, max_steps) == 1


def random_solution(rng: _random.Random) -> Grid:
    """A random complete grid, driven only by `rng`."""
    cells = [0] * CELLS
    # The three diagonal boxes never see each other: fill them straight from the rng.
    for b in (0, 4, 8):
        digits = list(range(1, 10))
        rng.shuffle(digits)
        r0, c0 = b // 3 * 3, b % 3 * 3
        for k, v in enumerate(digits):
            cells[(r0 + k // 3) * 9 + c0 + k % 3] = v
    st = initial_state(tuple(cells))
    assert st is not None
    _, first = search(*st, 1, DEFAULT_MAX_STEPS, rng)
    assert first is not None  # diagonal boxes always extend to a full grid
    return grid_from_placed(first)

"""Human solving techniques on the solver's packed candidate bitboard.

Each finder looks at a candidate state (X, P, U) -- see solver.py for the
layout -- and returns the first instance of its pattern that eliminates
something, as a `Found` (or None). Finders never look at the solution.
Simplest first, the order here is the grading order.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .grid import BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, UNITS, cell_name, unit_name
from .solver import (
    _BOXBASE,
    CELL3,
    CLAIM_C,
    CLAIM_R,
    FW,
    G,
    L,
    PEER_ROWBITS,
    POINT_C,
    POINT_R,
    POS2CELL,
    REPL,
    ROWPART,
    SLOT,
    _counts,
    locked_flags,
)

NAKED_SINGLE = "naked single"
HIDDEN_SINGLE = "hidden single"
LOCKED_CANDIDATES = "locked candidates"
NAKED_PAIR = "naked pair"
HIDDEN_PAIR = "hidden pair"
NAKED_TRIPLE = "naked triple"
HIDDEN_TRIPLE = "hidden triple"
X_WING = "x-wing"
SWORDFISH = "swordfish"
XY_WING = "xy-wing"

TECHNIQUES: tuple[str, ...] = (
    NAKED_SINGLE,
    HIDDEN_SINGLE,
    LOCKED_CANDIDATES,
    NAKED_PAIR,
    HIDDEN_PAIR,
    NAKED_TRIPLE,
    HIDDEN_TRIPLE,
    X_WING,
    SWORDFISH,
    XY_WING,
)
RANK: dict[str, int] = {name: i for i, name in enumerate(TECHNIQUES)}

# (digit, cell) -> the candidate's bits in all three layouts.
ELIM: tuple[int, ...] = tuple(CELL3[c] << (SLOT * d) for d in range(9) for c in range(CELLS))
RPOS: tuple[int, ...] = tuple(FW * ROW_OF[c] + COL_OF[c] for c in range(CELLS))
# Shifting by multiples of SLOT-1 folds "bit 0 of slot k" down to bit k.
_S1, _S2, _S4, _S8 = SLOT - 1, 2 * (SLOT - 1), 4 * (SLOT - 1), 8 * (SLOT - 1)
# Position of each cell inside each of its units, and the unit's cells.
POS_IN_UNIT: tuple[dict[int, int], ...] = tuple({c: k for k, c in enumerate(u)} for u in UNITS)
CELL_UNITS: tuple[tuple[int, int, int], ...] = tuple((ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in range(CELLS))


@dataclass(frozen=True)
class Found:
    """One instance of a technique: what it removes (or places) and why."""

    technique: str
    mask: int  # packed candidate bits to clear (0 for singles)
    eliminations: tuple[tuple[int, int], ...]  # (cell, digit 1-9)
    why: str
    placement: tuple[int, int] | None = None  # (cell, digit 1-9) for singles


def cell_mask(X: int, c: int) -> int:
    """9-bit candidate mask of cell c (bit d = digit d+1)."""
    y = (X >> RPOS[c]) & REPL
    z = y | (y >> _S1)
    z |= z >> _S2
    z |= z >> _S4
    return (z | (y >> _S8)) & 511


def field(X: int, d: int, u: int) -> int:
    """9-bit mask of the places of digit d (0-based) in unit u."""
    return (X >> (SLOT * d + FW * u)) & 511


def digits_of(mask: int) -> list[int]:
    return [d for d in range(9) if mask >> d & 1]


def _fmt_digits(mask: int) -> str:
    ds = [str(d + 1) for d in digits_of(mask)]
    return ds[0] if len(ds) == 1 else ", ".join(ds[:-1]) + " and " + ds[-1]


def _fmt_cells(cells) -> str:
    return ", ".join(cell_name(c) for c in sorted(cells))


def eliminations_of(mask: int) -> tuple[tuple[int, int], ...]:
    out = []
    for d in range(9):
        x = (mask >> (SLOT * d)) & ROWPART
        while x:
            low = x & -x
            x ^= low
            out.append((POS2CELL[low.bit_length() - 1], d + 1))
    out.sort()
    return tuple(out)


def _describe_elims(mask: int) -> str:
    by_digit: dict[int, list[int]] = {}
    for c, v in eliminations_of(mask):
        by_digit.setdefault(v, []).append(c)
    return "; ".join(f"{v} from {_fmt_cells(cs)}" for v, cs in sorted(by_digit.items()))


def _found(technique: str, mask: int, why: str) -> Found:
    return Found(technique, mask, eliminations_of(mask), f"{why} So remove {_describe_elims(mask)}.")


def _unit_cells_mask(u: int, positions: int, d: int) -> int:
    """Packed elimination mask for digit d at the given positions of unit u."""
    cells = UNITS[u]
    m = 0
    k = 0
    while positions:
        if positions & 1:
            m |= ELIM[d * 81 + cells[k]]
        positions >>= 1
        k += 1
    return m


class Ctx:
    """One candidate state plus lazily computed views shared by the finders.

    Finders run one after another on the same state until one succeeds, so
    the cell masks and per-unit groupings are computed at most once.
    """

    __slots__ = ("X", "P", "U", "_masks", "_small", "_groups")

    def __init__(self, X: int, P: int, U: int) -> None:
        self.X = X
        self.P = P
        self.U = U
        self._masks: dict[int, int] = {}
        self._small: dict[int, int] | None = None
        self._groups: tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]] | None = None

    def mask(self, c: int) -> int:
        m = self._masks.get(c)
        if m is None:
            m = self._masks[c] = cell_mask(self.X, c)
        return m

    @property
    def small(self) -> dict[int, int]:
        """Unsolved cells with 2 or 3 candidates -> their masks."""
        if self._small is None:
            twos, _, fours = _counts(self.X, self.U)
            x = twos & ~fours
            out = {}
            while x:
                low = x & -x
                x ^= low
                c = POS2CELL[low.bit_length() - 1]
                out[c] = self.mask(c)
            self._small = out
        return self._small

    def groups(self, size: int) -> list[list[tuple[int, int]]]:
        """Per unit, (digit, places) with exactly 2 places (size 2) or 2-3 places (size 3)."""
        if self._groups is None:
            X = self.X
            t1 = X & ((X | G) - L)  # drop each field's lowest place
            t2 = t1 & ((t1 | G) - L)
            t3 = t2 & ((t2 | G) - L)
            ge2 = ((t1 | G) - L) & G
            ge3 = ((t2 | G) - L) & G
            ge4 = ((t3 | G) - L) & G
            g2: list[list[tuple[int, int]]] = [[] for _ in range(27)]
            g3: list[list[tuple[int, int]]] = [[] for _ in range(27)]
            sel = ge2 & ~ge4
            exactly2 = ge2 & ~ge3
            # Bits come out digit-major, so each unit's list is already sorted by digit.
            while sel:
                low = sel & -sel
                sel ^= low
                pos = low.bit_length() - 1
                d, u = divmod(pos // FW, 27)
                item = (d, (X >> (pos - 9)) & 511)
                g3[u].append(item)
                if exactly2 & low:
                    g2[u].append(item)
            self._groups = (g2, g3)
        return self._groups[0] if size == 2 else self._groups[1]


# ---------------------------------------------------------------- singles
def find_naked_single(ctx: Ctx) -> Found | None:
    X, U = ctx.X, ctx.U
    twos, _, _ = _counts(X, U)
    singles = U & ~twos
    if not singles:
        return None
    c = POS2CELL[(singles & -singles).bit_length() - 1]
    m = cell_mask(X, c)
    if not m:
        return None  # a dead cell is a contradiction, not a step
    d = m.bit_length() - 1
    return Found(
        NAKED_SINGLE, 0, (), f"{cell_name(c)} can only be {d + 1}: every other digit already "
        "appears in its row, column or box.", (c, d + 1)
    )


def find_hidden_single(ctx: Ctx) -> Found | None:
    X = ctx.X
    t = (X | G) - L
    single = t & G & ~(((X & t) | G) - L)
    if not single:
        return None
    # Prefer boxes, then rows, then columns: the order people scan in.
    best = None
    x = single
    while x:
        low = x & -x
        x ^= low
        pos = low.bit_length() - 1
        d, u = divmod(pos // FW, 27)
        key = ((u // 9 + 1) % 3, u, d)  # boxes (2 -> 0), rows, columns
        if best is None or key < best[0]:
            best = (key, d, u)
    assert best is not None
    _, d, u = best
    f = field(X, d, u)
    c = UNITS[u][f.bit_length() - 1]
    return Found(HIDDEN_SINGLE, 0, (), f"In {unit_name(u)}, {d + 1} fits only in {cell_name(c)}.", (c, d + 1))


# ---------------------------------------------------------------- locked candidates
def find_locked_candidates(ctx: Ctx) -> Found | None:
    X = ctx.X
    pr, cr, pc, cc = locked_flags(X)
    for f, table, pointing, by_row in ((pr, POINT_R, True, True), (pc, POINT_C, True, False),
                                       (cr, CLAIM_R, False, True), (cc, CLAIM_C, False, False)):
        if not f:
            continue
        pos = (f & -f).bit_length() - 1
        d, rest = divmod(pos, SLOT)
        b, k = divmod(rest - _BOXBASE, FW)
        if by_row:
            k //= 3
            line = f"row {b // 3 * 3 + k + 1}"
        else:
            line = f"column {b % 3 * 3 + k + 1}"
        mask = table[pos] & X
        if pointing:
            why = f"In box {b + 1}, every place for {d + 1} lies in {line} (pointing)."
        else:
            why = f"In {line}, every place for {d + 1} lies inside box {b + 1} (claiming)."
        return _found(LOCKED_CANDIDATES, mask, why)
    return None


# ---------------------------------------------------------------- subsets
def _by_unit(cells: dict[int, int], size: int) -> list[list[tuple[int, int]]]:
    groups: list[list[tuple[int, int]]] = [[] for _ in range(27)]
    for c, m in sorted(cells.items()):
        if m.bit_count() <= size:
            for u in CELL_UNITS[c]:
                groups[u].append((c, m))
    return groups


def _naked(ctx: Ctx, size: int, name: str) -> Found | None:
    X = ctx.X
    for u, group in enumerate(_by_unit(ctx.small, size)):
        if len(group) < size:
            continue
        for combo in combinations(group, size):
            digits = 0
            for _, m in combo:
                digits |= m
            if digits.bit_count() != size:
                continue
            inside = 0
            for c, _ in combo:
                inside |= 1 << POS_IN_UNIT[u][c]
            mask = 0
            for d in digits_of(digits):
                mask |= _unit_cells_mask(u, field(X, d, u) & ~inside, d)
            if mask:
                cells = [c for c, _ in combo]
                why = (f"{_fmt_cells(cells)} hold only {_fmt_digits(digits)} between them "
                       f"({name} in {unit_name(u)}), so no other cell of {unit_name(u)} can.")
                return _found(name, mask, why)
    return None


def find_naked_pair(ctx: Ctx) -> Found | None:
    return _naked(ctx, 2, NAKED_PAIR)


def find_naked_triple(ctx: Ctx) -> Found | None:
    return _naked(ctx, 3, NAKED_TRIPLE)


def _hidden(ctx: Ctx, size: int, name: str) -> Found | None:
    for u, group in enumerate(ctx.groups(size)):
        if len(group) < size:
            continue
        for combo in combinations(group, size):
            places = 0
            digits = 0
            for d, f in combo:
                places |= f
                digits |= 1 << d
            if places.bit_count() != size:
                continue
            cells = [UNITS[u][k] for k in range(9) if places >> k & 1]
            mask = 0
            for c in cells:
                for d in digits_of(ctx.mask(c) & ~digits):
                    mask |= ELIM[d * 81 + c]
            if mask:
                why = (f"In {unit_name(u)}, {_fmt_digits(digits)} fit only in {_fmt_cells(cells)} "
                       f"({name}), so those cells can hold nothing else.")
                return _found(name, mask, why)
    return None


def find_hidden_pair(ctx: Ctx) -> Found | None:
    return _hidden(ctx, 2, HIDDEN_PAIR)


def find_hidden_triple(ctx: Ctx) -> Found | None:
    return _hidden(ctx, 3, HIDDEN_TRIPLE)


# ---------------------------------------------------------------- fish
def _fish(ctx: Ctx, size: int, name: str) -> Found | None:
    X = ctx.X
    groups = ctx.groups(size)
    for base in (0, 9):  # rows as base (eliminate in columns), then columns
        cover = 9 - base
        for d in range(9):
            lines = [(u - base, f) for u in range(base, base + 9) for dd, f in groups[u] if dd == d]
            if len(lines) < size:
                continue
            for combo in combinations(lines, size):
                union = 0
                inside = 0
                for i, f in combo:
                    union |= f
                    inside |= 1 << i
                if union.bit_count() != size:
                    continue
                mask = 0
                for j in range(9):
                    if union >> j & 1:
                        mask |= _unit_cells_mask(cover + j, field(X, d, cover + j) & ~inside, d)
                if mask:
                    kind, other = ("rows", "columns") if base == 0 else ("columns", "rows")
                    a = " and ".join(str(i + 1) for i, _ in combo)
                    b = " and ".join(str(j + 1) for j in range(9) if union >> j & 1)
                    why = (f"{name.title() if name != X_WING else 'X-Wing'} on {d + 1}: in {kind} {a}, "
                           f"{d + 1} fits only in {other} {b}, so one of those cells in each of "
                           f"{other} {b} holds it.")
                    return _found(name, mask, why)
    return None


def find_x_wing(ctx: Ctx) -> Found | None:
    return _fish(ctx, 2, X_WING)


def find_swordfish(ctx: Ctx) -> Found | None:
    return _fish(ctx, 3, SWORDFISH)


# ---------------------------------------------------------------- wings
def find_xy_wing(ctx: Ctx) -> Found | None:
    X = ctx.X
    bi = {c: m for c, m in ctx.small.items() if m.bit_count() == 2}
    if len(bi) < 3:
        return None
    for pivot, pm in sorted(bi.items()):
        wings = [(c, m) for c, m in bi.items() if c in PEERS[pivot] and (m & pm).bit_count() == 1]
        for (a, am), (b, bm) in combinations(sorted(wings), 2):
            z = am & bm
            if am & pm == bm & pm or z.bit_count() != 1 or z & pm:
                continue
            d = z.bit_length() - 1
            seen = PEER_ROWBITS[a] & PEER_ROWBITS[b] & (X >> (SLOT * d))
            if not seen:
                continue
            mask = 0
            while seen:
                low = seen & -seen
                seen ^= low
                mask |= ELIM[d * 81 + POS2CELL[low.bit_length() - 1]]
            why = (f"XY-Wing: pivot {cell_name(pivot)} is {_fmt_digits(pm).replace(' and ', ' or ')}, "
                   f"wings {cell_name(a)} ({_fmt_digits(am).replace(' and ', ' or ')}) and {cell_name(b)} "
                   f"({_fmt_digits(bm).replace(' and ', ' or ')}); whichever the pivot is, one wing is "
                   f"{d + 1}, so no cell that sees both wings can be {d + 1}.")
            return _found(XY_WING, mask, why)
    return None


# Elimination finders in grading order (singles are handled by the stepper).
ELIMINATORS = (
    (LOCKED_CANDIDATES, find_locked_candidates),
    (NAKED_PAIR, find_naked_pair),
    (HIDDEN_PAIR, find_hidden_pair),
    (NAKED_TRIPLE, find_naked_triple),
    (HIDDEN_TRIPLE, find_hidden_triple),
    (X_WING, find_x_wing),
    (SWORDFISH, find_swordfish),
    (XY_WING, find_xy_wing),
)

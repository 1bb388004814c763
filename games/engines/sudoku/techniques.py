"""Human solving techniques on the solver's packed candidate bitboard.

Each technique scans a candidate state (X, P, U) -- see solver.py for the
layout -- for instances of its pattern that eliminate something. Hints want
the first instance with an explanation (`find_*`); grading wants every
instance at once (`scan(..., first=False)`), which needs fewer rounds and
reaches the same closure. Nothing here looks at the solution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .grid import BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, UNITS, cell_name, unit_name
from .solver import (
    BOXBASE,
    CELL3,
    CLAIM_C,
    CLAIM_R,
    FW,
    PEER_ROWBITS,
    POINT_C,
    POINT_R,
    POS2CELL,
    REPL,
    ROWPART,
    SLOT,
    G,
    L,
    candidate_counts,
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
CELL_UNITS: tuple[tuple[int, int, int], ...] = tuple((ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in range(CELLS))
UNIT_ROWBITS: tuple[int, ...] = tuple(sum(1 << RPOS[c] for c in u) for u in UNITS)
UNIT_GUARDS: tuple[int, ...] = tuple(sum(1 << (SLOT * d + FW * u + 9) for d in range(9)) for u in range(27))

Instance = tuple[int, Callable[[], str]]  # (packed eliminations, lazy explanation)
# What changed since a state where a scan last found nothing: (row-major bits
# of cells that lost candidates, guard bits of (digit, unit) fields that lost
# places). A productive instance must involve a change -- unchanged patterns
# were unproductive then, and their targets have only lost candidates since.
Delta = tuple[int, int]


def delta(base: int, X: int) -> Delta:
    D = base ^ X
    cells = 0
    for d in range(9):
        cells |= (D >> (SLOT * d)) & ROWPART
    return cells, ((D | G) - L) & G


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


_UNIT_MASK: dict[int, int] = {}


def unit_mask(u: int, positions: int) -> int:
    """Packed bits (digit slot 0) of the cells at `positions` of unit u."""
    key = u << 9 | positions
    m = _UNIT_MASK.get(key)
    if m is None:
        cells = UNITS[u]
        m = 0
        for k in range(9):
            if positions >> k & 1:
                m |= CELL3[cells[k]]
        _UNIT_MASK[key] = m
    return m


def _fmt_digits(mask: int, word: str = "and") -> str:
    ds = [str(d + 1) for d in digits_of(mask)]
    return ds[0] if len(ds) == 1 else ", ".join(ds[:-1]) + f" {word} " + ds[-1]


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


def describe_eliminations(mask: int) -> str:
    by_digit: dict[int, list[int]] = {}
    for c, v in eliminations_of(mask):
        by_digit.setdefault(v, []).append(c)
    return "; ".join(f"{v} from {_fmt_cells(cs)}" for v, cs in sorted(by_digit.items()))


class Ctx:
    """One candidate state plus lazily computed views shared by the scans.

    Scans run one after another on the same state until one succeeds, so
    each view is computed at most once per state, and only for the units a
    scan actually visits (after a new clue, usually a handful).
    """

    __slots__ = ("X", "P", "U", "_masks", "_slots", "candidate_counts", "_ucells", "_ufields")

    def __init__(self, X: int, P: int, U: int) -> None:
        self.X = X
        self.P = P
        self.U = U
        self._masks: dict[int, int] = {}
        self._slots: list[int] | None = None
        self.candidate_counts: tuple[int, int, int] | None = None
        self._ucells: list[list[tuple[int, int]] | None] = [None] * 27
        self._ufields: list[list[tuple[int, int]] | None] = [None] * 27

    def mask(self, c: int) -> int:
        m = self._masks.get(c)
        if m is None:
            m = self._masks[c] = cell_mask(self.X, c)
        return m

    @property
    def slots(self) -> list[int]:
        """Each digit's 270-bit slot on its own (cheaper to shift than X)."""
        if self._slots is None:
            X = self.X
            self._slots = [(X >> s) & _M1 for s in _SLOT_SHIFTS]
        return self._slots

    @property
    def counts(self) -> tuple[int, int, int]:
        """Row-major masks of unsolved cells with at least 2, 3 and 4 candidates."""
        if self.candidate_counts is None:
            self.candidate_counts = candidate_counts(self.X, self.U)
        return self.candidate_counts

    def unit_cells(self, u: int) -> list[tuple[int, int]]:
        """Unsolved cells of unit u with 2 or 3 candidates: (cell, mask), in unit order."""
        g = self._ucells[u]
        if g is None:
            twos, _, fours = self.counts
            x = twos & ~fours & UNIT_ROWBITS[u]
            g = [(c, self.mask(c)) for c in UNITS[u] if x >> RPOS[c] & 1] if x else []
            self._ucells[u] = g
        return g

    def unit_fields(self, u: int) -> list[tuple[int, int]]:
        """(digit, places) for digits with 2 or 3 places left in unit u, by digit."""
        g = self._ufields[u]
        if g is None:
            sh = FW * u
            g = []
            for d, xd in enumerate(self.slots):
                f = (xd >> sh) & 511
                if f & (f - 1) and f.bit_count() <= 3:
                    g.append((d, f))
            self._ufields[u] = g
        return g


_M1 = (1 << SLOT) - 1
_SLOT_SHIFTS = [SLOT * d for d in range(9)]


# ---------------------------------------------------------------- singles
def find_naked_single(ctx: Ctx) -> Found | None:
    twos, _, _ = candidate_counts(ctx.X, ctx.U)
    singles = ctx.U & ~twos
    if not singles:
        return None
    c = POS2CELL[(singles & -singles).bit_length() - 1]
    m = ctx.mask(c)
    if not m:
        return None  # a dead cell is a contradiction, not a step
    d = m.bit_length() - 1
    return Found(
        NAKED_SINGLE,
        0,
        (),
        f"{cell_name(c)} can only be {d + 1}: every other digit already appears in its row, column or box.",
        (c, d + 1),
    )


def find_hidden_single(ctx: Ctx) -> Found | None:
    X = ctx.X
    t = (X | G) - L
    single = t & G & ~(((X & t) | G) - L)
    if not single:
        return None
    best = None
    x = single
    while x:
        low = x & -x
        x ^= low
        d, u = divmod((low.bit_length() - 1) // FW, 27)
        key = ((u // 9 + 1) % 3, u, d)  # boxes first, then rows, then columns: how people scan
        if best is None or key < best[0]:
            best = (key, d, u)
    assert best is not None
    _, d, u = best
    c = UNITS[u][field(X, d, u).bit_length() - 1]
    return Found(HIDDEN_SINGLE, 0, (), f"In {unit_name(u)}, {d + 1} fits only in {cell_name(c)}.", (c, d + 1))


# ---------------------------------------------------------------- locked candidates
def scan_locked_candidates(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    X = ctx.X
    out: list[Instance] = []
    pr, cr, pc, cc = locked_flags(X)
    for f, table, pointing, by_row in (
        (pr, POINT_R, True, True),
        (pc, POINT_C, True, False),
        (cr, CLAIM_R, False, True),
        (cc, CLAIM_C, False, False),
    ):
        while f:
            low = f & -f
            f ^= low
            pos = low.bit_length() - 1
            mask = table[pos] & X

            def why(pos=pos, pointing=pointing, by_row=by_row) -> str:
                d, rest = divmod(pos, SLOT)
                b, k = divmod(rest - BOXBASE, FW)
                line = f"row {b // 3 * 3 + k // 3 + 1}" if by_row else f"column {b % 3 * 3 + k + 1}"
                if pointing:
                    return f"In box {b + 1}, every place for {d + 1} lies in {line} (pointing)."
                return f"In {line}, every place for {d + 1} lies inside box {b + 1} (claiming)."

            out.append((mask, why))
            if first:
                return out
    return out


# ---------------------------------------------------------------- subsets
def _subset_elims(X: int, u: int, digits: int, inside: int) -> int:
    """Eliminations of `digits` from unit u outside the positions `inside`."""
    mask = 0
    keep = ~inside
    for d in range(9):
        if digits >> d & 1:
            f = (X >> (SLOT * d + FW * u)) & 511 & keep
            if f:
                mask |= unit_mask(u, f) << (SLOT * d)
    return mask


def _naked_why(name: str, u: int, cells: list[int], digits: int) -> Callable[[], str]:
    return lambda: (
        f"{_fmt_cells(cells)} hold only {_fmt_digits(digits)} between them "
        f"({name} in {unit_name(u)}), so no other cell of {unit_name(u)} can."
    )


def _pairs(items: list[tuple[int, int]]):
    """Index pairs whose masks are the same two bits, in one pass (by the later item)."""
    seen: dict[int, int] = {}
    for j, (_, m) in enumerate(items):
        if m.bit_count() != 2:
            continue
        i = seen.get(m)
        if i is None:
            seen[m] = j
            continue
        yield i, j


def _triples(items: list[tuple[int, int]]):
    """Index triples whose masks cover exactly three bits (pruned as pairs)."""
    n = len(items)
    for i in range(n - 2):
        mi = items[i][1]
        for j in range(i + 1, n - 1):
            mij = mi | items[j][1]
            if mij.bit_count() > 3:
                continue
            for k in range(j + 1, n):
                if (mij | items[k][1]).bit_count() == 3:
                    yield i, j, k


def _scan_naked(ctx: Ctx, size: int, name: str, first: bool, since: Delta | None) -> list[Instance]:
    """Naked pairs (size 2) and triples (3): `size` cells of a unit holding `size` digits."""
    X = ctx.X
    out: list[Instance] = []
    dirty = since[0] if since is not None else -1
    subsets = _pairs if size == 2 else _triples
    for u in range(27):
        if not dirty & UNIT_ROWBITS[u]:
            continue
        group = ctx.unit_cells(u)
        if len(group) < size:
            continue
        pos = UNITS[u].index
        for idx in subsets(group):
            cells = [group[i][0] for i in idx]
            if not any(dirty >> RPOS[c] & 1 for c in cells):
                continue
            digits = inside = 0
            for i in idx:
                c, m = group[i]
                digits |= m
                inside |= 1 << pos(c)
            mask = _subset_elims(X, u, digits, inside)
            if mask:
                out.append((mask, _naked_why(name, u, cells, digits)))
                if first:
                    return out
    return out


def scan_naked_pair(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_naked(ctx, 2, NAKED_PAIR, first, since)


def scan_naked_triple(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_naked(ctx, 3, NAKED_TRIPLE, first, since)


def _hidden_elims(ctx: Ctx, u: int, places: int, digits: int) -> tuple[int, list[int]]:
    cells = [UNITS[u][k] for k in range(9) if places >> k & 1]
    mask = 0
    for c in cells:
        other = ctx.mask(c) & ~digits
        for d in range(9):
            if other >> d & 1:
                mask |= ELIM[d * 81 + c]
    return mask, cells


def _hidden_why(name: str, u: int, cells: list[int], digits: int) -> Callable[[], str]:
    return lambda: (
        f"In {unit_name(u)}, {_fmt_digits(digits)} fit only in {_fmt_cells(cells)} "
        f"({name}), so those cells can hold nothing else."
    )


def _scan_hidden(ctx: Ctx, size: int, name: str, first: bool, since: Delta | None) -> list[Instance]:
    """Hidden pairs (size 2) and triples (3): `size` digits of a unit fitting only `size` cells."""
    out: list[Instance] = []
    dirty = since[1] if since is not None else -1
    subsets = _pairs if size == 2 else _triples
    for u in range(27):
        if not dirty & UNIT_GUARDS[u]:
            continue
        group = ctx.unit_fields(u)
        if len(group) < size:
            continue
        g = FW * u + 9
        for idx in subsets(group):
            digits = places = 0
            for i in idx:
                d, f = group[i]
                digits |= 1 << d
                places |= f
            if not any(dirty >> (SLOT * group[i][0] + g) & 1 for i in idx):
                continue
            mask, cells = _hidden_elims(ctx, u, places, digits)
            if mask:
                out.append((mask, _hidden_why(name, u, cells, digits)))
                if first:
                    return out
    return out


def scan_hidden_pair(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_hidden(ctx, 2, HIDDEN_PAIR, first, since)


def scan_hidden_triple(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_hidden(ctx, 3, HIDDEN_TRIPLE, first, since)


# ---------------------------------------------------------------- fish
def _fish_why(name: str, d: int, base: int, lines: list[int], union: int) -> Callable[[], str]:
    def why() -> str:
        kind, other = ("rows", "columns") if base == 0 else ("columns", "rows")
        a = " and ".join(str(i + 1) for i in lines)
        b = " and ".join(str(j + 1) for j in range(9) if union >> j & 1)
        title = "X-Wing" if name == X_WING else "Swordfish"
        return (
            f"{title} on {d + 1}: in {kind} {a}, {d + 1} fits only in {other} {b}; those "
            f"{kind} use up every {d + 1} of {other} {b}."
        )

    return why


def _scan_fish(ctx: Ctx, size: int, name: str, first: bool, since: Delta | None) -> list[Instance]:
    out: list[Instance] = []
    dirty = since[1] if since is not None else -1
    for base in (0, 9):  # rows as base lines (eliminate in columns), then columns
        cover = 9 - base
        guards = _LINE_GUARDS[base]
        for d in range(9):
            # Only a digit with a changed base line can form a new fish.
            if not dirty & (guards << (SLOT * d)):
                continue
            xd = ctx.slots[d]
            cand = []
            for i in range(9):
                f = (xd >> (FW * (base + i))) & 511
                n = f.bit_count()
                if n == 2 or (n == 3 and size == 3):
                    cand.append((i, f))
            if len(cand) < size:
                continue
            combos = combinations(cand, 2) if size == 2 else ((cand[i], cand[j], cand[k]) for i, j, k in _triples(cand))
            for combo in combos:
                union = 0
                inside = 0
                for i, f in combo:
                    union |= f
                    inside |= 1 << i
                if union.bit_count() != size:
                    continue
                if since is not None and not any(dirty >> (SLOT * d + FW * (base + i) + 9) & 1 for i, _ in combo):
                    continue
                mask = 0
                for j in range(9):
                    if union >> j & 1:
                        rest = (xd >> (FW * (cover + j))) & 511 & ~inside
                        if rest:
                            mask |= unit_mask(cover + j, rest) << (SLOT * d)
                if mask:
                    out.append((mask, _fish_why(name, d, base, [i for i, _ in combo], union)))
                    if first:
                        return out
    return out


_LINE_GUARDS = {base: sum(1 << (FW * (base + i) + 9) for i in range(9)) for base in (0, 9)}


def scan_x_wing(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_fish(ctx, 2, X_WING, first, since)


def scan_swordfish(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    return _scan_fish(ctx, 3, SWORDFISH, first, since)


# ---------------------------------------------------------------- wings
def scan_xy_wing(ctx: Ctx, first: bool = True, since: Delta | None = None) -> list[Instance]:
    X = ctx.X
    out: list[Instance] = []
    twos, threes, _ = ctx.counts
    x = twos & ~threes
    bi: dict[int, int] = {}
    while x:
        low = x & -x
        x ^= low
        c = POS2CELL[low.bit_length() - 1]
        bi[c] = ctx.mask(c)
    if len(bi) < 3:
        return out
    dirty = since[0] if since is not None else -1
    for pivot, pm in sorted(bi.items()):
        peers = PEERS[pivot]
        wings = [(c, m) for c, m in bi.items() if c in peers and (m & pm).bit_count() == 1 and m != pm]
        if len(wings) < 2:
            continue
        pivot_dirty = dirty >> RPOS[pivot] & 1
        for (a, am), (b, bm) in combinations(sorted(wings), 2):
            if not (pivot_dirty or dirty >> RPOS[a] & 1 or dirty >> RPOS[b] & 1):
                continue
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

            def why(pivot=pivot, pm=pm, a=a, am=am, b=b, bm=bm, d=d) -> str:
                return (
                    f"XY-Wing: pivot {cell_name(pivot)} is {_fmt_digits(pm, 'or')}, wings "
                    f"{cell_name(a)} ({_fmt_digits(am, 'or')}) and {cell_name(b)} ({_fmt_digits(bm, 'or')}); "
                    f"whichever the pivot is, one wing is {d + 1}, so no cell that sees both wings "
                    f"can be {d + 1}."
                )

            out.append((mask, why))
            if first:
                return out
    return out


# Elimination techniques in grading order (singles are handled by the stepper).
SCANS: tuple[tuple[str, Callable[..., list[Instance]]], ...] = (
    (LOCKED_CANDIDATES, scan_locked_candidates),
    (NAKED_PAIR, scan_naked_pair),
    (HIDDEN_PAIR, scan_hidden_pair),
    (NAKED_TRIPLE, scan_naked_triple),
    (HIDDEN_TRIPLE, scan_hidden_triple),
    (X_WING, scan_x_wing),
    (SWORDFISH, scan_swordfish),
    (XY_WING, scan_xy_wing),
)


def _first(name: str, scan: Callable[..., list[Instance]]) -> Callable[[Ctx], Found | None]:
    def find(ctx: Ctx) -> Found | None:
        hits = scan(ctx, True)
        if not hits:
            return None
        mask, why = hits[0]
        return Found(name, mask, eliminations_of(mask), f"{why()} So remove {describe_eliminations(mask)}.")

    find.__name__ = "find_" + name.replace(" ", "_").replace("-", "_")
    return find


find_locked_candidates = _first(LOCKED_CANDIDATES, scan_locked_candidates)
find_naked_pair = _first(NAKED_PAIR, scan_naked_pair)
find_hidden_pair = _first(HIDDEN_PAIR, scan_hidden_pair)
find_naked_triple = _first(NAKED_TRIPLE, scan_naked_triple)
find_hidden_triple = _first(HIDDEN_TRIPLE, scan_hidden_triple)
find_x_wing = _first(X_WING, scan_x_wing)
find_swordfish = _first(SWORDFISH, scan_swordfish)
find_xy_wing = _first(XY_WING, scan_xy_wing)

ELIMINATORS: tuple[tuple[str, Callable[[Ctx], Found | None]], ...] = (
    (LOCKED_CANDIDATES, find_locked_candidates),
    (NAKED_PAIR, find_naked_pair),
    (HIDDEN_PAIR, find_hidden_pair),
    (NAKED_TRIPLE, find_naked_triple),
    (HIDDEN_TRIPLE, find_hidden_triple),
    (X_WING, find_x_wing),
    (SWORDFISH, find_swordfish),
    (XY_WING, find_xy_wing),
)

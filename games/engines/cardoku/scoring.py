"""Scoring (docs/rules.md section 3).

A row, column or box scores when all nine squares are filled.
Base values: row r = 10 x (10 - r); column 40, but columns 1 and 9 = 60; box 80 in the
top band (boxes 1-3), 50 in the middle (4-6), 20 at the bottom (7-9).
Bonus multipliers add up (none -> x1): Clean x2 (no wilds or jokers), Flush x2 (all nine
the same suit, wilds of that suit count, a joker breaks it), Straight x3 (Ace to 9 in
reading order, either direction; always Clean too, so x5), Royal x2 (Straight + Flush,
so 2+2+3+2 = x9). Each discard costs 9; the total can go negative.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from .cards import Card

DISCARD_PENALTY = 9
BONUS_VALUES: dict[str, int] = {"Clean": 2, "Flush": 2, "Straight": 3, "Royal": 2}
UNIT_KINDS = ("row", "column", "box")

_ASCENDING = tuple(range(1, 10))
_DESCENDING = tuple(range(9, 0, -1))


def unit_squares(kind: str, number: int) -> tuple[tuple[int, int], ...]:
    """The nine squares of a unit in reading order (rows left to right, columns top to
    bottom, boxes row by row from the top left)."""
    if kind == "row":
        return tuple((number, c) for c in range(1, 10))
    if kind == "column":
        return tuple((r, number) for r in range(1, 10))
    if kind == "box":
        r0 = (number - 1) // 3 * 3
        c0 = (number - 1) % 3 * 3
        return tuple((r0 + dr, c0 + dc) for dr in range(1, 4) for dc in range(1, 4))
    raise ValueError(f"Unknown unit kind {kind!r}.")


def unit_base(kind: str, number: int) -> int:
    """Base value of a completed unit."""
    if kind == "row":
        return 10 * (10 - number)
    if kind == "column":
        return 60 if number in (1, 9) else 40
    if kind == "box":
        return (80, 50, 20)[(number - 1) // 3]
    raise ValueError(f"Unknown unit kind {kind!r}.")


def unit_bonuses(cards: Sequence[Card]) -> tuple[str, ...]:
    """Bonus names earned by nine cards read in unit order."""
    bonuses: list[str] = []
    clean = all(not c.is_wild for c in cards)
    suits = {c.suit for c in cards}
    flush = len(suits) == 1 and None not in suits
    straight = clean and tuple(c.digit for c in cards) in (_ASCENDING, _DESCENDING)
    if clean:
        bonuses.append("Clean")
    if flush:
        bonuses.append("Flush")
    if straight:
        bonuses.append("Straight")
    if straight and flush:
        bonuses.append("Royal")
    return tuple(bonuses)


def multiplier_of(bonuses: Sequence[str]) -> int:
    """Additive multiplier; no bonus means x1."""
    return sum(BONUS_VALUES[b] for b in bonuses) or 1


@dataclass(frozen=True)
class UnitScore:
    kind: str  # "row" | "column" | "box"
    number: int  # 1-9
    base: int
    bonuses: tuple[str, ...]  # e.g. ("Clean", "Straight")
    multiplier: int
    points: int


@dataclass(frozen=True)
class ScoreBreakdown:
    units: tuple[UnitScore, ...]  # completed units: rows 1-9, then columns, then boxes
    units_total: int
    discards: int
    discard_penalty: int  # -9 per discard (zero or negative)
    total: int

    def to_dict(self) -> dict:
        data = asdict(self)
        data["units"] = [dict(u, bonuses=list(u["bonuses"])) for u in data["units"]]
        return data


def score_board(board: Sequence[Card | None], discards: int = 0) -> ScoreBreakdown:
    """Score an 81-entry board (index ``(row-1)*9 + (col-1)``) plus a discard count."""
    if len(board) != 81:
        raise ValueError("A board has 81 squares.")
    units: list[UnitScore] = []
    for kind, number, indexes in _UNITS:
        cards = [board[i] for i in indexes]
        if any(c is None for c in cards):
            continue
        bonuses = unit_bonuses(cards)  # type: ignore[arg-type]
        base = unit_base(kind, number)
        mult = multiplier_of(bonuses)
        units.append(UnitScore(kind, number, base, bonuses, mult, base * mult))
    units_total = sum(u.points for u in units)
    penalty = -DISCARD_PENALTY * discards
    return ScoreBreakdown(tuple(units), units_total, discards, penalty, units_total + penalty)


# The 27 units as board indexes, in scoring order: a move scores the board several times.
_UNITS = tuple(
    (kind, number, tuple((r - 1) * 9 + (c - 1) for r, c in unit_squares(kind, number)))
    for kind in UNIT_KINDS
    for number in range(1, 10)
)


# The last states scored, with their scores: a move scores the board before and after it four
# to five times (the rules, the stored columns, the answer). States are immutable and held
# here, so one that `is` a held state has its score.
_recent: deque = deque(maxlen=4)


def score(state) -> ScoreBreakdown:
    """The score of a game state: completed units minus 9 per discard."""
    for seen, breakdown in list(_recent):
        if seen is state:
            return breakdown
    breakdown = score_board(state.board, state.discards)
    _recent.append((state, breakdown))
    return breakdown

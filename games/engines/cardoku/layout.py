"""Starting layouts of the nine spades (Ace-9) in the bottom three boxes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ..text import Sentences, _
from .cards import SPADES, Card, parse_card
from .deal import check_seed, seeded_shuffle
from .errors import BadCard, BadDealCode, LayoutError

Square = tuple[int, int]

#: The staircase squares: A-2-3 in row 7 cols 1-3, 4-5-6 row 8 cols 4-6, 7-8-9 row 9 cols 7-9.
STAIRCASE: tuple[Square, ...] = (
    (7, 1), (7, 2), (7, 3),
    (8, 4), (8, 5), (8, 6),
    (9, 7), (9, 8), (9, 9),
)  # fmt: skip

LAYOUT_KINDS = ("default", "random", "custom")


def box_of(row: int, col: int) -> int:
    """Box number 1-9 of a square (left to right, top to bottom)."""
    return (row - 1) // 3 * 3 + (col - 1) // 3 + 1


def _where(square: Square) -> str:
    return _("row %(row)s, column %(col)s", row=square[0], col=square[1])


@dataclass(frozen=True)
class Layout:
    """Where the nine spades start. ``placements`` is sorted by square.

    Always valid: the constructor checks the setup rules and raises :class:`LayoutError`.
    """

    kind: str
    placements: tuple[tuple[Square, Card], ...]

    def __post_init__(self) -> None:
        if self.kind not in LAYOUT_KINDS:
            raise LayoutError(f"Unknown layout kind {self.kind!r}: use default, random or custom.")
        _validate(self.placements)
        object.__setattr__(self, "placements", tuple(sorted(self.placements)))

    def as_mapping(self) -> dict[Square, Card]:
        """{(row, col): card} for the nine spades."""
        return dict(self.placements)

    def to_dict(self) -> dict:
        """JSON-safe form: ``{"kind": ..., "squares": [[row, col, "AS"], ...]}``."""
        return {
            "kind": self.kind,
            "squares": [[r, c, card.code] for (r, c), card in self.placements],
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Layout:
        """Inverse of :meth:`to_dict`. Raises :class:`LayoutError` on bad data."""
        try:
            kind = data["kind"]
            squares = data["squares"]
            placements = tuple(((r, c), parse_card(code)) for r, c, code in squares)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, LayoutError):
                raise
            raise LayoutError(f"This saved layout cannot be read ({exc}).") from None
        return cls(kind, placements)


def _validate(placements) -> None:
    if not isinstance(placements, tuple):
        raise LayoutError("Layout placements must be a tuple of (square, card) pairs.")
    squares: list[Square] = []
    cards: list[Card] = []
    for item in placements:
        try:
            (row, col), card = item
        except (TypeError, ValueError):
            raise LayoutError("Each layout entry must be a (row, column) square and a card.") from None
        for v in (row, col):
            if isinstance(v, bool) or not isinstance(v, int):
                raise LayoutError("Rows and columns are whole numbers 1-9.")
        if not isinstance(card, Card):
            raise LayoutError(f"{card!r} is not a card.")
        if not (1 <= col <= 9 and 7 <= row <= 9):
            raise LayoutError(
                f"The spades start in the bottom three boxes (rows 7-9, columns 1-9); "
                f"{_where((row, col))} is outside them."
            )
        if card.suit != "S" or card.is_wild:
            raise LayoutError(_("Only the Ace to 9 of spades start on the board, not the %(card)s.", card=card.name))
        squares.append((row, col))
        cards.append(card)
    for square, n in Counter(squares).items():
        if n > 1:
            raise LayoutError(_("Two spades are on the same square (%(square)s).", square=_where(square)))
    for card, n in Counter(cards).items():
        if n > 1:
            raise LayoutError(_("The %(card)s is placed %(n)s times; each spade goes down once.", card=card.name, n=n))
    missing = [c for c in SPADES if c not in cards]
    if missing:
        names = Sentences([c.rank_name for c in missing], ", ")
        raise LayoutError(_("Place all nine spades, Ace to 9; missing: %(names)s of spades.", names=names))
    for row, n in sorted(Counter(r for r, _c in squares).items()):
        if n > 3:
            raise LayoutError(_("Row %(row)s has %(n)s spades; at most three per row.", row=row, n=n))
    for box, n in sorted(Counter(box_of(r, c) for r, c in squares).items()):
        if n > 3:
            raise LayoutError(_("Box %(box)s has %(n)s spades; at most three per box.", box=box, n=n))


def default_layout() -> Layout:
    """The staircase: A-2-3 in row 7 (cols 1-3), 4-5-6 in row 8 (cols 4-6), 7-8-9 in row 9 (cols 7-9)."""
    return Layout("default", tuple(zip(STAIRCASE, SPADES, strict=True)))


def random_layout(seed: int) -> Layout:
    """The staircase squares with the spades shuffled among them, fixed by ``seed``."""
    try:
        check_seed(seed)
    except BadDealCode:
        raise LayoutError("A random layout needs a whole-number seed from the deal range.") from None
    rng = random.Random(f"cardoku-layout:{seed}")
    return Layout("random", tuple(zip(STAIRCASE, seeded_shuffle(SPADES, rng), strict=True)))


def custom_layout(mapping: Mapping) -> Layout:
    """A player's own layout, validated against the setup rules.

    ``mapping`` is either ``{(row, col): card}`` or ``{card: (row, col)}``; cards may be
    :class:`Card` objects or codes like ``"AS"``. Raises :class:`LayoutError` with a
    message for the player: only rows 7-9, at most three per row and per box, each spade
    Ace-9 exactly once (three in one column is fine).
    """
    if not isinstance(mapping, Mapping):
        raise LayoutError("A custom layout maps squares to spades.")
    placements = []
    for key, value in mapping.items():
        if isinstance(key, (str, Card)):
            key, value = value, key
        try:
            row, col = key
        except (TypeError, ValueError):
            raise LayoutError(f"{key!r} is not a (row, column) square.") from None
        try:
            card = parse_card(value)
        except BadCard as exc:
            raise LayoutError(str(exc)) from None
        placements.append(((row, col), card))
    return Layout("custom", tuple(placements))

"""Cards: Ace-9 (digits), 10/J/Q/K (wilds) of four suits, and two jokers.

Compact codes for storage and JSON: rank then suit letter -- ``"AS"``, ``"9H"``,
``"TD"`` (ten), ``"JC"``, ``"QS"``, ``"KH"`` -- and ``"X1"``, ``"X2"`` for the jokers.
``parse_card`` also accepts lower case and ``"10H"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text import _
from .errors import BadCard

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: dict[str, str] = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
SUIT_SYMBOLS: dict[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
JOKER_SYMBOL = "\u2605"  # ★

DIGIT_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9")
WILD_RANKS: tuple[str, ...] = ("10", "J", "Q", "K")
JOKER = "Joker"
RANKS: tuple[str, ...] = DIGIT_RANKS + WILD_RANKS + (JOKER,)

_RANK_CODES = {r: r for r in DIGIT_RANKS} | {"10": "T", "J": "J", "Q": "Q", "K": "K"}
_CODE_RANKS = {v: k for k, v in _RANK_CODES.items()}
_RANK_NAMES = {"A": _("Ace"), "10": "10", "J": _("Jack"), "Q": _("Queen"), "K": _("King"), JOKER: _("Joker")}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Build with :func:`parse_card` or the module constants.

    ``rank`` is ``"A"``, ``"2"``..``"9"``, ``"10"``, ``"J"``, ``"Q"``, ``"K"`` or
    ``"Joker"``; ``suit`` is ``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``None`` (jokers);
    ``joker`` is 1 or 2 for the two jokers and 0 otherwise.
    """

    rank: str
    suit: str | None = None
    joker: int = 0

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None or self.joker not in (1, 2):
                raise BadCard("A joker has no suit and is joker 1 or joker 2.")
        elif self.rank in _RANK_CODES:
            if self.suit not in SUITS or self.joker != 0:
                raise BadCard(f"Unknown suit {self.suit!r} for a {self.rank}.")
        else:
            raise BadCard(f"Unknown rank {self.rank!r}.")

    # --- codes -----------------------------------------------------------------------

    @property
    def code(self) -> str:
        if self.rank == JOKER:
            return f"X{self.joker}"
        return _RANK_CODES[self.rank] + self.suit  # type: ignore[operator]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    # --- game properties -------------------------------------------------------------

    @property
    def digit(self) -> int | None:
        """1-9 for Ace-9, ``None`` for wilds (10, J, Q, K, jokers)."""
        if self.rank in DIGIT_RANKS:
            return DIGIT_RANKS.index(self.rank) + 1
        return None

    @property
    def is_wild(self) -> bool:
        return self.rank not in DIGIT_RANKS

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; joker 2 is the red joker, joker 1 the black."""
        if self.rank == JOKER:
            return self.joker == 2
        return self.suit in ("H", "D")

    # --- display ---------------------------------------------------------------------

    @property
    def suit_name(self) -> str | None:
        return SUIT_NAMES[self.suit] if self.suit else None

    @property
    def symbol(self) -> str:
        """♠ ♥ ♦ ♣, or ★ for a joker."""
        return SUIT_SYMBOLS[self.suit] if self.suit else JOKER_SYMBOL

    @property
    def label(self) -> str:
        """Short display label: ``"A♠"``, ``"10♥"``, ``"K♦"``, ``"Joker"``."""
        if self.rank == JOKER:
            return "Joker"
        return self.rank + self.symbol

    @property
    def rank_name(self) -> str:
        """``"Ace"``, ``"7"``, ``"10"``, ``"King"``, ``"Joker"``."""
        return _RANK_NAMES.get(self.rank, self.rank)

    @property
    def name(self) -> str:
        """Full name for messages: ``"Ace of spades"``, ``"10 of hearts"``, ``"Joker"``."""
        if self.rank == JOKER:
            return _("Joker")
        return _("%(rank)s of %(suit)s", rank=self.rank_name, suit=self.suit_name)

    @property
    def sort_key(self) -> tuple[int, int]:
        """Canonical order: suit (S, H, D, C, jokers last), then rank."""
        suit_index = SUITS.index(self.suit) if self.suit else len(SUITS)
        return (suit_index, RANKS.index(self.rank) * 3 + self.joker)


def parse_card(code: str) -> Card:
    """Read a card code (``"AS"``, ``"th"``, ``"10H"``, ``"X2"``). Raises :class:`BadCard`."""
    if isinstance(code, Card):
        return code
    if not isinstance(code, str):
        raise BadCard(f"A card code must be text, not {type(code).__name__}.")
    text = code.strip().upper()
    if text in ("X1", "X2"):
        return Card(JOKER, None, int(text[1]))
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) == 2 and text[0] in _CODE_RANKS and text[1] in SUITS:
        return Card(_CODE_RANKS[text[0]], text[1])
    raise BadCard(f"{code!r} is not a card code (examples: AS, 9H, TD, KC, X1).")


def format_card(card: Card) -> str:
    """The compact code of a card (inverse of :func:`parse_card`)."""
    return card.code


def spade(digit: int) -> Card:
    """The spade of a digit 1-9 (``spade(1)`` is the Ace of spades)."""
    return Card(DIGIT_RANKS[digit - 1], "S")


#: The nine starting cards, Ace to 9 of spades.
SPADES: tuple[Card, ...] = tuple(Card(r, "S") for r in DIGIT_RANKS)
#: The two jokers.
JOKERS: tuple[Card, ...] = (Card(JOKER, None, 1), Card(JOKER, None, 2))
#: The 45 cards that are shuffled and dealt, in canonical (unshuffled) order.
DEAL_CARDS: tuple[Card, ...] = (
    tuple(Card(r, s) for s in ("H", "D", "C") for r in DIGIT_RANKS)
    + tuple(Card(r, s) for s in SUITS for r in WILD_RANKS)
    + JOKERS
)
#: The whole 54-card deck.
ALL_CARDS: tuple[Card, ...] = SPADES + DEAL_CARDS

"""Game state, placement rules and moves.

Everything here is pure: functions take a :class:`GameState` and return a new one (or
raise a :class:`~.errors.CardokuError`). Squares are ``(row, col)`` with rows 1-9 top
to bottom and columns 1-9 left to right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text import _
from .cards import Card
from .deal import check_seed, deal, deal_code
from .errors import BadMove, GameOver, IllegalSquare, NothingToUndo
from .layout import Layout, box_of, default_layout

Square = tuple[int, int]

PLACE = "place"
DISCARD = "discard"
UNDO = "undo"


def _index(row: int, col: int) -> int:
    return (row - 1) * 9 + (col - 1)


def _square(index: int) -> Square:
    return (index // 9 + 1, index % 9 + 1)


ALL_SQUARES: tuple[Square, ...] = tuple(_square(i) for i in range(81))

#: For each board index, its three units as (kind, number, peer indices without itself).
_UNITS_OF: tuple[tuple[tuple[str, int, tuple[int, ...]], ...], ...] = tuple(
    (
        ("row", r, tuple(_index(r, cc) for cc in range(1, 10) if cc != c)),
        ("column", c, tuple(_index(rr, c) for rr in range(1, 10) if rr != r)),
        (
            "box",
            box_of(r, c),
            tuple(
                _index(rr, cc)
                for rr in range((r - 1) // 3 * 3 + 1, (r - 1) // 3 * 3 + 4)
                for cc in range((c - 1) // 3 * 3 + 1, (c - 1) // 3 * 3 + 4)
                if (rr, cc) != (r, c)
            ),
        ),
    )
    for r, c in ALL_SQUARES
)

_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _index(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 1 <= r + dr <= 9 and 1 <= c + dc <= 9
    )
    for r, c in ALL_SQUARES
)


@dataclass(frozen=True)
class Move:
    """One entry of the history: a placement (with its square) or a discard."""

    kind: str
    card: Card
    row: int | None = None
    col: int | None = None

    def as_tuple(self) -> tuple:
        """``("place", row, col)`` or ``("discard",)`` -- the form :func:`replay` reads."""
        if self.kind == PLACE:
            return (PLACE, self.row, self.col)
        return (DISCARD,)


@dataclass(frozen=True)
class GameState:
    """An immutable Cardoku position. Build it with :func:`new_game`.

    ``board`` has 81 entries (index ``(row-1)*9 + (col-1)``), each a :class:`Card` or
    ``None``. ``deck`` is the whole 45-card deal; ``position`` is how many of its cards
    have been placed or discarded, so the current card is ``deck[position]``.
    The deck reveals every card to come: never send it (or the seed) to a browser
    during play.
    """

    layout: Layout
    seed: int
    deck: tuple[Card, ...] = field(repr=False)
    board: tuple[Card | None, ...] = field(repr=False)
    position: int = 0
    history: tuple[Move, ...] = ()
    discards: int = 0
    finished: bool = False

    @property
    def current_card(self) -> Card | None:
        """The card to place or discard now; ``None`` once the game is over."""
        return self.deck[self.position] if self.position < len(self.deck) else None

    @property
    def cards_left(self) -> int:
        """Cards still to play, the current one included."""
        return len(self.deck) - self.position

    @property
    def deal_code(self) -> str:
        return deal_code(self.seed)

    @property
    def moves(self) -> tuple[tuple, ...]:
        """The history as ``("place", r, c)`` / ``("discard",)`` tuples."""
        return tuple(m.as_tuple() for m in self.history)

    def card_at(self, row: int, col: int) -> Card | None:
        _check_square(row, col)
        return self.board[_index(row, col)]

    def cards_on_board(self) -> dict[Square, Card]:
        """{(row, col): card} for every filled square."""
        return {_square(i): c for i, c in enumerate(self.board) if c is not None}


def new_game(layout: Layout | None, seed: int) -> GameState:
    """A fresh game: the layout's spades on the board and the deal of ``seed`` to draw."""
    if layout is None:
        layout = default_layout()
    if not isinstance(layout, Layout):
        raise BadMove("new_game needs a Layout (see default_layout, random_layout, custom_layout).")
    check_seed(seed)
    board: list[Card | None] = [None] * 81
    for (row, col), card in layout.placements:
        board[_index(row, col)] = card
    return GameState(layout=layout, seed=seed, deck=deal(seed), board=tuple(board))


# --- rules -----------------------------------------------------------------------------


def _check_square(row: object, col: object) -> Square:
    for name, v in (("row", row), ("column", col)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise BadMove(f"The {name} must be a whole number from 1 to 9, not {v!r}.")
        if not 1 <= v <= 9:
            raise BadMove(f"The {name} must be from 1 to 9; {v} is off the board.")
    return (row, col)  # type: ignore[return-value]


def conflict(card: Card, other: Card) -> str | None:
    """Why ``other`` (in the same row, column or box) forbids ``card``, or ``None``.

    ``"digit"``: both Ace-9 with the same digit. ``"wild_rank"``: both wilds of the same
    rank (two Kings, two jokers). ``"wild_suit"``: both wilds of the same suit. Digits
    and wilds never block each other.
    """
    if card.is_wild != other.is_wild:
        return None
    if not card.is_wild:
        return "digit" if card.digit == other.digit else None
    if card.rank == other.rank:
        return "wild_rank"
    if card.suit is not None and card.suit == other.suit:
        return "wild_suit"
    return None


def _conflicts(board, card: Card, index: int):
    """Yield (unit kind, unit number, peer index, reason) for every blocking card."""
    for kind, number, peers in _UNITS_OF[index]:
        for p in peers:
            other = board[p]
            if other is not None:
                reason = conflict(card, other)
                if reason:
                    yield kind, number, p, reason


def _adjacent(board, index: int) -> bool:
    return any(board[n] is not None for n in _NEIGHBOURS[index])


_UNIT_NAMES = {"row": _("row"), "column": _("column"), "box": _("box")}
_UNIT_AT = {
    "row": lambda n: _("row %(n)s", n=n),
    "column": lambda n: _("column %(n)s", n=n),
    "box": lambda n: _("box %(n)s", n=n),
}


def _a(word: str) -> str:
    return _("an %(word)s", word=word) if word[0] in "A8" or word == "Ace" else _("a %(word)s", word=word)


def _conflict_message(card: Card, kind: str, number: int, other: Card, reason: str) -> str:
    where, unit = _UNIT_AT[kind](number), _UNIT_NAMES[kind]
    if reason == "digit":
        what = _("an Ace (1)") if card.digit == 1 else _a(str(card.digit))
        return _(
            "There is already %(what)s in %(where)s (the %(other)s); the %(card)s cannot go there.",
            what=what,
            where=where,
            other=other.name,
            card=card.name,
        )
    if reason == "wild_rank":
        what = _("a joker") if card.is_joker else _a(card.rank_name)
        return _(
            "There is already %(what)s in %(where)s; two wilds of the same rank cannot share a %(unit)s.",
            what=what,
            where=where,
            unit=unit,
        )
    return _(
        "There is already a wild of %(suit)s in %(where)s (the %(other)s); two wilds of the same suit "
        "cannot share a %(unit)s.",
        suit=card.suit_name,
        where=where,
        other=other.name,
        unit=unit,
    )


def check_square(state: GameState, row: int, col: int) -> None:
    """Raise why the current card may not go on (row, col); return ``None`` if it may.

    Raises :class:`BadMove` (off the board), :class:`GameOver` or :class:`IllegalSquare`.
    """
    _check_square(row, col)
    card = state.current_card
    if card is None:
        raise GameOver(_("The game is over: the deck has run out."))
    i = _index(row, col)
    where = _("row %(row)s, column %(col)s", row=row, col=col)
    taken = state.board[i]
    if taken is not None:
        raise IllegalSquare(
            _("The square at %(where)s is already taken by the %(card)s.", where=where, card=taken.name),
            square=(row, col),
            reason="occupied",
        )
    if not _adjacent(state.board, i):
        raise IllegalSquare(
            _(
                "The square at %(where)s is not next to a card: place cards directly above, below, left or right "
                "of a card already on the board.",
                where=where,
            ),
            square=(row, col),
            reason="not_adjacent",
        )
    found = list(_conflicts(state.board, card, i))
    if found:
        kind, number, p, reason = found[0]
        raise IllegalSquare(
            _conflict_message(card, kind, number, state.board[p], reason),
            square=(row, col),
            reason=reason,
            blockers=frozenset(_square(q) for _, _, q, _ in found),
        )


def is_legal(state: GameState, row: int, col: int) -> bool:
    """Whether the current card may go on (row, col). Off-board squares raise BadMove."""
    _check_square(row, col)
    card = state.current_card
    if card is None:
        return False
    i = _index(row, col)
    return state.board[i] is None and _adjacent(state.board, i) and next(_conflicts(state.board, card, i), None) is None


def legal_squares(state: GameState) -> frozenset[Square]:
    """Every square where the current card may be placed (empty once the game is over)."""
    card = state.current_card
    if card is None:
        return frozenset()
    board = state.board
    return frozenset(
        _square(i)
        for i in range(81)
        if board[i] is None and _adjacent(board, i) and next(_conflicts(board, card, i), None) is None
    )


def blockers(state: GameState, square: Square) -> frozenset[Square]:
    """Squares of the cards that block the current card on ``square`` (Sudoku rules only)."""
    try:
        row, col = square
    except (TypeError, ValueError):
        raise BadMove(f"{square!r} is not a (row, column) square.") from None
    _check_square(row, col)
    card = state.current_card
    if card is None:
        return frozenset()
    return frozenset(_square(p) for _, _, p, _ in _conflicts(state.board, card, _index(row, col)))


def blocking_cards(state: GameState) -> frozenset[Square]:
    """Squares of every card that keeps the current card off some empty square.

    This is what "Show placement restrictions" highlights.
    """
    card = state.current_card
    if card is None:
        return frozenset()
    board = state.board
    out: set[int] = set()
    for i in range(81):
        if board[i] is None:
            out.update(p for _, _, p, _ in _conflicts(board, card, i))
    return frozenset(_square(p) for p in out)


# --- moves -----------------------------------------------------------------------------


def place(state: GameState, row: int, col: int) -> GameState:
    """Place the current card on (row, col) and draw the next. Raises if not allowed."""
    check_square(state, row, col)
    card = state.current_card
    assert card is not None
    board = list(state.board)
    board[_index(row, col)] = card
    position = state.position + 1
    return GameState(
        layout=state.layout,
        seed=state.seed,
        deck=state.deck,
        board=tuple(board),
        position=position,
        history=state.history + (Move(PLACE, card, row, col),),
        discards=state.discards,
        finished=position >= len(state.deck),
    )


def discard(state: GameState) -> GameState:
    """Discard the current card (-9 points) and draw the next."""
    card = state.current_card
    if card is None:
        raise GameOver(_("The game is over: the deck has run out."))
    position = state.position + 1
    return GameState(
        layout=state.layout,
        seed=state.seed,
        deck=state.deck,
        board=state.board,
        position=position,
        history=state.history + (Move(DISCARD, card),),
        discards=state.discards + 1,
        finished=position >= len(state.deck),
    )


def undo(state: GameState) -> GameState:
    """Take back the last placement or discard (also after the game has ended)."""
    if not state.history:
        raise NothingToUndo(_("Nothing to undo: this is the start of the deal."))
    last = state.history[-1]
    board = state.board
    discards = state.discards
    if last.kind == PLACE:
        cells = list(board)
        cells[_index(last.row, last.col)] = None  # type: ignore[arg-type]
        board = tuple(cells)
    else:
        discards -= 1
    return GameState(
        layout=state.layout,
        seed=state.seed,
        deck=state.deck,
        board=board,
        position=state.position - 1,
        history=state.history[:-1],
        discards=discards,
        finished=False,
    )


def apply_move(state: GameState, move) -> GameState:
    """Apply one move given as ``("place", r, c)``, ``("discard",)``, ``("undo",)``
    (tuples or JSON lists) or a :class:`Move`."""
    if isinstance(move, Move):
        move = move.as_tuple()
    if isinstance(move, str):
        move = (move,)
    if not isinstance(move, (tuple, list)) or not move:
        raise BadMove(f"{move!r} is not a move.")
    kind, *args = move
    if kind == PLACE:
        if len(args) != 2:
            raise BadMove('A placement is written ("place", row, column).')
        return place(state, args[0], args[1])
    if kind in (DISCARD, UNDO):
        if args:
            raise BadMove(f'A {kind} is written ("{kind}",).')
        return discard(state) if kind == DISCARD else undo(state)
    raise BadMove(f"Unknown move {kind!r}: use place, discard or undo.")


def replay(layout: Layout | None, seed: int, moves) -> GameState:
    """The state reached from the deal of ``seed`` on ``layout`` after ``moves``."""
    state = new_game(layout, seed)
    for move in moves:
        state = apply_move(state, move)
    return state

"""Cardoku: a card solitaire on a Sudoku grid (docs/rules.md section 3).

Pure Python, standard library only. Seeds come in as arguments; nothing here reads a
clock or the global random generator.

Typical use::

    from games.engines import cardoku as ck

    state = ck.new_game(ck.default_layout(), seed)
    state = ck.place(state, 7, 4)          # or ck.discard(state), ck.undo(state)
    ck.legal_squares(state)                # squares for the current card
    ck.score(state).total
    saved = ck.to_dict(state); ck.from_dict(saved) == state
"""

from .cards import (
    ALL_CARDS,
    DEAL_CARDS,
    JOKERS,
    RANKS,
    SPADES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    format_card,
    parse_card,
    spade,
)
from .deal import (
    CODE_LENGTH,
    LONG_CODE_LENGTH,
    SEED_LIMIT,
    deal,
    deal_code,
    duel_code,
    duel_seed,
    is_long_seed,
    long_seed,
    parse_deal_code,
    parse_duel_code,
    random_seed,
)
from .errors import (
    BadCard,
    BadDealCode,
    BadMove,
    BadState,
    CardokuError,
    GameOver,
    IllegalMove,
    IllegalSquare,
    InvalidInput,
    LayoutError,
    NothingToUndo,
)
from .game import (
    ALL_SQUARES,
    GameState,
    Move,
    apply_move,
    blockers,
    blocking_cards,
    check_square,
    conflict,
    discard,
    is_legal,
    legal_squares,
    new_game,
    place,
    replay,
    undo,
)
from .layout import (
    STAIRCASE,
    Layout,
    box_of,
    custom_layout,
    default_layout,
    random_layout,
)
from .scoring import (
    DISCARD_PENALTY,
    ScoreBreakdown,
    UnitScore,
    score,
    score_board,
    unit_base,
    unit_bonuses,
    unit_squares,
)
from .serialize import from_dict, restore, to_dict

__all__ = [
    "ALL_CARDS", "ALL_SQUARES", "CODE_LENGTH", "DEAL_CARDS", "DISCARD_PENALTY", "JOKERS",
    "RANKS", "SEED_LIMIT", "SPADES", "STAIRCASE", "SUITS", "SUIT_NAMES", "SUIT_SYMBOLS",
    "BadCard", "BadDealCode", "BadMove", "BadState", "Card", "CardokuError", "GameOver",
    "GameState", "IllegalMove", "IllegalSquare", "InvalidInput", "Layout", "LayoutError",
    "Move", "NothingToUndo", "ScoreBreakdown", "UnitScore",
    "apply_move", "blockers", "blocking_cards", "box_of", "check_square", "conflict",
    "custom_layout", "deal", "deal_code", "default_layout", "discard", "format_card",
    "from_dict", "restore", "is_legal", "legal_squares", "new_game", "parse_card", "parse_deal_code",
    "place", "random_layout", "random_seed", "long_seed", "is_long_seed", "LONG_CODE_LENGTH",
    "duel_code", "duel_seed", "parse_duel_code",
    "replay", "score", "score_board", "spade",
    "to_dict", "undo", "unit_base", "unit_bonuses", "unit_squares",
]  # fmt: skip

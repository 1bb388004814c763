"""What the Cardoku templates render, built from an engine state.

Only cards that are on the board, the current card and cards already discarded ever
reach a template: never the deck, the seed or anything derived from upcoming cards.
"""

from __future__ import annotations

from games.engines import cardoku as ck

from .play import unit_title

BONUS_HELP = {
    "Clean": "no wilds or jokers (×2)",
    "Flush": "all nine cards one suit (×2)",
    "Straight": "Ace to 9 in order (×3)",
    "Royal": "a Straight that is also a Flush (×2)",
}


def card_view(card: ck.Card | None, start: bool = False) -> dict | None:
    """A card as the card partial draws it."""
    if card is None:
        return None
    return {
        "code": card.code,
        "name": card.name,
        "rank": "★" if card.is_joker else card.rank,
        "symbol": "" if card.is_joker else card.symbol,
        "suit": card.suit_name or "joker",
        "red": card.is_red,
        "joker": card.is_joker,
        "wild": card.is_wild,
        "start": start,
    }


def unit_view(unit: ck.UnitScore) -> dict:
    return {
        "kind": unit.kind, "number": unit.number, "title": unit_title(unit), "base": unit.base,
        "bonuses": [{"name": b, "help": BONUS_HELP[b]} for b in unit.bonuses],
        "multiplier": unit.multiplier, "points": unit.points,
    }


def score_view(state: ck.GameState) -> dict:
    breakdown = ck.score(state)
    return {
        "total": breakdown.total,
        "units": [unit_view(u) for u in breakdown.units],
        "units_total": breakdown.units_total,
        "discards": breakdown.discards,
        "discard_penalty": breakdown.discard_penalty,
        "rows": sum(1 for u in breakdown.units if u.kind == "row"),
        "columns": sum(1 for u in breakdown.units if u.kind == "column"),
        "boxes": sum(1 for u in breakdown.units if u.kind == "box"),
    }


def board_rows(state: ck.GameState, *, legal=frozenset(), blocking=frozenset(), fresh=None,
               tried=None, hits=frozenset(), scored_now=()) -> list[list[dict]]:
    """Rows of square dicts for the ARIA grid."""
    start = set(state.layout.as_mapping())
    scored = set()
    for unit in ck.score(state).units:
        scored.update(ck.unit_squares(unit.kind, unit.number))
    flashing = set()
    for unit in scored_now:
        flashing.update(ck.unit_squares(unit.kind, unit.number))
    rows = []
    for r in range(1, 10):
        row = []
        for c in range(1, 10):
            card = state.card_at(r, c)
            label = f"Row {r}, column {c}"
            if card is not None:
                label += f", {card.name}"
            row.append({
                "row": r, "col": c, "box": ck.box_of(r, c), "label": label,
                "card": card_view(card, (r, c) in start),
                "legal": (r, c) in legal, "blocker": (r, c) in blocking,
                "hit": (r, c) in hits, "tried": (r, c) == tried, "fresh": (r, c) == fresh,
                "scored": (r, c) in scored, "flash": (r, c) in flashing,
                "box_right": c in (3, 6), "box_bottom": r in (3, 6),
            })
        rows.append(row)
    return rows


def last_discard(state: ck.GameState) -> ck.Card | None:
    for move in reversed(state.history):
        if move.kind == "discard":
            return move.card
    return None


def game_context(game, state: ck.GameState | None = None, outcome=None, error=None,
                 refusal: ck.IllegalSquare | None = None) -> dict:
    """Everything the play page and its partial need for one game."""
    state = state or game.engine_state()
    playing = not state.finished
    legal = ck.legal_squares(state) if playing and game.show_moves else frozenset()
    blocking = ck.blocking_cards(state) if playing and game.show_restrictions else frozenset()
    fresh = outcome.square if outcome is not None and outcome.kind == "placed" else None
    scored_now = outcome.completed if outcome is not None else ()
    tried = refusal.square if refusal is not None else None
    hits = refusal.blockers if refusal is not None else frozenset()
    current = state.current_card
    no_moves = playing and (not legal if game.show_moves else not ck.legal_squares(state))
    return {
        "game": game,
        "rows": board_rows(state, legal=legal, blocking=blocking, fresh=fresh, tried=tried, hits=hits,
                           scored_now=scored_now),
        "current": card_view(current),
        "cards_left": state.cards_left,
        "deck_after": max(state.cards_left - 1, 0),
        "legal_count": len(legal),
        "no_moves": no_moves,
        "can_undo": playing and bool(state.history),
        "last_discard": card_view(last_discard(state)),
        "score": score_view(state),
        "outcome": outcome,
        "error": error,
        "playing": playing,
        "step": game.step,
        "placed": sum(1 for m in state.history if m.kind == "place"),
    }

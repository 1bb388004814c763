"""What the Cardoku templates render, built from an engine state.

Only cards that are on the board, the current card and cards already discarded ever
reach a template: never the deck, the seed or anything derived from upcoming cards.
"""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.common.i18n import say
from games.engines import cardoku as ck

from . import fragments
from .play import unit_title

BONUS_NAMES = {"Clean": _("Clean"), "Flush": _("Flush"), "Straight": _("Straight"), "Royal": _("Royal")}
BONUS_HELP = {
    "Clean": _("no wilds or jokers (×2)"),
    "Flush": _("all nine cards one suit (×2)"),
    "Straight": _("Ace to 9 in order (×3)"),
    "Royal": _("a Straight that is also a Flush (×2)"),
}


def card_view(card: ck.Card | None, start: bool = False) -> dict | None:
    """A card as the card partial draws it."""
    if card is None:
        return None
    return {
        "code": card.code,
        "name": say(card.name),
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
        "kind": unit.kind,
        "number": unit.number,
        "title": say(unit_title(unit)),
        "base": unit.base,
        "bonuses": [{"name": b, "label": BONUS_NAMES[b], "help": BONUS_HELP[b]} for b in unit.bonuses],
        "multiplier": unit.multiplier,
        "points": unit.points,
    }


def score_view(state: ck.GameState, breakdown: ck.ScoreBreakdown | None = None) -> dict:
    breakdown = breakdown or ck.score(state)
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


def scored_squares(units) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for unit in units:
        out.update(ck.unit_squares(unit.kind, unit.number))
    return out


def square_view(
    state: ck.GameState,
    r: int,
    c: int,
    start,
    *,
    legal=frozenset(),
    blocking=frozenset(),
    fresh=None,
    tried=None,
    hits=frozenset(),
    scored=frozenset(),
    flashing=frozenset(),
) -> dict:
    """One square's dict for the grid (games/cardoku/fragments.square draws it)."""
    card = state.board[(r - 1) * 9 + c - 1]
    label = gettext("Row %(row)s, column %(col)s") % {"row": r, "col": c}
    # An empty square says so, as a Sudoku cell does (games/sudoku/fragments.py).
    label += f", {say(card.name)}" if card is not None else ", " + gettext("empty")
    return {
        "row": r,
        "col": c,
        "box": ck.box_of(r, c),
        "label": label,
        "card": card_view(card, (r, c) in start),
        "legal": (r, c) in legal,
        "blocker": (r, c) in blocking,
        "hit": (r, c) in hits,
        "tried": (r, c) == tried,
        "fresh": (r, c) == fresh,
        "scored": (r, c) in scored,
        "flash": (r, c) in flashing,
        "box_right": c in (3, 6),
        "box_bottom": r in (3, 6),
    }


def board_rows(
    state: ck.GameState,
    *,
    legal=frozenset(),
    blocking=frozenset(),
    fresh=None,
    tried=None,
    hits=frozenset(),
    scored_now=(),
    breakdown: ck.ScoreBreakdown | None = None,
) -> list[list[dict]]:
    """Rows of square dicts for the ARIA grid."""
    start = set(state.layout.as_mapping())
    scored = scored_squares((breakdown or ck.score(state)).units)
    flashing = scored_squares(scored_now)
    return [
        [
            square_view(
                state,
                r,
                c,
                start,
                legal=legal,
                blocking=blocking,
                fresh=fresh,
                tried=tried,
                hits=hits,
                scored=scored,
                flashing=flashing,
            )
            for c in range(1, 10)
        ]
        for r in range(1, 10)
    ]


def last_discard(state: ck.GameState) -> ck.Card | None:
    for move in reversed(state.history):
        if move.kind == "discard":
            return move.card
    return None


def game_context(
    game, state: ck.GameState | None = None, outcome=None, error=None, refusal: ck.IllegalSquare | None = None
) -> dict:
    """Everything the play page and its partial need for one game."""
    state = state or game.engine_state()
    playing = not state.finished
    all_legal = ck.legal_squares(state) if playing else frozenset()
    legal = all_legal if game.show_moves else frozenset()
    blocking = ck.blocking_cards(state) if playing and game.show_restrictions else frozenset()
    fresh = outcome.square if outcome is not None and outcome.kind == "placed" else None
    scored_now = outcome.completed if outcome is not None else ()
    tried = refusal.square if refusal is not None else None
    hits = refusal.blockers if refusal is not None else frozenset()
    current = state.current_card
    breakdown = ck.score(state)
    rows = board_rows(
        state,
        legal=legal,
        blocking=blocking,
        fresh=fresh,
        tried=tried,
        hits=hits,
        scored_now=scored_now,
        breakdown=breakdown,
    )
    return {
        "game": game,
        "rows": rows,
        "current": card_view(current),
        "cards_left": state.cards_left,
        "deck_after": max(state.cards_left - 1, 0),
        "legal_count": len(legal),
        "no_moves": playing and not all_legal,
        "can_undo": playing and bool(state.history),
        "last_discard": card_view(last_discard(state)),
        "score": score_view(state, breakdown),
        "outcome": outcome,
        "error": error,
        "playing": playing,
        "step": game.step,
        "placed": sum(1 for m in state.history if m.kind == "place"),
    }


def _helpers(game, state: ck.GameState):
    """(all legal squares, the legal squares shown, the blocking cards shown) for a state."""
    if state.finished:
        return frozenset(), frozenset(), frozenset()
    legal = ck.legal_squares(state)
    return (
        legal,
        legal if game.show_moves else frozenset(),
        ck.blocking_cards(state) if game.show_restrictions else frozenset(),
    )


def _shown(game, state: ck.GameState):
    """(the legal squares shown, the blocking cards shown): only what the toggles show."""
    if state.finished:
        return frozenset(), frozenset()
    return (
        ck.legal_squares(state) if game.show_moves else frozenset(),
        ck.blocking_cards(state) if game.show_restrictions else frozenset(),
    )


def move_answer(
    game, before: ck.GameState, after: ck.GameState, outcome=None, error=None, refusal: ck.IllegalSquare | None = None
) -> SafeString:
    """Only what a move (or a refused move) changed, as out-of-band swaps: the squares that
    differ (the placed or taken-back card, legal and blocking marks while those helpers are
    on, scored units) or carry this move's marks (the fresh card, a completed unit, a refused
    square and the cards that block it: the page's script clears the last move's marks), the
    current card, the deck, the undo button, the step, the helper note, the score panel when
    the score moved, and the message."""
    playing = not after.finished
    all_legal, legal, blocking = _helpers(game, after)
    breakdown = ck.score(after)
    if before is after:
        was_legal, was_blocking, was_breakdown = legal, blocking, breakdown
    else:
        # Only the marks shown: the legal squares of the board before are not needed otherwise.
        was_legal, was_blocking = _shown(game, before)
        was_breakdown = ck.score(before)
    scored, was_scored = scored_squares(breakdown.units), scored_squares(was_breakdown.units)
    marks: dict[str, Any] = {
        "fresh": outcome.square if outcome is not None and outcome.kind == "placed" else None,
        "tried": refusal.square if refusal is not None else None,
        "hits": refusal.blockers if refusal is not None else frozenset(),
        "flashing": scored_squares(outcome.completed if outcome is not None else ()),
    }
    marked = {marks["fresh"], marks["tried"], *marks["hits"], *marks["flashing"]}
    start = set(after.layout.as_mapping())
    parts = []
    for i, (r, c) in enumerate(ck.ALL_SQUARES):
        sq = (r, c)
        if (
            before.board[i] == after.board[i]
            and (sq in legal) == (sq in was_legal)
            and sq not in marked
            and (sq in blocking) == (sq in was_blocking)
            and (sq in scored) == (sq in was_scored)
        ):
            continue
        view = square_view(after, r, c, start, legal=legal, blocking=blocking, scored=scored, **marks)
        parts.append(fragments.square(view, playing, oob=True))
    current = card_view(after.current_card)
    if before.current_card != after.current_card:
        parts.append(fragments.current(current, oob=True))
    if outcome is not None:  # a move was applied: the deck moved on or back, a new step
        parts.append(
            fragments.deck(after.cards_left, max(after.cards_left - 1, 0), card_view(last_discard(after)), oob=True)
        )
        parts.append(fragments.step_input(game.step, "ck-step", oob=True))
        parts.append(fragments.step_input(game.step, "ck-place-step", oob=True))
        if game.show_moves:
            parts.append(fragments.toggle_note(True, len(legal), oob=True))
    if bool(before.history) != bool(after.history):
        parts.append(fragments.undo_button(playing and bool(after.history), oob=True))
    if before.discards != after.discards or len(was_breakdown.units) != len(breakdown.units):
        parts.append(fragments.score_panel(score_view(after, breakdown), oob=True))
    parts.append(
        fragments.message(
            {
                "error": error,
                "outcome": outcome,
                "playing": playing,
                "current": current,
                "no_moves": playing and not all_legal,
                "game": game,
            },
            oob=True,
        )
    )
    return mark_safe("".join(parts))

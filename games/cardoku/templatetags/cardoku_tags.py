"""Cardoku card pictures for pages that are not Cardoku's own (the home tile, How to Play),
and the game's own markup. They only draw; the pages' data comes from their views."""

from django import template

from games.cardoku import fragments
from games.cardoku.presenters import card_view
from games.engines import cardoku as ck

register = template.Library()


@register.simple_tag
def cardoku_card(code: str, start: bool = False) -> dict | None:
    """A card for the card partial, from its code: ``{% cardoku_card "7H" as card %}``."""
    return card_view(ck.parse_card(code), start)


@register.simple_tag
def cardoku_cards(codes: str) -> list[dict | None]:
    """Several cards from space-separated codes: ``{% cardoku_cards "AH 2H 3H" as row %}``."""
    return [card_view(ck.parse_card(code)) for code in codes.split()]


# The game's markup (games/cardoku/fragments.py): a move's answer swaps the same
# fragments by id, so the page and an answer cannot drift apart.
register.simple_tag(fragments.card, name="ck_card")
register.simple_tag(fragments.back, name="ck_back")
register.simple_tag(fragments.square, name="ck_square")
register.simple_tag(fragments.current, name="ck_current")
register.simple_tag(fragments.deck, name="ck_deck")
register.simple_tag(fragments.undo_button, name="ck_undo")
register.simple_tag(fragments.step_input, name="ck_step")
register.simple_tag(fragments.toggle_note, name="ck_toggle_note")
register.simple_tag(fragments.score_panel, name="ck_score")


@register.simple_tag(takes_context=True)
def ck_message(context):
    return fragments.message(context.flatten())

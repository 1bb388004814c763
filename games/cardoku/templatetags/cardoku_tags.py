"""Cardoku card pictures for pages that are not Cardoku's own (the home tile, How to Play).
They only draw cards from codes; the pages' data comes from their views."""

from django import template

from games.cardoku.presenters import card_view
from games.engines import cardoku as ck

register = template.Library()


@register.simple_tag
def cardoku_card(code: str, start: bool = False) -> dict:
    """A card for the card partial, from its code: ``{% cardoku_card "7H" as card %}``."""
    return card_view(ck.parse_card(code), start)


@register.simple_tag
def cardoku_cards(codes: str) -> list[dict]:
    """Several cards from space-separated codes: ``{% cardoku_cards "AH 2H 3H" as row %}``."""
    return [card_view(ck.parse_card(code)) for code in codes.split()]

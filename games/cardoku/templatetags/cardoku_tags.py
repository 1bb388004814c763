"""Cardoku pieces for pages that are not Cardoku's own: the home card, the leaderboards
and How to Play (their views know nothing about Cardoku)."""

from django import template

from games.cardoku import records
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


@register.inclusion_tag("cardoku/stats_panel.html")
def cardoku_stats(player):
    """The player's Cardoku records: best scores and recent games."""
    return {"records": records.records_for(player) if player is not None else None, "player": player}

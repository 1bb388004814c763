"""Domino pieces for pages the domino app does not render itself: the home page card,
the leaderboards section. They only get `player` and `request` from their page."""

from django import template
from django.utils import timezone

from games.domino import solo
from games.domino.records import player_records
from games.domino.views import LEVELS, RECOMMENDED_LEVEL

register = template.Library()


@register.inclusion_tag("domino/_card.html", takes_context=True)
def domino_home_card(context):
    player = context.get("player")
    current = None
    if player is not None:
        solo.settle_overdue(player=player)  # any request after the limit ends the game
        current = solo.current_game(player)
    return {"levels": LEVELS, "recommended": RECOMMENDED_LEVEL, "current_game": current,
            "seconds_left": current.seconds_left(timezone.now()) if current else None,
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("domino/_stats.html")
def domino_stats(player):
    if player is None:
        return {"records": None}
    solo.settle_overdue(player=player)
    return {"records": player_records(player)}

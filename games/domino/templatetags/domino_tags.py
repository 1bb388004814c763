"""Domino pieces for pages the domino app does not render itself: the leaderboards section.
(The home tile gets its data from the home view: stats.panels.home_panels.)"""

from django import template

from games.domino import solo
from games.domino.records import player_records

register = template.Library()


@register.inclusion_tag("domino/_stats.html")
def domino_stats(player):
    if player is None:
        return {"records": None}
    solo.settle_overdue(player=player)
    return {"records": player_records(player)}

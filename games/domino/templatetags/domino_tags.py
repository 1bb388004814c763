"""The Domino game's markup for templates (games/domino/fragments.py): a move's answer
swaps the same fragments by id, so the page and an answer cannot drift apart. The solo
page and the duel board in a room both render through these."""

from django import template

from games.domino import fragments
from games.domino.presenters import message_line
from games.engines import domino as engine

register = template.Library()

register.simple_tag(fragments.cell, name="dm_cell")
register.simple_tag(fragments.marker, name="dm_marker")
register.simple_tag(fragments.clock, name="dm_clock")
register.simple_tag(fragments.score, name="dm_score")
register.simple_tag(fragments.hand, name="dm_hand")
register.simple_tag(fragments.version_input, name="dm_version")
register.simple_tag(fragments.legend, name="dm_legend")


@register.simple_tag
def dm_lives(lives, outcome=None):
    return fragments.lives(lives, engine.LIVES, just_lost=bool(outcome) and outcome.kind == "wrong")


@register.simple_tag(takes_context=True)
def dm_message(context):
    return fragments.message(*message_line(context.flatten(), context.get("error")))


@register.simple_tag(takes_context=True)
def dm_live(context, oob=False):
    return fragments.live(context.get("error") or context.get("message") or "", oob=oob)

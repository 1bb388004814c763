from django import template

from rooms import fragments

register = template.Library()


@register.simple_tag
def room_message(outcome=None, error=None, game=None):
    """The room's message line: the same builder as a live answer's."""
    return fragments.message(outcome, error, game=game)


@register.filter
def racer(seat, colours):
    """The seat's colour class (rooms/fragments.py colours: by when it joined)."""
    return f"racer-c{(colours or {}).get(seat.pk, 0)}"

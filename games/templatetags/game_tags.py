from django import template

from games.presenters import format_seconds

register = template.Library()


@register.filter
def clock(seconds):
    """Seconds as m:ss (or h:mm:ss)."""
    return format_seconds(seconds)

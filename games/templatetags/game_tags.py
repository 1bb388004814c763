from functools import lru_cache

from django import template
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext

from games.common import i18n
from games.common.i18n import label
from games.common.times import format_seconds
from games.sudoku import fragments

register = template.Library()


@register.filter
def clock(seconds):
    """Seconds as m:ss (or h:mm:ss)."""
    return format_seconds(seconds)


@register.filter(expects_localtime=True)
def day(moment):
    """`moment|date:"j N Y"` (in the page's time zone and language: "4 Dec. 2026", "4 dec 2026";
    "M j, Y" read "Dec 4, 2026" on Dutch pages too), formatted once per day
    and language: Django's date filter costs about 40 microseconds a call, and a ranking's
    100 dates cost as much as the rest of its rows."""
    return _day(moment.date(), get_language()) if moment else ""


@lru_cache(maxsize=4096)
def _day(day, language) -> str:  # the language: part of the key, the one active
    return date_format(day, "j N Y")


@register.filter
def days_clock(seconds):
    """A long wait as days and h:mm ("2 days 13:28"), under a day as the clock says; the
    page's script (board.js) counts it down the same way."""
    if seconds is None or seconds < 86400:
        return format_seconds(seconds)
    days, rest = divmod(int(seconds), 86400)
    # One and many only (as the script's two words): no plural forms to share with it.
    words = gettext("%(n)s day") if days == 1 else gettext("%(n)s days")
    return words % {"n": days} + f" {rest // 3600}:{rest % 3600 // 60:02d}"


# The Sudoku fragments (games/sudoku/fragments.py) for pages: a move's answer swaps the same
# markup by id, so a page and an answer cannot drift apart.
register.simple_tag(fragments.hint_button, name="hint_button")
register.simple_tag(fragments.submit_button, name="submit_button")
register.simple_tag(fragments.score_stat, name="score_stat")
register.simple_tag(fragments.mistakes_stat, name="mistakes_stat")
register.simple_tag(fragments.hints_stat, name="hints_stat")
register.simple_tag(fragments.version_input, name="version_input")
register.simple_tag(fragments.outcome_message, name="outcome_message")
register.simple_tag(fragments.run_badge, name="run_badge")
register.simple_tag(fragments.fill_notes_button, name="fill_notes_button")


# Labels of engine keys in the player's language (games/common/i18n.py).
@register.filter
def level_label(value):
    return i18n.level_label(value)


@register.filter
def preset_label(value):
    return label(i18n.PRESETS, value)


@register.filter
def penalty_label(value):
    return label(i18n.PENALTIES, str(value))


@register.filter
def player_status(value):
    return label(i18n.STATUSES, value)


@register.filter
def say(message):
    """An engine's message (games/engines/text.py) in the player's language."""
    return i18n.say(message)


@register.filter
def penalty_option(value):
    """A penalty in the lobby's select: None, Flat, Progressive."""
    return label(i18n.PENALTY_OPTIONS, str(value))

"""The player's language at the presentation layer: engine texts translated, and the
labels of the engines' keys (levels, presets, penalties, statuses) in that language."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header

from games.engines.sudoku.levels import Level
from games.engines.text import Sentences, Text

PRESETS = {
    "friendly": _("Friendly"),
    "standard": _("Standard"),
    "hardcore": _("Hardcore"),
    "tournament": _("Tournament"),
    "custom": _("Custom"),
}
PENALTIES = {"none": _("none"), "flat": _("−5 per mistake"), "progressive": _("progressive (−5, −10, −15, …)")}
PENALTY_OPTIONS = {"none": _("None"), "flat": _("Flat"), "progressive": _("Progressive")}
STATUSES = {"playing": _("Playing"), "finished": _("Finished"), "eliminated": _("Eliminated"), "left": _("Left")}


def say(message) -> str:
    """An engine's message in the active language: a Text's template is translated, then
    filled in with its parameters (translated too); a plain string is looked up as is."""
    if isinstance(message, Sentences):
        return message.separator.join(say(text) for text in message.texts)
    if isinstance(message, Text):
        if not message.params:
            return gettext(message.template)
        return gettext(message.template) % {
            key: say(value) if isinstance(value, Text) else value for key, value in message.params.items()
        }
    if isinstance(message, BaseException):
        return say(message.args[0]) if message.args else ""
    return gettext(message) if message else message


def label(labels: dict, key) -> str:
    """The label of an engine's key, or the key itself when there is none."""
    return str(labels.get(key, key)) if key else key


def points(n: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def place_of(place: int, players: int) -> str:
    """ "2nd of 4" (Dutch: "2e van 4")."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    ordinal = {"st": gettext("%(n)sst"), "nd": gettext("%(n)snd"), "rd": gettext("%(n)srd"), "th": gettext("%(n)sth")}[
        suffix
    ] % {"n": place}
    return gettext("%(ordinal)s of %(players)s") % {"ordinal": ordinal, "players": players}


def level_label(level: str) -> str:
    """A difficulty's name ("easy" -> "Makkelijk"), from the engine's labels."""
    try:
        return gettext(Level(level).label)
    except ValueError:
        return level


def socket_language(scope) -> str:
    """The language a socket's answers are rendered in, as LocaleMiddleware picks a page's:
    the footer's choice (the language cookie), else the browser's Accept-Language."""
    chosen = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    header = dict(scope.get("headers") or ()).get(b"accept-language", b"").decode("latin-1")
    for code in [chosen] + [code for code, _q in parse_accept_lang_header(header) if code != "*"]:
        try:
            if code:
                return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE

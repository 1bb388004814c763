"""Typed room actions, and the boundary parser for socket messages and form posts."""

import datetime as dt
import math
import zoneinfo
from dataclasses import dataclass
from typing import Protocol

from games.common.numbers import number_field
from games.common.zones import time_zones
from games.engines import race
from games.engines.errors import Malformed
from games.engines.sudoku import Level
from games.engines.text import _
from players.forms import DisplayNameForm


class Settings(Protocol):
    """A game type's host settings, as stored in Room.rules: race.Rules, or a duel's."""

    def to_dict(self) -> dict: ...


class MalformedMessage(Malformed):
    """The message itself is broken (not JSON, unknown action, bad field)."""


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Forfeit:
    pass


@dataclass(frozen=True)
class SetReady:
    ready: bool


@dataclass(frozen=True)
class SetRules:
    level: str | None  # None: a game type without difficulty keeps the room's
    rules: Settings
    rated: bool = True  # Showdown's Rated/Unrated toggle (stats/ratings.py), kept in Room.rules


@dataclass(frozen=True)
class Kick:
    """The host removes a seated player from the lobby."""

    player_id: int


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Sync:
    """No change requested: apply what time has made due (countdown over, limits)."""


@dataclass(frozen=True)
class Expire:
    reason: str


@dataclass(frozen=True)
class Coming:
    """A scheduled showdown's guest list: "I'm coming" (True) or "Not coming" (False), with
    the browser's time zone ("" when it sent none), in which reminders tell the time."""

    coming: bool
    zone: str = ""
    language: str = ""
    name: str = ""  # the display name a still unnamed guest picks with "I'm coming" ("" keeps it)


@dataclass(frozen=True)
class Remind:
    """A guest turns a reminder channel ("push" or "email") on or off."""

    channel: str
    on: bool


@dataclass(frozen=True)
class Reschedule:
    """The host moves a scheduled showdown (an aware UTC start, the host's IANA zone)."""

    scheduled_for: dt.datetime
    host_timezone: str


@dataclass(frozen=True)
class Cancel:
    """The host cancels a scheduled showdown."""


@dataclass(frozen=True)
class React:
    """A quick reaction (rooms/reactions.py): one of a few fixed words, never free text."""

    reaction: str


# Quick reactions (rooms/reactions.py): the key a client sends -> the words everyone reads.
REACTIONS = {"gg": _("GG"), "close": _("Close one!"), "rematch": _("Rematch?"), "nice": _("Nice one!")}


CHANNELS = ("push", "email")
LANGUAGE_CODES = ("en", "nl")  # settings.LANGUAGES (no Django here)


@dataclass(frozen=True)
class GameMove:
    """A board move, already parsed by the room's game type (GameType.parse: Showdown's
    entries, notes, hints, erases and submissions are games/sudoku/play.py's moves; the
    duels' are their own): the rooms know only that it is the game's."""

    move: object


@dataclass(frozen=True)
class Incoming:
    """A socket message, parsed once at the boundary (lila's Protocol.In): the typed action,
    its message id (a repeat is harmless) and the view hints its answer needs, the pad's
    mode and the cell the page had selected (the game type's reading, GameType.view_hints).
    The consumer builds it; the hub, a forward to another process (rooms/wire.py Act) and
    every answer or refusal read it, never the client's raw message again."""

    action: object
    message_id: str = ""
    mode: str = "enter"
    cell: int | None = None


LEVELS = tuple(level.value for level in Level)
MAX_ID = 64


def _int(value, name: str, low: int, high: int) -> int:
    return number_field(value, name, low, high, MalformedMessage)


def parse_level(data: dict) -> str:
    """The lobby settings' difficulty (every game type with a level)."""
    level = data.get("level")
    if level not in LEVELS:
        raise MalformedMessage(_("Difficulty must be easy, medium, hard or expert."))
    return level


def parse_rules(data: dict) -> SetRules:
    """Showdown's lobby settings: a difficulty and a preset, or custom rules."""
    level = parse_level(data)
    rating = data.get("rating") or "rated"  # absent (an older page): rated, the default
    if rating not in ("rated", "unrated"):
        raise MalformedMessage(_("Rating must be rated or unrated."))
    rated = rating == "rated"
    preset = data.get("preset") or "custom"
    if not isinstance(preset, str):
        raise MalformedMessage(_("Unknown rule preset."))
    if preset in race.PRESETS:
        return SetRules(level, race.PRESETS[preset], rated)
    if preset != "custom":
        raise MalformedMessage(_("Unknown rule preset."))
    notes = str(data.get("notes", "")).lower() in ("on", "true", "1", "yes")
    cap = data.get("mistake_cap") or "off"
    try:
        penalty = race.Penalty(data.get("penalty", "flat"))
    except ValueError:
        raise MalformedMessage(_("Penalty must be none, flat or progressive.")) from None
    try:
        feedback = race.Feedback(data.get("feedback", "immediate"))
    except ValueError:
        raise MalformedMessage(_("Feedback must be immediate or delayed.")) from None
    rules = race.Rules(
        notes=notes,
        hint_limit=_int(data.get("hint_limit", 3), "hint limit", 0, 5),
        penalty=penalty,
        mistake_cap=None if cap in ("off", "none", "") else _int(cap, "mistake cap", 3, 7),
        feedback=feedback,
        submissions=_int(data.get("submissions", race.DEFAULT_SUBMISSIONS), "submissions", 1, 5),
    )
    return SetRules(level, rules, rated)


def parse_schedule(date_text, zone_name) -> tuple[dt.datetime, str]:
    """A local date-time in a named zone -> an aware UTC datetime (the home page's form and
    the host's reschedule form). The zone's rules on that date decide the offset, so a
    showdown set in winter for a summer evening keeps its evening across the DST change."""
    if not isinstance(zone_name, str) or zone_name not in time_zones():
        raise MalformedMessage(_("Pick a time zone from the list."))
    try:
        local = dt.datetime.fromisoformat(str(date_text))
    except ValueError:
        raise MalformedMessage(_("Give the start as a date and a time.")) from None
    if local.tzinfo is not None:
        raise MalformedMessage(_("Give the start as a local date and time, with its time zone picked separately."))
    zone = zoneinfo.ZoneInfo(zone_name)
    moment = local.replace(tzinfo=zone).astimezone(dt.UTC)
    if moment.astimezone(zone).replace(tzinfo=None) != local:  # the hour the clocks skip
        raise MalformedMessage(
            _(
                "%(time)s does not exist in %(zone)s (the clocks go forward then): pick another time.",
                time=f"{local:%H:%M}",
                zone=zone_name,
            )
        )
    return moment, zone_name


def _scalar(value) -> bool:
    """Text, a whole or finite number, true/false or null."""
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int))  # a bool is an int


def parse_message(data, game) -> tuple[object, str]:
    """A socket message (dict from JSON) -> (typed action, message id). Room actions are
    common to every game type; anything else is a board move parsed by `game.parse`."""
    if not isinstance(data, dict):
        raise MalformedMessage(_("Messages must be JSON objects."))
    message_id = data.get("mid") or ""
    # Printable ASCII only: a NUL byte reached PostgreSQL (DataError) and broke the socket.
    if (
        not isinstance(message_id, str)
        or len(message_id) > MAX_ID
        or not (message_id.isascii() and message_id.isprintable())
    ):
        raise MalformedMessage(_("Bad message id."))
    action = data.get("action")
    if action is not None and not isinstance(action, str):  # {"action": []} crashed the socket
        raise MalformedMessage(_("Unknown action."))
    # Every field is a scalar before any parser reads it: a list or an object as a Domino
    # joker was unhashable, 1e400 (infinite) reached int(); both closed the socket 1011.
    # HEADERS is the object htmx's socket extension adds to every message (never read).
    if not all(_scalar(value) for name, value in data.items() if name != "HEADERS"):
        raise MalformedMessage(_("Each field of a message must be text or a number."))
    simple = {"join": Join, "leave": Leave, "forfeit": Forfeit, "start": Start, "sync": Sync}
    if action in simple:
        return simple[action](), message_id
    if action == "kick":  # {"action": "kick", "seat": <the seated player's id>}
        return Kick(_int(data.get("seat"), "seat", 1, 2**63 - 1)), message_id
    if action in ("ready", "unready"):
        return SetReady(action == "ready"), message_id
    if action == "rules":
        return game.parse_settings(data), message_id
    if action in ("coming", "not_coming"):
        zone = data.get("zone") or ""
        language = data.get("lang") or ""
        name = _guest_name(data) if action == "coming" else ""
        return Coming(
            action == "coming",
            zone if zone in time_zones() else "",
            language if language in LANGUAGE_CODES else "",
            name,
        ), message_id
    if action == "remind":  # {"action": "remind", "channel": "email", "on": "1"}
        channel = data.get("channel")
        if channel not in CHANNELS:
            raise MalformedMessage(_("Pick push or email reminders."))
        return Remind(channel, str(data.get("on", "")).lower() in ("on", "true", "1", "yes")), message_id
    if action == "reschedule":
        return Reschedule(*parse_schedule(data.get("scheduled_at", ""), data.get("timezone", ""))), message_id
    if action == "cancel":
        return Cancel(), message_id
    if action == "react":  # {"action": "react", "reaction": "gg"}
        reaction = data.get("reaction")
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise MalformedMessage(_("Unknown reaction: pick one of the reaction buttons."))
        return React(reaction), message_id
    return game.parse(data), message_id


def parse_incoming(data, game) -> Incoming:
    """A socket message (dict from JSON) -> the one typed message the room's path carries
    (or MalformedMessage)."""
    action, message_id = parse_message(data, game)
    return Incoming(action, message_id, *game.view_hints(data))


def _guest_name(data: dict) -> str:
    """The name sent with "I'm coming" by a guest still called "Player 1234", checked as the
    profile page checks it; a bad one refuses the whole message (nothing changes)."""
    if "display_name" not in data:
        return ""
    form = DisplayNameForm({"display_name": data["display_name"]})
    if not form.is_valid():
        raise MalformedMessage(form.errors["display_name"][0])
    return form.cleaned_data["display_name"]

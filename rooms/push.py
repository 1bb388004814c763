"""Who hears what: `room_event` is the one decision of what a change means for the room's
other sockets, for the live owner (rooms/hub.py Hub.publish) and the locked path
(`result_pushed`, after commit) alike. A push is one channel-layer message per process
that has sockets of the room (the process group), not one per socket: each process fans
it out to its own sockets (Hub.deliver). Standings are built once and shared by every
socket; a refresh makes each process render once per distinct viewer, coalescing bursts."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from . import wire
from .change import Audience
from .presenters import standings_context


def group_name(code: str) -> str:
    """The room's process group: every process with a socket of the room joins it once."""
    return f"room-{code}"


def standings_html(room, seats, languages=None) -> dict[str, str]:
    """The shared standings in `languages` (default: every language the site speaks): each
    socket takes its own."""
    rendered = {}
    for language in languages or [code for code, _name in settings.LANGUAGES]:
        with translation.override(language):
            rendered[language] = str(standings_context(room, seats)["standings_html"])
    return rendered


# Pushes of the locked path lost so far (Redis away): a hub that sees the count move
# resyncs its sockets once the layer answers again (ProcessChannel._memberships).
layer_failures = 0


def room_event(room, seats, result, languages=None) -> dict | None:
    """The push a change's audience gets (rules.apply decided who hears it): nothing, the
    shared standings, or a refresh of each view. `languages`: the standings are rendered in
    these only (the live owner names its sockets' languages: rendering every language for a
    room that reads one was a quarter of a move's CPU); by default in every language."""
    audience = result.change.audience
    if audience is Audience.STANDINGS:
        return {"type": "room.standings", "html": standings_html(room, seats, languages)}
    if audience is Audience.EVERY_VIEW:
        return {"type": "room.refresh"}
    return None  # nothing changed for anyone else (a pencil mark)


def result_pushed(room, seats, result) -> None:
    """The locked path's change, after commit, to everyone it concerns (room_event)."""
    event = room_event(room, seats, result)
    if event is not None:
        _send(room.code, event)


def push_room_update(code: str) -> None:
    """Every view of the room again (a view changed something outside the room's rules)."""
    _send(code, {"type": "room.refresh"})


def _send(code: str, event: dict) -> None:
    global layer_failures
    try:
        async_to_sync(get_channel_layer().group_send)(group_name(code), wire.encode(wire.Push(code, event)))
    except Exception:
        layer_failures += 1  # this process's sockets get the full state once the layer answers
        raise

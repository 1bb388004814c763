"""Quick reactions (issue 27): a few fixed words ("GG", "Close one!", "Rematch?") a seated
player sends during and after a race, shown to everyone in the room as a toast. No free
text, so nothing to moderate; a few per player per window (the cache's shared counters,
games/common/limits.py), so a room is never flooded.

A reaction changes nothing in the room: it is not a move, so it is neither the owner's nor
logged (a reload shows none). The consumer checks it here and sends it to the room's process
group as a push ({"type": "room.toast"}), which every process hands to its sockets
(rooms/hub.py deliver -> the consumer's live_event, rendered in each socket's language)."""

from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext

from games.common import limits as base
from games.common.i18n import say
from games.engines.text import _

from . import actions as A
from .fragments import colours
from .lifecycle import RUNNING
from .models import Room, Seat
from .result import RoomError

PER_WINDOW = 3  # reactions per player and room in each window
WINDOW_SECONDS = 10
OPEN = (*RUNNING, Room.State.FINISHED)  # during the race (from the countdown) and after it


def _key(code: str, player_id: int) -> str:
    return f"{base.prefix}:react:{code}:{player_id}"


def check(code: str, player) -> dict:
    """May `player` react in room `code` now? The toast's content ({name, colour, seat}) when
    they may; a RoomError saying why not otherwise (counted only when sent)."""
    room = Room.objects.filter(code=code).only("state").first()
    if room is None:
        raise RoomError(_("No room has that code. Check the code and try again."))
    seats = list(Seat.objects.filter(room=room).select_related("player"))
    seat = next((s for s in seats if s.player_id == player.pk), None)
    # Spectators never react (we decided this): up to 50 strangers could fill a race's screen.
    if seat is None:
        raise RoomError(_("Only the players in this room can send reactions."))
    if room.state not in OPEN:
        raise RoomError(_("Reactions open when the countdown starts."))
    key = _key(code, player.pk)
    if base.over(key, PER_WINDOW):
        raise RoomError(
            _("Easy on the reactions: %(n)s every %(seconds)s seconds at most.", n=PER_WINDOW, seconds=WINDOW_SECONDS)
        )
    base.count(key, WINDOW_SECONDS)
    return {"name": seat.player.display_name, "colour": colours(seats)[seat.pk], "seat": seat.pk}


def toast_html(toast: dict, reaction: str, language: str) -> str:
    """The toast as the htmx socket extension appends it to the room's #toasts."""
    with translation.override(language):
        words = say(A.REACTIONS[reaction])
        text = gettext("%(name)s: %(reaction)s") % {"name": toast["name"], "reaction": words}
    return format_html(
        '<div id="toasts" hx-swap-oob="beforeend"><div class="toast racer-c{}" data-reaction="{}">{}</div></div>',
        toast["colour"],
        reaction,
        text,
    )

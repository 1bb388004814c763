"""Every rendering of a socket's answer and of a room's push, in the viewer's language:
the consumer, the hub (rooms/hub.py) and the owner's forwarded answers all render here,
each from the parsed message's view hints (rooms/actions.py Incoming: the pad's mode and
the selected cell), never from the client's raw message."""

from __future__ import annotations

import functools

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.engines.errors import Refusal
from games.engines.text import _

from .fragments import message as message_line
from .lifecycle import RUNNING
from .models import RoomEvent
from .presenters import room_context
from .store import once_more_if_dropped, running_view

__all__ = [
    "answer_html",
    "forwarded_answer",
    "locked_answer",
    "logged_answer",
    "render_message",
    "render_view",
    "render_views",
    "slow_down",
]


def db(fn):
    """database_sync_to_async, made once more when the server dropped the connection."""
    return database_sync_to_async(once_more_if_dropped(fn))


def render_views(code, players: dict) -> dict:
    """A refresh of the room for several viewers ({(player pk, language): player}) from one
    load: one render per distinct view (a seat's own; spectators' differ only by their name)
    and language."""
    room, seats = running_view(code)
    if room is None:
        return {}
    seated = {seat.player_id for seat in seats}
    rendered, views = {}, {}
    for (pk, language), player in players.items():
        key = ("seat", pk, language) if pk in seated else ("watcher", player.display_name, language)
        if key not in rendered:
            with translation.override(language):
                rendered[key] = render_to_string("rooms/room.html#body", room_context(room, player, seats=seats))
        views[pk, language] = rendered[key]
    return views


def render_message(context: dict, language: str) -> str:
    with translation.override(language):
        return render_to_string("rooms/room.html#message", context)


def render_view(code, player, only_game, version, kwargs, room=None, seats=None, language=None) -> str:
    """This player's view of the room, in their language: the whole body, or only their own
    game plus the message line (an answer). Without `room`, the room as its rows and log say."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return _render_view(code, player, only_game, version, kwargs, room, seats)


def _render_view(code, player, only_game, version, kwargs, room, seats) -> str:
    if room is None:
        room, seats = running_view(code)
    if room is None:
        return ""
    context = room_context(room, player, seats=seats, with_standings=not only_game, **kwargs)
    if version is not None:
        context["version"] = version  # the version this reply answers (for resync checks)
    if only_game:
        return render_to_string("rooms/room.html#mygame", context) + render_to_string(
            "rooms/room.html#message", context
        )
    return render_to_string("rooms/room.html#body", context)


async def answer_html(owner, player, result, mode, cell, language) -> str:
    """The mover's answer from the live owner, in the mover's language: its own game after
    a board move, the state as it stands when nothing changed, nothing else (the room's
    pushes bring the rest)."""
    if result.duplicate:
        return ""
    if result.outcome is not None:
        seat = result.seat
        with translation.override(language):
            answer = (
                owner.game.move_answer(owner.room, seat, result.before_state, result.outcome, cell)
                if seat is not None and not result.change.room_changed
                else None
            )
        if answer is not None:
            return answer  # only what changed: built here, no template, no thread hop
        return await db(render_view)(
            owner.code,
            player,
            True,
            owner.room.version,
            {"outcome": result.outcome, "mode": mode},
            owner.room,
            owner.seats,
            language,
        )
    if not result.changed:
        return await db(render_view)(owner.code, player, False, None, {"mode": mode}, owner.room, owner.seats, language)
    return ""


def refusal_view(code, player, error: Refusal, mode: str, cell: int | None, language) -> str:
    """A refused message's answer: the mover's game as it stands (with the message's pad
    mode and selected cell) and the reason."""
    return render_view(
        code,
        player,
        False,
        None,
        {"error": str(error), "mode": mode, "selected": cell},
        None,
        None,
        language,
    )


def locked_answer(act, code, player, language, action, message_id, mode, cell) -> tuple[str, bool]:
    """Apply through `act` (the socket's: api.act; the hub's fallback: the locked path
    itself) and render the socket's answer in one trip to the sync thread; also says
    whether the room is running now."""

    def view(only_game, version, kwargs, room=None, seats=None):
        return render_view(code, player, only_game, version, kwargs, room, seats, language)

    with translation.override(language):
        try:
            result = act(code, player, action, message_id=message_id)
        except Refusal as error:
            return view(False, None, {"error": str(error), "mode": mode, "selected": cell}), False
        running = result.room is not None and result.room.state in RUNNING
        if result.outcome is not None:
            outcome = {"outcome": result.outcome, "mode": mode}
            return view(True, result.room.version, outcome, result.room, result.seats), running
        if not result.changed and not result.duplicate:
            # A sync, or nothing to do (leaving after being eliminated, readying twice): the
            # answer is the state as it stands, so every message gets one.
            return view(False, None, {"mode": mode}), running
        return "", running


async def forwarded_answer(
    owner, player, result, message_id: str, mode: str, cell=None, language: str | None = None
) -> str:
    """The answer to a forwarded message its first owner never answered, applied by this
    process after a takeover. A duplicate is answered too (a socket's own re-send is not):
    the first owner applied it, but its answer was lost with that process's Redis or with
    the process, and the mover is still waiting: it gets its game as of the logged version."""
    if not result.duplicate or not message_id or player is None:
        return await answer_html(owner, player, result, mode, cell, language)
    return await database_sync_to_async(logged_answer)(
        owner.code, player, message_id, mode, language, owner.room, owner.seats
    )


def logged_answer(code, player, message_id: str, mode: str, language, room=None, seats=None) -> str:
    """The answer to a message applied already whose answer was lost: the mover's game as
    of the version the log gave it ("" if the log has no such message)."""
    version = (
        RoomEvent.objects.filter(room__code=code, seat__player=player, message_id=message_id)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        return ""
    return render_view(code, player, True, version, {"mode": mode}, room, seats, language)


@functools.cache
def slow_down(language: str | None) -> str:
    """The refusal of a message over the rate, built once per language (no database, no thread)."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return str(message_line(error=_("Slow down: too many messages.")))

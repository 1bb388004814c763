"""The room socket: identifies the player by the profile cookie, resyncs on every
(re)connect, parses each message into a typed action and hands it to the room's live
owner (rooms/live.py) or, for a room not running, to the locked write path."""

import asyncio
import functools
import json
import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import IntegrityError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from config.database import TRY_AGAIN
from games.engines.errors import Malformed, Refusal
from games.engines.text import _

from . import actions as A
from . import limits, live
from .fragments import message as message_line
from .gametypes import GAME_TYPES
from .models import Room
from .presenters import room_context
from .push import group_name
from .services import normalize_code, perform, running_view

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 10  # sustained messages per second per socket
BURST = 20
PROFILE_RATE_PER_SECOND = 20  # and per player, over all their sockets in a process
PROFILE_BURST = 40
FLOOD_STRIKES = 20  # messages refused for rate before the socket is cut off
MAX_QUEUED = 16  # messages waiting for their turn; past this the socket is cut off
# Open sockets per process (a room's sockets normally share its owner's process);
# per client IP: settings.ROOM_SOCKETS_PER_IP.
MAX_SOCKETS_PER_PROFILE = 12
MAX_WATCHERS_PER_ROOM = 50
CLOSE_TOO_MANY = 4429
CLOSE_TRY_AGAIN = 4503  # the database was away twice in a row during the handshake


def db(fn):
    """database_sync_to_async, made once more when the server dropped the connection."""
    return database_sync_to_async(live.once_more_if_dropped(fn))


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


class RoomConsumer(AsyncWebsocketConsumer):
    language = settings.LANGUAGE_CODE  # until connect() reads the player's (socket_language)

    async def __call__(self, scope, receive, send):
        """Frames are taken off the connection as they arrive (a pump), counted against the
        socket's rate there and queued up to MAX_QUEUED: a client sending faster than its
        messages are handled is cut off, instead of growing a queue that slows every room."""
        inbox: asyncio.Queue = asyncio.Queue()
        pump = asyncio.ensure_future(self._pump(receive, send, inbox))
        try:
            await super().__call__(scope, inbox.get, send)
        finally:
            pump.cancel()
            if hasattr(self, "group"):  # a consumer that died (Redis away) never got disconnect()
                await live.hub().detach(self)

    @property
    def channel_receive(self):
        return self._channel_receive

    @channel_receive.setter
    def channel_receive(self, receive):
        """The socket's own channel (answers forwarded from another process), read so that
        a channel layer that went away (Redis unreachable) leaves the socket open: channels
        would end the consumer, closing every socket of the process with 1011."""

        async def patiently():
            while True:
                try:
                    return await receive()
                except Exception:  # Redis away: wait for it, the socket stays
                    logger.warning("socket channel read failed", exc_info=True)
                    await asyncio.sleep(1)

        self._channel_receive = patiently

    async def _pump(self, receive, send, inbox) -> None:
        tokens, last, strikes = float(BURST), time.monotonic(), 0
        while True:
            message = await receive()
            if message["type"] == "websocket.receive":
                now = time.monotonic()
                tokens, last = min(BURST, tokens + (now - last) * RATE_PER_SECOND), now
                player = getattr(self, "player", None)
                shared = live.hub().bucket(player.pk) if player is not None else None
                if tokens < 1 or inbox.qsize() >= MAX_QUEUED or (shared is not None and not shared.take(now)):
                    strikes += 1
                    if strikes >= FLOOD_STRIKES or inbox.qsize() >= MAX_QUEUED:
                        await send({"type": "websocket.close", "code": CLOSE_TOO_MANY})
                        while not inbox.empty():  # what it queued is dropped with it, not worked off
                            inbox.get_nowait()
                        await inbox.put({"type": "websocket.disconnect", "code": CLOSE_TOO_MANY})
                        return
                    await send({"type": "websocket.send", "text": slow_down(getattr(self, "language", None))})
                    continue
                tokens -= 1
            await inbox.put(message)
            if message["type"] == "websocket.disconnect":
                return

    async def connect(self):
        self.player = self.scope.get("player")
        self.language = socket_language(self.scope)  # every answer and push is rendered in it
        self.code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        if self.player is None:
            await self.close(code=4401)  # no profile cookie: no identity
            return
        ip = limits.client_ip(self.scope)
        if not await limits.alookup_allowed(ip, self.player, self.code):
            await self.close(code=CLOSE_TOO_MANY)  # this network guessed too many codes
            return
        try:
            game_key = await db(lambda: Room.objects.filter(code=self.code).values_list("game", flat=True).first())()
        except live.CONNECTION_LOST:
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        if game_key is None:
            await limits.acount_miss(ip)
            await self.close(code=4404)
            return
        if not live.hub().admit(self, ip):
            await self.close(code=CLOSE_TOO_MANY)  # too many sockets of one player or network
            return
        self.game = GAME_TYPES[game_key]
        self.group = group_name(self.code)
        self.awaiting = {}  # forwarded messages' tokens -> answered (rooms/live.py)
        await self.accept()
        try:
            await live.hub().attach(self)  # a running room gets its owner now, not on the first move
            await self.send_full()  # resync: the first push is always the full current state
        except live.CONNECTION_LOST:
            await self.send_error(TRY_AGAIN)  # the socket stays; the next message resyncs it

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await live.hub().detach(self)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error(_("That message is too large or not text."))
            return
        try:
            data = json.loads(text_data)
            action, message_id = A.parse_message(data, self.game)
        except ValueError as error:  # Malformed is a ValueError too
            message = str(error) if isinstance(error, Malformed) else _("Messages must be JSON.")
            await self.send_error(message)
            return
        mode = self.mode_of(data)
        self.last_data = data
        try:
            await self._receive(action, message_id, mode, data)
        except live.CONNECTION_LOST:
            await self.send_error(TRY_AGAIN)  # only the message in flight: the socket stays open
        except IntegrityError:
            # The locked path lost a race for the log's next version with a live owner it could
            # not see (Redis away): nothing was applied.
            await self.send_error("Another move came first: please try again.")

    async def _receive(self, action, message_id, mode, data):
        try:
            result = await live.hub().act(self, action, message_id)
        except Refusal as error:
            html = await db(self._render)(False, None, {"error": str(error), "mode": mode, "selected": _cell(data)})
        else:
            if isinstance(result, live.Forwarded):
                return  # the owner's answer comes to this socket's channel (live_answer)
            if result is None:  # no live owner: the locked path
                html, running = await db(self._act)(action, message_id, mode, _cell(data))
                if running:  # a countdown just began (or a process restarted): own it from now on
                    await live.hub().owner(self.code, load=True)
            else:
                html = await answer_html(result.live, self.player, result, mode, _cell(data), self.language)
        if html:
            await self.send(text_data=html)
        # Other changes reach this socket through the room's pushes.

    def _act(self, action, message_id, mode, cell) -> tuple[str, bool]:
        """Apply through the locked write path and render this socket's answer in one
        trip to the sync thread; also says whether the room is running now."""
        with translation.override(self.language):
            return self._act_in_language(action, message_id, mode, cell)

    def _act_in_language(self, action, message_id, mode, cell) -> tuple[str, bool]:
        try:
            result = perform(self.code, self.player, action, message_id=message_id)
        except Refusal as error:
            return self._render(False, None, {"error": str(error), "mode": mode, "selected": cell}), False
        running = result.room is not None and result.room.state in live.RUNNING
        if result.outcome is not None:
            return self._render(
                True,
                result.room.version,
                {"outcome": result.outcome, "mode": mode},
                room=result.room,
                seats=result.seats,
            ), running
        if not result.changed and not result.duplicate:
            # A sync, or nothing to do (leaving after being eliminated, readying twice): the
            # answer is the state as it stands, so every message gets one.
            return self._render(False, None, {"mode": mode}), running
        return "", running

    async def send_error(self, message: str):
        html = await database_sync_to_async(render_message)({"error": message}, self.language)
        await self.send(text_data=html)

    async def send_full(self, only_game=False, version=None, **kwargs):
        html = await db(self._render)(only_game, version, kwargs)
        if html:
            await self.send(text_data=html)

    def _render(self, only_game, version, kwargs, room=None, seats=None):
        return render_view(self.code, self.player, only_game, version, kwargs, room, seats, self.language)

    # pushes -----------------------------------------------------------------------------
    async def live_event(self, event):
        """A push from the room's owner in this process (or relayed from another)."""
        if event["type"] == "room.standings":  # rendered once per language (rooms/push.py)
            await self.send(text_data=event["html"].get(self.language) or event["html"][settings.LANGUAGE_CODE])
        else:
            await self.send_full()

    @staticmethod
    def mode_of(data) -> str:
        return "note" if data.get("mode") == "note" else "enter"

    async def live_answer(self, event):
        """The answer to a message this socket forwarded to the room's owner elsewhere."""
        answered = self.awaiting.get(event.get("token"))
        if answered is None:
            return  # answered already (by a new owner after a takeover) or given up on
        answered.set()
        if event.get("html"):
            await self.send(text_data=event["html"])


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
                if seat is not None and not result.room_changed
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


@functools.cache
def slow_down(language: str | None) -> str:
    """The refusal of a message over the rate, built once per language (no database, no thread)."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return str(message_line(error=_("Slow down: too many messages.")))


def _cell(data):
    try:
        cell = int(data.get("cell"))
        return cell if 0 <= cell < 81 else None
    except (TypeError, ValueError, AttributeError):
        return None

"""The room socket: identifies the player by the profile cookie, resyncs on every
(re)connect, parses each message once into one typed message (rooms/actions.py Incoming:
the action, its id, the view hints its answer needs) and hands it to the room's live
owner (rooms/hub.py) or, for a room not running, to the locked write path. Its answers
are rendered in rooms/answers.py; nothing imports this module but the routing."""

import asyncio
import json
import logging
import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError
from redis.exceptions import RedisError

from config.database import TRY_AGAIN
from games.common.i18n import socket_language
from games.common.limits import TokenBucket
from games.engines.errors import Malformed, Refusal
from games.engines.text import _
from players.middleware import claim, profile_group

from . import actions as A
from . import api, hub, limits, reactions, wire
from .answers import answer_html, db, locked_answer, refusal_view, render_message, render_view, slow_down
from .gametypes import GAME_TYPES
from .models import Room, Seat
from .push import group_name
from .rules import as_seated, normalize_code
from .store import CONNECTION_LOST

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
# A socket's message rate and burst: settings.ROOM_SOCKET_RATE and ROOM_SOCKET_BURST.
# Per player over all their sockets in a process, and open sockets per process: the
# hub's (rooms/hub.py bucket, MAX_SOCKETS_PER_PROFILE, ...).
FLOOD_STRIKES = 20  # messages refused for rate before the socket is cut off
MAX_QUEUED = 16  # messages waiting for their turn; past this the socket is cut off
# Close codes the page (static/js/room-socket.js) reads: "not allowed" stays closed, "try
# later" reconnects after a wait. Sent after the accept (RoomConsumer.refuse, limits.refuse).
CLOSE_NO_PROFILE = limits.CLOSE_NO_PROFILE
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = limits.CLOSE_TOO_MANY
CLOSE_TRY_AGAIN = 4503  # the database was away twice in a row during the handshake


def not_json(constant: str):
    """NaN, Infinity and -Infinity are Python's extensions, not JSON: refused as such."""
    raise ValueError(f"{constant} is not JSON")


def is_sync(text) -> bool:
    """Is this frame a resync request ({"action": "sync"})? Looked at before the frame is
    queued, so that resyncs waiting together are answered once."""
    if not isinstance(text, str) or '"sync"' not in text or len(text) > MAX_MESSAGE_BYTES:
        return False
    try:
        data = json.loads(text, parse_constant=not_json)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("action") == "sync"


class RoomConsumer(AsyncWebsocketConsumer):
    language = settings.LANGUAGE_CODE  # until connect() reads the player's (socket_language)
    sync_queued = False  # a resync waits in the inbox: another one before it is taken adds nothing
    signed_out_heard = True  # in the sign-out group; connect() sets it (False: Redis was away)
    refused = False  # refuse() accepted only to close with a code: what arrives meanwhile is dropped

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
                await hub.current().detach(self)

    async def dispatch(self, message):
        """channels' dispatch without its `aclose_old_connections()` before every message: a
        thread hop per frame (3.6% of a process's CPU under bench/realtime.py), for a
        consumer whose every database call goes through database_sync_to_async or the
        hub's run_db, which close old connections themselves."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

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
        own, strikes = TokenBucket(settings.ROOM_SOCKET_RATE, settings.ROOM_SOCKET_BURST), 0
        while True:
            message = await receive()
            if message["type"] == "websocket.receive":
                now = time.monotonic()
                player = getattr(self, "player", None)
                shared = hub.current().bucket(player.pk) if player is not None else None
                # the player's shared allowance is charged only once the socket's own has a token
                if not own.has(now) or inbox.qsize() >= MAX_QUEUED or (shared is not None and not shared.take(now)):
                    strikes += 1
                    if strikes >= FLOOD_STRIKES or inbox.qsize() >= MAX_QUEUED:
                        await send({"type": "websocket.close", "code": CLOSE_TOO_MANY})
                        while not inbox.empty():  # what it queued is dropped with it, not worked off
                            inbox.get_nowait()
                        await inbox.put({"type": "websocket.disconnect", "code": CLOSE_TOO_MANY})
                        return
                    await send({"type": "websocket.send", "text": slow_down(getattr(self, "language", None))})
                    continue
                own.spend()
                if is_sync(message.get("text")):
                    if self.sync_queued:
                        continue  # the resync already waiting answers this one too
                    self.sync_queued = message["queued_sync"] = True
            await inbox.put(message)
            if message["type"] == "websocket.disconnect":
                return

    async def connect(self):
        # This browser's profile (its sign-out closes the socket); self.player becomes the
        # profile it plays as in this room.
        self.browser = self.player = self.scope.get("player")
        self.language = socket_language(self.scope)  # every answer and push is rendered in it
        self.code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        pending = self.scope.get("pending_token")  # a room page's cookie, its profile not made yet
        if self.player is None and pending is None:
            await self.refuse(CLOSE_NO_PROFILE)  # no profile cookie: no identity
            return
        ip = limits.client_ip(self.scope)
        # The connect budget was charged before the player lookup (limits.ConnectBudget).
        self.budget_key = self.scope.get("budget_key") or (pending or self.player.token)
        if not await limits.alookup_allowed(ip, self.player, self.code):
            await self.refuse(CLOSE_TOO_MANY)  # this network guessed too many codes
            return
        try:
            game_key, seated = await db(self._room_and_seat)()
        except CONNECTION_LOST:
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        if game_key is None:
            await limits.acount_miss(ip)
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if self.player is None:  # opening a real room's socket, past its budgets: a real action
            self.browser = self.player = await db(claim)(pending, self.scope.get("pending_name"))
        if not hub.current().admit(self.player, self.code, ip, seated):
            await self.refuse(CLOSE_TOO_MANY)  # too many sockets of one player or network
            return
        self.ip, self.seated = ip, seated  # the hub counts a network's sockets and the watchers
        self.game = GAME_TYPES[game_key]
        self.group = group_name(self.code)
        self.awaiting = {}  # forwarded messages' tokens -> answered (rooms/hub.py)
        await self.accept()
        self.signed_out_heard = await self._profile_group("add")
        try:
            await hub.current().attach(self)  # a running room gets its owner now, not on the first move
            await self.send_full()  # resync: the first push is always the full current state
        except CONNECTION_LOST:
            await self.send_error(TRY_AGAIN)  # the socket stays; the next message resyncs it

    async def refuse(self, code: int):
        """Accept, then close with `code`: daphne turns a close before the accept into HTTP
        403, which a browser reads as 1006 whatever the code, so the page could not tell
        "try later" (4429, 4503: static/js/room.js reconnects after a wait) from "not
        allowed" (4401, 4404: it says so and stays closed). Nothing is rendered."""
        self.refused = True
        await self.accept()
        await limits.hold(code)
        await self.close(code=code)

    def _room_and_seat(self) -> tuple[str | None, bool]:
        """The room's game type (None: no such room) and whether this player sits in it. A
        signed-in player plays as the profile their account has in the room, whichever browser
        this is (as_seated): one seat, one stream of message ids."""
        game = Room.objects.filter(code=self.code).values_list("game", flat=True).first()
        if game is None:
            return None, False
        self.player = as_seated(self.code, self.player)
        return game, Seat.objects.filter(room__code=self.code, player=self.player).exists()

    async def _profile_group(self, op: str) -> bool:
        """Join (or leave) the group that signing out in this browser closes (accounts/linking.py).
        With Redis away it fails like every layer call, and the socket stays: the join is tried
        again before its next message is acted on."""
        method = self.channel_layer.group_add if op == "add" else self.channel_layer.group_discard
        try:
            await method(profile_group(self.browser.pk), self.channel_name)
        except (RedisError, OSError):  # Redis away (redis's ConnectionError is not the builtin one)
            return False
        return True

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self._profile_group("discard")
            await hub.current().detach(self)

    async def player_signed_out(self, event):
        await self.close(code=CLOSE_NO_PROFILE)  # the browser signed out: its profile is no longer its own

    async def websocket_receive(self, message):
        if message.get("queued_sync"):
            self.sync_queued = False  # taken: a resync from now on may see a newer state
        await super().websocket_receive(message)

    async def receive(self, text_data=None, bytes_data=None):
        if self.refused:
            return  # sent during a refusal's hold: this socket has no room to act in, it is closing
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error(_("That message is too large or not text."))
            return
        try:
            incoming = A.parse_incoming(json.loads(text_data, parse_constant=not_json), self.game)
        except ValueError as error:  # Malformed is a ValueError too
            message = str(error) if isinstance(error, Malformed) else _("Messages must be JSON.")
            await self.send_error(message)
            return
        if not self.signed_out_heard:
            self.signed_out_heard = await self._profile_group("add")
        if isinstance(incoming.action, A.Sync) and not await limits.aconnect_allowed(self.ip, self.budget_key):
            await self.send(text_data=slow_down(self.language))  # a resync renders it all: budgeted
            return
        try:
            await self._receive(incoming)
        except CONNECTION_LOST:
            await self.send_error(TRY_AGAIN)  # only the message in flight: the socket stays open
        except IntegrityError:
            # The locked path lost a race for the log's next version with a live owner it could
            # not see (Redis away): nothing was applied.
            await self.send_error("Another move came first: please try again.")

    async def _receive(self, incoming: A.Incoming):
        action, mode, cell = incoming.action, incoming.mode, incoming.cell
        if isinstance(action, A.React):
            await self._react(action)
            return
        try:
            result = await hub.current().act(self, incoming)
        except Refusal as error:
            html = await db(refusal_view)(self.code, self.player, error, mode, cell, self.language)
        else:
            if isinstance(result, hub.Forwarded):
                return  # the owner's answer comes to this socket's channel (live_answer)
            if result is None:  # no live owner: the locked path
                html, running = await db(locked_answer)(
                    api.act, self.code, self.player, self.language, action, incoming.message_id, mode, cell
                )
                if running:  # a countdown just began (or a process restarted): own it from now on
                    await hub.current().owner(self.code, load=True)
            else:
                html = await answer_html(result.live, self.player, result, mode, cell, self.language)
        if html:
            await (self.send_state(html, "answer") if isinstance(action, A.Sync) else self.send(text_data=html))
        # Other changes reach this socket through the room's pushes.

    async def _react(self, action) -> None:
        """A quick reaction (rooms/reactions.py): not a move, so not the owner's. Checked, then
        pushed to the room's process group for everyone else; the sender's own toast is the answer."""
        try:
            toast = await db(reactions.check)(self.code, self.player)
        except Refusal as error:
            await self.send_error(str(error))
            return
        sender = getattr(self, "channel_name", "")
        event = {"type": "room.toast", "toast": toast, "reaction": action.reaction, "from": sender}
        try:
            await get_channel_layer().group_send(self.group, wire.encode(wire.Push(self.code, event)))
        except Exception:  # the layer is away: nobody else would see it
            logger.warning("reaction push failed", exc_info=True)
            await self.send_error(_("Your reaction did not reach the room: please try again."))
            return
        await self.send(text_data=reactions.toast_html(toast, action.reaction, self.language))

    async def send_error(self, message: str):
        html = await database_sync_to_async(render_message)({"error": message}, self.language)
        await self.send(text_data=html)

    async def send_full(self, only_game=False, version=None, **kwargs):
        html = await db(self._render)(only_game, version, kwargs)
        if html:
            await (self.send(text_data=html) if only_game else self.send_state(html))

    async def send_state(self, html: str, kind: str = "state"):
        """A full state, marked for daphne (config/sockets.py): the answer to the client's own
        resync request ("answer") is dropped while a full state sent before it is still
        waiting for the client (that one and the pushes after it bring it up to date); a
        connect's or a push's full state ("state") always goes."""
        await self.base_send({"type": "websocket.send", "text": html, "resync": kind})

    def _render(self, only_game, version, kwargs, room=None, seats=None):
        return render_view(self.code, self.player, only_game, version, kwargs, room, seats, self.language)

    # pushes -----------------------------------------------------------------------------
    async def live_event(self, event):
        """A push from the room's owner in this process (or relayed from another)."""
        if event["type"] == "room.toast":  # a reaction (rooms/reactions.py); its sender has its own
            if event.get("from") != getattr(self, "channel_name", None):
                await self.send(text_data=reactions.toast_html(event["toast"], event["reaction"], self.language))
        elif event["type"] == "room.standings":  # rendered once per language (rooms/push.py)
            rendered = event["html"]  # the owner renders its sockets' languages: one is always here
            await self.send(text_data=rendered.get(self.language) or next(iter(rendered.values())))
        else:
            await self.send_full()

    async def live_answer(self, event):
        """The answer to a message this socket forwarded to the room's owner elsewhere."""
        answered = self.awaiting.get(event.get("token"))
        if answered is None:
            return  # answered already (by a new owner after a takeover) or given up on
        answered.set()
        if event.get("html"):
            await self.send(text_data=event["html"])

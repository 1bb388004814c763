"""The room socket: identifies the player by the profile cookie, resyncs on every
(re)connect, parses each message into a typed action and hands it to the room's live
owner (rooms/live.py) or, for a room not running, to the locked write path."""

import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.engines import race

from . import actions as A
from . import live
from .gametypes import GAME_TYPES
from .models import Room
from .presenters import room_context
from .push import group_name
from .services import normalize_code, perform, running_view

MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 10  # sustained messages per second per socket
BURST = 20
FLOOD_STRIKES = 20  # messages refused for rate before the socket is cut off


class RoomConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.player = self.scope.get("player")
        self.code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        if self.player is None:
            await self.close(code=4401)  # no profile cookie: no identity
            return
        game_key = await database_sync_to_async(
            lambda: Room.objects.filter(code=self.code).values_list("game", flat=True).first())()
        if game_key is None:
            await self.close(code=4404)
            return
        self.game = GAME_TYPES[game_key]
        self.group = group_name(self.code)
        self.tokens, self.last, self.strikes = float(BURST), time.monotonic(), 0
        self.awaiting = {}  # forwarded messages' tokens -> answered (rooms/live.py)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await live.hub().attach(self)  # a running room gets its owner now, not on the first move
        await self.send_full()  # resync: the first push is always the full current state

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await live.hub().detach(self)

    def _allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE_PER_SECOND)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    async def receive(self, text_data=None, bytes_data=None):
        if not self._allow():
            self.strikes += 1
            if self.strikes >= FLOOD_STRIKES:
                await self.close(code=4429)
                return
            await self.send_error("Slow down: too many messages.")
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error("That message is too large or not text.")
            return
        try:
            data = json.loads(text_data)
            action, message_id = A.parse_message(data, self.game)
        except (ValueError, race.MalformedMove) as error:
            message = str(error) if isinstance(error, race.MalformedMove) else "Messages must be JSON."
            await self.send_error(message)
            return
        mode = self.mode_of(data)
        self.last_data = data
        try:
            result = await live.hub().act(self, action, message_id)
        except race.MoveError as error:
            html = await database_sync_to_async(self._render)(False, None, {"error": str(error), "mode": mode,
                                                                            "selected": _cell(data)})
        else:
            if isinstance(result, live.Forwarded):
                return  # the owner's answer comes to this socket's channel (live_answer)
            if result is None:  # no live owner: the locked path
                html, running = await database_sync_to_async(self._act)(action, message_id, mode, _cell(data))
                if running:  # a countdown just began (or a process restarted): own it from now on
                    await live.hub().owner(self.code, load=True)
            else:
                html = await answer_html(result.live, self.player, result, mode, _cell(data))
        if html:
            await self.send(text_data=html)
        # Other changes reach this socket through the room's pushes.

    def _act(self, action, message_id, mode, cell) -> tuple[str, bool]:
        """Apply through the locked write path and render this socket's answer in one
        trip to the sync thread; also says whether the room is running now."""
        try:
            result = perform(self.code, self.player, action, message_id=message_id)
        except race.MoveError as error:
            return self._render(False, None, {"error": str(error), "mode": mode, "selected": cell}), False
        running = result.room is not None and result.room.state in live.RUNNING
        if result.outcome is not None:
            return self._render(True, result.room.version, {"outcome": result.outcome, "mode": mode},
                                room=result.room, seats=result.seats), running
        if not result.changed and not result.duplicate:
            # A sync, or nothing to do (leaving after being eliminated, readying twice): the
            # answer is the state as it stands, so every message gets one.
            return self._render(False, None, {"mode": mode}), running
        return "", running

    async def send_error(self, message: str):
        html = await database_sync_to_async(render_to_string)("rooms/room.html#message", {"error": message})
        await self.send(text_data=html)

    async def send_full(self, only_game=False, version=None, **kwargs):
        html = await database_sync_to_async(self._render)(only_game, version, kwargs)
        if html:
            await self.send(text_data=html)

    def _render(self, only_game, version, kwargs, room=None, seats=None):
        return render_view(self.code, self.player, only_game, version, kwargs, room, seats)

    # pushes -----------------------------------------------------------------------------
    async def live_event(self, event):
        """A push from the room's owner in this process (or relayed from another)."""
        if event["type"] == "room.standings":
            await self.send(text_data=event["html"])
        else:
            await self.send_full()

    @staticmethod
    def mode_of(data) -> str:
        return "note" if data.get("mode") == "note" else "enter"

    async def live_answer(self, event):
        """The answer to a message this socket forwarded to the room's owner elsewhere."""
        answered = self.awaiting.get(event.get("token"))
        if answered is not None:
            answered.set()
        if event.get("html"):
            await self.send(text_data=event["html"])

    async def live_hello(self, event):
        """A new owner of this room announced itself (sent to the room's group)."""
        await live.hub().hello(self.code, event["channel"])

    async def room_refresh(self, event):
        await self.send_full()

    async def room_standings(self, event):
        await self.send(text_data=event["html"])


def render_view(code, player, only_game, version, kwargs, room=None, seats=None) -> str:
    """This player's view of the room: the whole body, or only their own game plus the
    message line (an answer). Without `room`, the room as its rows and log say."""
    if room is None:
        room, seats = running_view(code)
    if room is None:
        return ""
    context = room_context(room, player, seats=seats, with_standings=not only_game, **kwargs)
    if version is not None:
        context["version"] = version  # the version this reply answers (for resync checks)
    if only_game:
        return render_to_string("rooms/room.html#mygame", context) + render_to_string(
            "rooms/room.html#message", context)
    return render_to_string("rooms/room.html#body", context)


async def answer_html(owner, player, result, mode, cell) -> str:
    """The mover's answer from the live owner: its own game after a board move, the state
    as it stands when nothing changed, nothing else (the room's pushes bring the rest)."""
    if result.duplicate:
        return ""
    if result.outcome is not None:
        seat = result.seat
        answer = owner.game.move_answer(owner.room, seat, getattr(result, "before_state", None), result.outcome,
                                        cell) if seat is not None and not result.room_changed else None
        if answer is not None:
            return answer  # only what changed: built here, no template, no thread hop
        return await database_sync_to_async(render_view)(
            owner.code, player, True, owner.room.version, {"outcome": result.outcome, "mode": mode},
            owner.room, owner.seats)
    if not result.changed:
        return await database_sync_to_async(render_view)(owner.code, player, False, None, {"mode": mode},
                                                         owner.room, owner.seats)
    return ""


def _cell(data):
    try:
        cell = int(data.get("cell"))
        return cell if 0 <= cell < 81 else None
    except (TypeError, ValueError, AttributeError):
        return None

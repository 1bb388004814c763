"""The room socket: identifies the player by the profile cookie, resyncs on every
(re)connect, parses each message into a typed action and hands it to the write path."""

import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.engines import race

from . import actions as A
from .gametypes import GAME_TYPES
from .models import Room
from .presenters import room_context
from .push import group_name
from .services import normalize_code, perform

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
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_full()  # resync: the first push is always the full current state

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

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
        mode = "note" if isinstance(data, dict) and data.get("mode") == "note" else "enter"
        html = await database_sync_to_async(self._act)(action, message_id, mode, _cell(data))
        if html:
            await self.send(text_data=html)
        # Other changes reach this socket through the group refresh.

    def _act(self, action, message_id, mode, cell) -> str:
        """Apply through the write path and render this socket's answer in one trip to
        the sync thread; a board move's answer reuses the room and seats just saved."""
        try:
            result = perform(self.code, self.player, action, message_id=message_id)
        except race.MoveError as error:
            return self._render(False, None, {"error": str(error), "mode": mode, "selected": cell})
        if result.outcome is not None:
            return self._render(True, result.room.version, {"outcome": result.outcome, "mode": mode},
                                room=result.room, seats=result.seats)
        if not result.changed and not result.duplicate:
            # A sync, or nothing to do (leaving after being eliminated, readying twice): the
            # answer is the state as it stands, so every message gets one.
            return self._render(False, None, {"mode": mode})
        return ""

    async def send_error(self, message: str):
        html = await database_sync_to_async(render_to_string)("rooms/room.html#message", {"error": message})
        await self.send(text_data=html)

    async def send_full(self, only_game=False, version=None, **kwargs):
        html = await database_sync_to_async(self._render)(only_game, version, kwargs)
        if html:
            await self.send(text_data=html)

    def _render(self, only_game, version, kwargs, room=None, seats=None):
        if room is None:
            room = Room.objects.filter(code=self.code).select_related("puzzle", "host").first()
        if room is None:
            return ""
        context = room_context(room, self.player, seats=seats, with_standings=not only_game, **kwargs)
        if version is not None:
            context["version"] = version  # the version this reply answers (for resync checks)
        if only_game:
            return render_to_string("rooms/room.html#mygame", context) + render_to_string(
                "rooms/room.html#message", context)
        return render_to_string("rooms/room.html#body", context)

    async def room_refresh(self, event):
        await self.send_full()

    async def room_standings(self, event):
        await self.send(text_data=event["html"])


def _cell(data):
    try:
        cell = int(data.get("cell"))
        return cell if 0 <= cell < 81 else None
    except (TypeError, ValueError, AttributeError):
        return None

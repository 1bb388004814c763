"""The signed-in player's own socket, opened by every page (templates/base.html): it says what
the page is (friends/presence.py) and receives what concerns the player, as htmx out-of-band
fragments: the bell's count with a toast for a new notification, and the friends-online
panel when a friend's presence changes. It reads nothing from the client."""

import asyncio
import contextlib
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import IntegrityError
from django.template.loader import render_to_string
from django.utils import translation

from arenas import pages as arena_pages
from arenas import signals as arena_signals
from arenas.seats import seated_room
from arenas.table import frame as table_frame
from games.common.i18n import socket_language
from games.common.threads import off_sync_thread as db

from . import presence
from .graph import people
from .models import Notification
from .notices import text, unread

CLOSE_SIGNED_OUT = 4401
PENDING: set[asyncio.Task] = set()


class MeConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        session = self.scope.get("session")
        raw = await db(session.get)(SESSION_KEY) if session is not None else None  # loads the session row
        if not raw or not str(raw).isdigit():
            await self.accept()
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        what, where = presence.read_token((query.get("at") or [""])[0])
        try:
            await db(presence.arrive)(self.channel_name, int(raw), what, where)
        except IntegrityError:
            # The account was deleted in another browser, whose sessions here live on: closed
            # as signed out, for good (an error close made the page reconnect over and over).
            await self.accept()
            await self.close(code=CLOSE_SIGNED_OUT)
            return
        self.account_id = int(raw)
        self.language = socket_language(self.scope)
        self.panel = query.get("panel") == ["1"]  # a page with the friends-online panel
        self.invite_room = where if what == "room" else ""  # a lobby's panel offers invites to it
        self.arena = where if what == "arena" else ""  # an arena's page: its table is pushed here
        self.table_shown = 0  # the table version this page shows (the page's own is older or equal)
        await self.channel_layer.group_add(presence.group(self.account_id), self.channel_name)
        await self.accept()
        if self.arena:
            arena_signals.page_opened.send(sender=None, code=self.arena)  # ticked while open
            await arena_pages.open_page(self)  # the table and its seat are pushed here from now on
            self.watching = True
            room = await db(seated_room)(self.arena, self.account_id)
            if room:  # seated before this socket listened: the push came and went
                await self.arena_seated({"room": room})
        await db(presence.changed)(self.account_id)
        await self.send(text_data=await db(self._render)("notified"))  # the bell's count
        if self.panel:  # the page's panel, filled here: a page view costs the panel nothing
            await self.send(text_data=await db(self._render)("panel"))
        self.beat = asyncio.ensure_future(self._heartbeat())

    async def _heartbeat(self):
        """Keep this page's row fresh: a row nobody refreshes (its process died) goes stale."""
        while True:
            await asyncio.sleep(settings.PRESENCE_STALE_SECONDS / 3)
            await db(presence.refresh)(self.channel_name)

    async def disconnect(self, code):
        if not hasattr(self, "account_id"):
            return
        if hasattr(self, "beat"):  # closed before its connect finished
            self.beat.cancel()
        await self.channel_layer.group_discard(presence.group(self.account_id), self.channel_name)
        if getattr(self, "watching", False):
            arena_signals.page_closed.send(sender=None, code=self.arena)
        if self.arena:
            await arena_pages.close_page(self)
        await db(presence.leave)(self.channel_name)
        # A navigation closes one page's socket and opens the next one's a moment later: wait
        # for it before telling friends this player went offline.
        task = asyncio.ensure_future(self._later(self.account_id))
        PENDING.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(PENDING.discard)

    @staticmethod
    async def _later(account_id: int):
        await asyncio.sleep(settings.PRESENCE_LEAVE_GRACE_SECONDS)
        with contextlib.suppress(Exception):  # nobody waits for it: a failure only skips one push
            await db(presence.changed)(account_id)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the page sends nothing here; what a client sends is ignored

    async def friends_changed(self, event):
        if self.panel:  # a page without the panel has nothing to swap it into
            await self.send(text_data=await db(self._render)("panel"))

    async def arena_table(self, event):
        """The arena's table changed: this viewer's rows (their own place among them). Pushes
        come once per arena tick at most; the process ranks and renders the top once per
        version (arenas/table.py frame), each page only its own rows, in the loop."""
        version = int(event.get("version") or 0)
        if version and version <= self.table_shown:
            return  # this page already shows it, or a later one
        html, shown = await table_frame(self.arena, version, self.language, self.account_id)
        if html and shown > self.table_shown:
            self.table_shown = shown
            await self.send(text_data=html)

    async def arena_seated(self, event):
        """The arena's tick seated this player: the page goes to the room (it asks the arena's
        status once, which sends it there, as a full page load would)."""
        with translation.override(self.language):
            context = {"code": self.arena, "room": event.get("room", "")}
            await self.send(text_data=render_to_string("arenas/arena.html#seated", context))

    async def me_notified(self, event):
        await self.send(text_data=await db(self._render)("notified", int(event.get("id") or 0)))

    def _render(self, what: str, notification_id: int = 0) -> str:
        with translation.override(self.language):
            if what == "panel":
                rows = presence.online_friends(self.account_id)
                context = {"online": rows, "invite_room": self.invite_room}
                return render_to_string("friends/parts.html#online_oob", context)
            notification = Notification.objects.filter(pk=notification_id, account_id=self.account_id).first()
            toast = None
            if notification is not None:
                actor = people([notification.actor_id])[notification.actor_id]
                toast = text(notification, actor.name)
            return render_to_string("friends/parts.html#notified", {"unread": unread(self.account_id), "toast": toast})

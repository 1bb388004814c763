"""Messages for a room owned by another process, both ways (the hub, rooms/hub.py, routes
them here):

- the socket's side: who holds the room (the lease, read once for many moves), the message
  posted to the owner's process channel, its answer coming back by token, and the watchdog
  that re-routes it when the owner died (once its lease runs out this process becomes the
  owner and applies the message itself: its id makes a second application harmless);
- the owner's side: a forwarded socket message applied in the order it came and answered to
  its sender's process; an action of another process's locked path (a view, a task) applied
  and replied to;
- the locked path's side (`call_elsewhere`, for `hub.route`): that action sent and its reply
  awaited.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.engines.errors import Refusal
from games.engines.text import _

from . import actions as A
from . import lease, store, wire
from .answers import answer_html, forwarded_answer, locked_answer, logged_answer, refusal_view
from .channel import ProcessChannel
from .models import Room
from .result import Result, RoomError, RoomNotFound
from .store import run_db

logger = logging.getLogger(__name__)

FORWARD_TIMEOUT = 5.0  # a locked-path call to an owner elsewhere unanswered this long: busy
FORWARD_CHECK_SECONDS = 1.0  # a forwarded message unanswered this long: is its owner still there?
HOLDER_SECONDS = 1.0  # a room's owner elsewhere, once read, is forwarded to this long without reading again


class Forwarder:
    def __init__(
        self,
        transport: ProcessChannel,
        leases,
        sockets: dict[str, set],
        owner: Callable[..., Awaitable[Any]],
    ):
        # The hub's own: its channel, leases and sockets by room; `owner(code, load=True)`
        # this process's owner of a room (loaded if nobody holds it).
        self.transport, self.leases, self.sockets = transport, leases, sockets
        self._owner = owner
        self.answers: dict[str, Any] = {}  # a forwarded message's token -> its RoomConsumer
        self._acting: dict[str, asyncio.Task] = {}  # the last forwarded message applied here per room
        self._asking: dict[str, asyncio.Future] = {}  # a room's lease read on its way (holder)
        self._holders: dict[str, tuple[str, float]] = {}  # code -> its owner elsewhere, until when

    # the socket's side --------------------------------------------------------------------
    async def holder(self, code: str, fresh: bool = False) -> str | None:
        """The lease's holder of `code`: an owner elsewhere is remembered for HOLDER_SECONDS
        (`fresh`: read again), and one read at a time per room (callers asking while a read
        is on its way share its answer). A read per forwarded move, plus one a second per
        move waiting for its answer, ran the lease client out of connections under load
        (redis-py raises past its pool's 100) and moves fell back to the locked path.
        Forgotten sooner when the owner changes or may have: a new owner's Hello, a refresh
        pushed for the room (a finish, a stale owner's drop), a message left unanswered."""
        known = self._holders.get(code)
        if known is not None and not fresh and time.monotonic() < known[1]:
            return known[0]
        asking = self._asking.get(code)
        if asking is None:
            asking = self._asking[code] = asyncio.ensure_future(self.leases.holder(code))
            asking.add_done_callback(lambda _done: self._asking.pop(code, None))
        holder = await asyncio.shield(asking)
        if holder and holder != self.transport.name and code in self.sockets:
            self._holders[code] = (holder, time.monotonic() + HOLDER_SECONDS)
        else:
            self._holders.pop(code, None)
        return holder

    def remember(self, code: str, owner_channel: str) -> None:
        self._holders[code] = (owner_channel, time.monotonic() + HOLDER_SECONDS)

    def forget(self, code: str) -> None:
        self._holders.pop(code, None)

    async def forward(self, consumer, incoming: A.Incoming, holder: str) -> None:
        """Send a socket's parsed message to the room's owner elsewhere and see it answered.
        An owner that died answers nothing: once its lease runs out this process becomes the
        owner and applies the message itself (its id makes a second application harmless)."""
        action, message_id, mode = incoming.action, incoming.message_id, incoming.mode
        sent = wire.action_to(action)  # every action a socket's message parses to has its plain form
        token = uuid.uuid4().hex
        answered = consumer.awaiting[token] = asyncio.Event()
        self.answers[token] = consumer
        message = wire.Act(
            consumer.code,
            consumer.player.pk,
            token,
            sent,
            message_id,
            consumer.channel_name,
            consumer.language,
            self.transport.name,
            mode,
            incoming.cell,
        )
        try:
            self.transport.post(holder, message)
            for _attempt in range(int(lease.TTL_MS / 1000 / FORWARD_CHECK_SECONDS) + 4):
                try:
                    await asyncio.wait_for(answered.wait(), FORWARD_CHECK_SECONDS)
                    return
                except TimeoutError:
                    pass
                now_holder = await self.holder(consumer.code, fresh=True)
                if now_holder == holder:
                    continue  # still leased: alive but slow, or dead and not yet expired
                room = await self._owner(consumer.code, load=True)
                if room is not None:
                    try:
                        result = await room.act(consumer.player, action, message_id)
                    except Refusal as error:
                        await consumer.send_error(str(error))
                        return
                    html = await forwarded_answer(
                        room,
                        consumer.player,
                        result,
                        message_id,
                        mode,
                        incoming.cell,
                        language=consumer.language,
                    )
                    if html:
                        await consumer.send(text_data=html)
                    return
                if now_holder and now_holder != self.transport.name:
                    holder = now_holder  # a new owner elsewhere: ask it instead
                    self.transport.post(holder, message)
                    continue
                # Nobody owns it or nobody can be asked (Redis away from this process): the
                # locked path itself (the lease was just asked: no owner to route to). A
                # duplicate there was applied by the owner, whose answer was lost with the
                # layer: the mover still waits, so it gets its game as logged.
                html, _running = await database_sync_to_async(locked_answer)(
                    store.locked, consumer.code, consumer.player, consumer.language, action, message_id, mode, None
                )
                if not html and message_id:
                    html = await database_sync_to_async(logged_answer)(
                        consumer.code, consumer.player, message_id, mode, consumer.language
                    )
                if html:
                    await consumer.send(text_data=html)
                return
            await consumer.send_error(_("The room is busy: please try again."))
        except Exception:  # a closed socket or an away layer: the client resyncs
            logger.warning("forwarding a message of %s failed", consumer.code, exc_info=True)
        finally:
            consumer.awaiting.pop(token, None)
            self.answers.pop(token, None)

    async def answer(self, html: str, token: str | None) -> None:
        """The owner's answer to a message this process forwarded: to the socket that sent it."""
        consumer = self.answers.get(token or "")
        if consumer is not None:
            await consumer.live_answer({"html": html, "token": token})

    # the owner's side ---------------------------------------------------------------------
    def in_order(self, message: wire.Act) -> None:
        """Apply a room's forwarded messages one after another in the order they came, and
        other rooms' beside them: the channel's reader awaiting each one (its log write
        included) held every room behind the one move being applied."""
        code, forwarded = message.code, self._forwarded(message)
        before = self._acting.get(code)

        async def after_before():
            if before is not None:
                await asyncio.wait([before])  # done, however it ended
            try:
                await forwarded
            except Exception:
                logger.exception("forwarded message for %s failed", code)

        task = asyncio.ensure_future(after_before())
        self._acting[code] = task
        task.add_done_callback(lambda done: self._acting.get(code) is done and self._acting.pop(code))

    async def _forwarded(self, message: wire.Act) -> None:
        room = await self._owner(message.code, load=True)
        # A seated mover's profile is the seat's (no database trip per forwarded move).
        seated = room and next((s.player for s in room.seats if s.player_id == message.player), None)
        player = seated or await run_db(store.profile, message.player)
        if room is None or player is None:
            # Not the owner (any more): no answer, so the sender's watchdog re-routes it.
            return
        incoming, language = message.incoming(room.game), message.language  # as the sender parsed it
        try:
            result = await room.act(player, incoming.action, incoming.message_id)
        except Refusal as error:
            html = await database_sync_to_async(refusal_view)(
                message.code, player, error, incoming.mode, incoming.cell, language
            )
        else:
            html = await answer_html(result.live, player, result, incoming.mode, incoming.cell, language)
        if message.via:  # to the sender's process: in order with the room's pushes, batched with them
            self.transport.post(message.via, wire.Answer(html, message.token))
        else:
            await self.transport.send(message.reply, wire.Answer(html, message.token))

    async def called(self, message: wire.Call) -> None:
        """An action from the locked path of another process (an HTTP view, a Celery task)."""
        player = None
        if message.player is not None:
            player = await run_db(store.profile, message.player)
        room = await self._owner(message.code, load=True)
        if room is None:
            await self.transport.send(message.reply, wire.refused("", wire.NOT_OWNER))
            return
        try:
            result = await room.act(player, wire.action_from(message.action, room.game), message.mid)
        except Refusal as error:
            await self.transport.send(message.reply, wire.refused(str(error), type(error).__name__))
            return
        await self.transport.send(message.reply, wire.replied(result.changed, result.duplicate))


# --- the locked path's side: an action for the owner in another process -----------------------


def call_elsewhere(code: str, player, action, message_id: str):
    """For `hub.route`, off the event loop: `code`'s owner in another process applies
    `action`. Its Result, or None to take the locked path (nobody owns the room)."""
    holder = lease.holder_sync(code)
    if not holder or not store.running(code):
        return None  # nobody owns it, or a lease left on a room no longer running
    try:
        sent = wire.action_to(action)
    except TypeError:
        raise RoomError("This room is being played live: use the room page.") from None
    reply = async_to_sync(_call_remote)(holder, code, player, sent, message_id)
    if reply is None:
        raise RoomError(_("The room is busy: please try again."))
    if reply.get("kind") == wire.NOT_OWNER:
        return None
    if "error" in reply:
        raise RoomError(reply["error"])
    room = Room.objects.filter(code=code).first()
    if room is None:
        raise RoomNotFound("No room has that code. Check the code and try again.")
    return Result(room, None, changed=reply["changed"], duplicate=reply["duplicate"])


async def _call_remote(holder, code, player, action: dict, message_id):
    layer = get_channel_layer()
    reply = f"live-reply.{uuid.uuid4().hex}"  # plain name: see ProcessChannel.open
    await layer.send(holder, wire.encode(wire.Call(code, player.pk if player else None, action, message_id, reply)))
    try:
        return await asyncio.wait_for(layer.receive(reply), FORWARD_TIMEOUT)
    except TimeoutError:
        return None

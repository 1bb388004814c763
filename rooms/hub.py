"""Everything live in one event loop of one process, lila's RoundSocket: the rooms it owns
(rooms/owner.py LiveRoom, one per running room), its sockets by room with their admission and
shared rate buckets, the pushes to them, and what comes in from other processes, one `match`
(rooms/wire.py). Its parts, each built with what it needs passed in (none imports the hub):

- channel.py     the process channel, the one module that knows channels-redis: ordered
                 batches out, everything waiting read at once, the rooms' groups re-joined;
- forwarding.py  a message for a room owned elsewhere, both ways: the socket's side (who holds
                 the room, the watchdog), the owner's (in order, answered by token), and the
                 locked path's call to an owner in another process (`route`);
- timers.py      the owners' clocks on one timer, the write-behind, the idle unload and the
                 lease renewal: one of each per process, not per room;
- refresh.py     a room's full view again for the sockets here, coalesced, retried.

Which process owns a room is a lease (rooms/lease.py: Redis SET NX PX, renewed by the
owner; one process without Redis). Sockets on another process forward their messages to
the owner's process channel and receive its pushes the same way, one message per process,
not per socket. The locked path's callers (rooms/api.py `act`) ask `route` first, so HTTP
views, Celery tasks and the admin reach a running room through its owner too.

This is lichess's shape (one actor per game, a durable move log, small versioned events),
on daphne + channels + PostgreSQL. The costs it avoids per move (measured, see bench/README.md):
the ORM's row-locked load and save (8-10 ms), the whole-board render (5.5 ms) and one
channel-layer message per socket (2.3 ms + 0.45 ms per frame).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from dataclasses import dataclass

from django.conf import settings

from games.common.limits import TokenBucket

from . import actions as A
from . import lease, movelog, store, wire
from .channel import ProcessChannel
from .forwarding import FORWARD_TIMEOUT, Forwarder, call_elsewhere
from .lifecycle import RUNNING
from .owner import LiveRoom, Moved
from .push import room_event
from .refresh import Refresher
from .result import Result
from .rules import normalize_code
from .store import run_db
from .timers import Timers

__all__ = ["RUNNING", "LiveRoom", "Moved"]  # the old rooms.live names, for their callers

logger = logging.getLogger(__name__)

# Per process: a player's message allowance over all their sockets here, and open sockets
# (a room's sockets normally share its owner's process); per client IP:
# settings.ROOM_SOCKETS_PER_IP. A player's allowance is twice a socket's (ROOM_SOCKET_RATE,
# ROOM_SOCKET_BURST): a second tab or a reconnect's overlap never halves a person's pace.
MAX_SOCKETS_PER_PROFILE = 12
MAX_WATCHERS_PER_ROOM = 50
MAX_WATCHERS_PER_ADDRESS = 10  # of one room, from one client IP


@dataclass
class Forwarded:
    """A message for a room owned elsewhere: its answer comes back to the socket's channel."""


class Hub:
    """One event loop's owners and sockets, and the parts it builds around them."""

    def __init__(self, loop):
        self.loop = loop
        self.rooms: dict[str, LiveRoom] = {}  # code -> this process's owner
        self.sockets: dict[str, set] = {}  # code -> this process's RoomConsumers of it
        self.log = movelog.for_database(run_db)
        self.leases = lease.for_settings()
        # Its parts share these two dicts, the leases and the ways to load, drop and call an
        # owner and to run a task; each imports nothing of the hub.
        self.transport = ProcessChannel(self.spawn, self._handle, lambda: list(self.sockets), self._layer_back)
        self.forwarder = Forwarder(self.transport, self.leases, self.sockets, self.owner)
        self.refresher = Refresher(self.sockets)
        self.timers = Timers(self.rooms, self.sockets, self.leases, self.drop, self.spawn)
        self._loading: dict[str, asyncio.Future] = {}
        self._buckets: dict[int, TokenBucket] = {}
        self._tasks: set[asyncio.Task] = set()

    @property
    def channel(self) -> str:
        """This process's channel: where other processes send its messages, who holds its leases."""
        return self.transport.name

    async def start(self) -> None:
        self.transport.open()

    def stop(self) -> None:
        """Cancel this hub's background tasks (a test's second hub, standing for another process)."""
        self.transport.stop()
        self.timers.stop()

    def spawn(self, coroutine) -> None:
        """Run `coroutine` on its own, held until done (the loop keeps only weak references)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # sockets ---------------------------------------------------------------------------
    def bucket(self, player_id: int) -> TokenBucket:
        """The message allowance a player's sockets in this process share."""
        found = self._buckets.get(player_id)
        if found is None:
            if len(self._buckets) > 10_000:
                self._buckets.clear()  # forget idle players now and then
            found = self._buckets[player_id] = TokenBucket(
                2 * settings.ROOM_SOCKET_RATE, 2 * settings.ROOM_SOCKET_BURST
            )
        return found

    def admit(self, player, code: str, ip: str, seated: bool) -> bool:
        """Room for one more socket of this player, network and room (per process)? A seated
        player always gets into their room (within their own cap): watchers from one address
        filled the room's one cap and locked a reloading player out of their race. Watchers
        have caps of their own, per room and per address in the room. (A watcher's socket
        counts as watching until it reconnects, also after its player joins a seat.)"""
        mine = sum(1 for sockets in self.sockets.values() for s in sockets if s.player.pk == player.pk)
        if mine >= MAX_SOCKETS_PER_PROFILE:
            return False
        if seated:
            return True
        network = sum(1 for sockets in self.sockets.values() for s in sockets if s.ip == ip)
        watching = [s for s in self.sockets.get(code, ()) if not s.seated]
        return (
            network < settings.ROOM_SOCKETS_PER_IP
            and len(watching) < MAX_WATCHERS_PER_ROOM
            and sum(1 for s in watching if s.ip == ip) < MAX_WATCHERS_PER_ADDRESS
        )

    async def attach(self, consumer) -> None:
        """A socket of `consumer.code` connected here. A running room gets an owner now (not
        on its first move); a room owned elsewhere learns that this process watches it."""
        await self.start()
        sockets = self.sockets.setdefault(consumer.code, set())
        if not sockets:  # this process's first socket of the room: join its process group
            await self.transport.group("add", consumer.code)
        sockets.add(consumer)
        room = await self.owner(consumer.code, load=True)
        if room is None:
            owner = await self.leases.holder(consumer.code)
            if owner and owner != self.channel:
                self.transport.post(owner, self._watch(consumer.code))
        else:
            room.idle_since = None

    async def detach(self, consumer) -> None:
        sockets = self.sockets.get(consumer.code)
        if sockets is not None:
            sockets.discard(consumer)
            if not sockets:
                del self.sockets[consumer.code]
                self.forwarder.forget(consumer.code)
                await self.transport.group("discard", consumer.code)
                owner = await self.leases.holder(consumer.code)
                if owner and owner != self.channel:
                    self.transport.post(owner, wire.Unwatch(consumer.code, self.channel))

    def _watch(self, code: str) -> wire.Watch:
        """This process watches `code`, in its sockets' languages (sent again with every
        socket that attaches: a new language reaches the owner before that socket's
        first push, but for pushes already on their way, which show another language)."""
        return wire.Watch(code, self.channel, sorted({s.language for s in self.sockets.get(code, ())}))

    # owners ----------------------------------------------------------------------------
    async def owner(self, code: str, load: bool = False) -> LiveRoom | None:
        """This process's owner of `code`; with `load`, become it if nobody holds the room."""
        room = self.rooms.get(code)
        if room is not None or not load:
            return room
        pending = self._loading.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        future = self.loop.create_future()
        self._loading[code] = future
        try:
            room = await self._load(code)
            future.set_result(room)
            return room
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: waiters get it, nobody else must
            raise
        finally:
            del self._loading[code]

    async def _load(self, code: str) -> LiveRoom | None:
        await self.start()
        # A room that is not running is not leased at all: a lease taken only to find that
        # out made other processes forward lobby messages to a process that owns nothing.
        if not await run_db(store.running, code):
            return None
        if not await self.leases.acquire(code, self.channel):
            return None
        try:
            loaded = await run_db(store.load, code)
        except BaseException:  # the database dropped us twice: nobody owns it, the next message tries again
            await self.leases.release(code, self.channel)
            raise
        if loaded is None:
            await self.leases.release(code, self.channel)
            return None
        room = LiveRoom(
            *loaded,
            log=self.log.append,
            write=self._write,
            publish=self.publish,
            drop=self.drop,
            changed=self.timers.wake_flusher,
            schedule=self.timers.schedule,
        )
        self.rooms[code] = room
        self.timers.schedule(room)
        self.timers.start(self.channel)
        # Processes already watching the room (sockets there) learn who owns it now.
        await self.transport.hello(code)
        return room

    async def _write(self, snapshot: store.Snapshot) -> bool:
        return await run_db(store.write_snapshot, snapshot)

    async def drop(self, room: LiveRoom, stale: bool = False) -> None:
        """Stop owning `room`. `stale`: another writer moved it on (a locked path that could
        not see this owner while Redis was away from it, or a newer owner): what this owner
        pushed is behind the log, so every socket of the room, here and elsewhere, gets the
        room as the rows and the log say."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        room.closed = True
        await self.leases.release(room.code, self.channel)
        if stale:
            self.spawn(self.refresher.soon(room.code))
            for channel in list(room.remote):
                self.transport.post(channel, wire.Push(room.code, {"type": "room.refresh"}))

    # acting ----------------------------------------------------------------------------
    async def act(self, consumer, incoming: A.Incoming):
        """Apply a socket's parsed message through the room's owner (outsiders use api.act).
        Returns the Result (owned here), a Forwarded marker (the owner is elsewhere: its
        answer comes to the socket's channel), or None (no live owner: the caller takes the
        locked path, and loads an owner if that left the room running)."""
        room = self.rooms.get(consumer.code)
        if room is None:
            holder = await self.forwarder.holder(consumer.code)
            if holder and holder != self.channel:
                self.spawn(self.forwarder.forward(consumer, incoming, holder))
                return Forwarded()
            if holder == self.channel:
                # This process holds the lease and its owner is still loading: wait for it
                # here. The locked path called this process back through Redis from the
                # sockets' one sync thread and held it meanwhile (bench/arena.py: two fifths
                # of that thread's time under load, every other socket's render waiting).
                room = await self.owner(consumer.code, load=True)
        if room is not None:
            return await room.act(consumer.player, incoming.action, incoming.message_id)
        return None

    async def call(self, code, player, action, message_id=""):
        """`route`'s: this process's owner of `code` applies `action` (outsiders use api.act)."""
        room = await self.owner(code, load=True)
        if room is None:
            return None
        return await room.act(player, action, message_id)

    # pushes ----------------------------------------------------------------------------
    async def publish(self, room: LiveRoom, result: Result) -> None:
        """After a change is durable: everyone else hears of it, once per socket here and
        once per other process."""
        # Standings in the languages of the room's sockets, here and elsewhere (each process's
        # Watch names its own; every language for one that did not: rendering both languages
        # for one read was a seventh of a forwarded room's CPU).
        languages: set[str] | None = {s.language for s in self.sockets.get(room.code, ())}
        for channel in room.remote:
            told = room.remote_languages.get(channel)
            languages = None if told is None or languages is None else languages | set(told)
        event = room_event(room.room, room.seats, result, languages or None)
        if event is None:
            return
        if event["type"] == "room.refresh":  # rare (play, finish, a forfeit): every process
            # The processes known to watch get it in order with the pushes queued for them
            # before it; the group reaches those whose Watch is still on its way (a process
            # hearing it twice renders once: _refresh_soon coalesces).
            for channel in list(room.remote):
                self.transport.post(channel, wire.Push(room.code, event))
            if not await self.transport.push_group(room.code, wire.Push(room.code, event)):
                # This process's own sockets need no Redis; not awaited here: the render must not
                # wait under the room's lock (a locked-path caller may hold the sync thread).
                self.spawn(self.deliver(room.code, event))
            return
        await self.deliver(room.code, event)
        for channel in list(room.remote):
            self.transport.post(channel, wire.Push(room.code, event))  # queued: not a Redis wait under the room's lock

    async def deliver(self, code: str, event: dict) -> None:
        if event["type"] == "room.refresh":
            self.forwarder.forget(code)  # a finish or a stale owner's drop: who owns it may have changed
            # Not awaited: the render waits for the sockets' sync thread, and the process
            # channel's reader, which hands every message here, waited with it; messages
            # behind it outlived the layer's expiry (30 s) and were lost: a room's end among
            # them (bench/arena.py: players whose room never showed its end).
            self.spawn(self.refresher.soon(code))
            return
        for consumer in list(self.sockets.get(code, ())):
            try:
                await consumer.live_event(event)
            except Exception:  # one dead socket must not stop the others
                logger.warning("push to a socket of %s failed", code, exc_info=True)

    async def _layer_back(self) -> None:
        """The channel layer answers again after failing: pushes sent meanwhile, both ways,
        were lost. Every socket here gets its room's full state, and the sockets elsewhere
        of the rooms owned here get theirs (their owner's pushes to them were lost)."""
        logger.warning("channel layer back: resyncing %d rooms", len(self.sockets))
        for code in list(self.sockets):
            self.spawn(self.refresher.soon(code))
        for room in list(self.rooms.values()):
            for channel in list(room.remote):
                self.transport.post(channel, wire.Push(room.code, {"type": "room.refresh"}))

    # what other processes send (the process channel's reader hands each here) ----------------
    async def _handle(self, message: dict) -> None:
        match wire.parse(message):
            case wire.Batch(messages):
                for each in messages:  # in order; one failing message must not lose the rest
                    try:
                        await self._handle(each)
                    except Exception:
                        logger.exception("live message failed: %s", each.get("type"))
            case wire.Act() as act:
                self.forwarder.in_order(act)
            case wire.Answer(html, token):
                await self.forwarder.answer(html, token)
            case wire.Call() as call:  # its owner may be loading: the reader does not wait for it
                self.spawn(self._called(call))
            case wire.Watch(code, channel, languages):
                room = self.rooms.get(code)
                if room is not None and channel != self.channel:
                    room.remote.add(channel)
                    room.remote_languages[channel] = languages or None
                    room.idle_since = None
            case wire.Unwatch(code, channel):
                room = self.rooms.get(code)
                if room is not None:
                    room.remote.discard(channel)
                    room.remote_languages.pop(channel, None)
            case wire.Push(code, event):
                await self.deliver(code, event)
            case wire.Hello(code, channel):
                await self.hello(code, channel)

    async def _called(self, call: wire.Call) -> None:
        try:
            await self.forwarder.called(call)
        except Exception:  # the caller's wait runs out and it says "busy"
            logger.exception("live call for %s failed", call.code)

    async def hello(self, code: str, owner_channel: str) -> None:
        """A new owner of `code` announced itself: tell it this process has sockets there."""
        if code in self.sockets and owner_channel != self.channel:
            self.forwarder.remember(code, owner_channel)  # forward there from now on
            self.transport.post(owner_channel, self._watch(code))


# --- the hubs of this process, and the locked path's way in ----------------------------------

_HUBS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def current() -> Hub:
    """This event loop's hub (tests run one loop per test; daphne runs one)."""
    loop = asyncio.get_running_loop()
    found = _HUBS.get(loop)
    if found is None:
        found = _HUBS[loop] = Hub(loop)
    return found


def close_all() -> None:
    """Close every hub's own database connections now (tests: before the test database is
    dropped; a live hub otherwise keeps its move log connection for the process's life)."""
    for found in list(_HUBS.values()):
        found.log.close_now()
    _HUBS.clear()
    store.close_threads()


def _local_owner(code: str) -> Hub | None:
    for loop, found in list(_HUBS.items()):
        if not loop.is_closed() and code in found.rooms:
            return found
    return None


def route(code: str, player, action, now, message_id: str):
    """For `api.act` (outsiders use it): a running room held by a live owner is acted on by
    that owner (this process or another); returns its Result, or None to take the locked path."""
    code = normalize_code(code)
    if player is not None:
        player.pk  # noqa: B018 - evaluate a lazy request.player here, not on the event loop
    local = _local_owner(code)
    if local is not None:
        future = asyncio.run_coroutine_threadsafe(_detached(local.call(code, player, action, message_id)), local.loop)
        return future.result(FORWARD_TIMEOUT)
    return call_elsewhere(code, player, action, message_id)


async def _detached(call):
    """The owner's call in a context of its own, not the calling sync thread's: asgiref marks
    that one as inside its single thread, so the tasks the call starts (a room's refresh)
    refused database work later ("Single thread executor already being used, would
    deadlock", an arena tick's nudge in bench/arena.py) or queued it on the thread blocked in
    `route` until its timeout."""
    return await asyncio.get_running_loop().create_task(call, context=contextvars.Context())

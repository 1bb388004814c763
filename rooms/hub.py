"""Everything live in one event loop of one process: the rooms it owns (rooms/owner.py
LiveRoom, one per running room), its sockets by room with their admission and shared rate
buckets, its process channel (typed messages, rooms/wire.py), the move log writer, the
write-behind flusher and the lease renewer.

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
import contextlib
import heapq
import itertools
import logging
import time
import uuid
import weakref
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.engines.errors import Refusal
from games.engines.text import _

from . import actions as A
from . import lease, movelog, push, store, wire
from .answers import (
    answer_html,
    forwarded_answer,
    locked_answer,
    logged_answer,
    parse_cell,
    parse_mode,
    refusal_view,
    render_views,
)
from .lifecycle import RUNNING
from .models import Room
from .owner import LiveRoom, Moved
from .push import group_name, room_event
from .rules import Result, RoomError, RoomNotFound, normalize_code
from .store import run_db

__all__ = ["RUNNING", "LiveRoom", "Moved"]  # the old rooms.live names, for their callers

logger = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5  # seat and room rows lag the log by at most this much
IDLE_UNLOAD_SECONDS = 120  # an owner with no sockets anywhere for this long is unloaded
FORWARD_TIMEOUT = 5.0  # a locked-path call to an owner elsewhere unanswered this long: busy
FORWARD_CHECK_SECONDS = 1.0  # a forwarded message unanswered this long: is its owner still there?
REFRESH_COALESCE_SECONDS = 0.05  # refreshes of one room within this window render once
REFRESH_RETRIES, REFRESH_RETRY_SECONDS = 5, 1.0  # a refresh the database refused, tried again
MEMBERSHIP_SECONDS = 2.0  # how often a process re-joins its rooms' groups (one round trip for all)
HOLDER_SECONDS = 1.0  # a room's owner elsewhere, once read, is forwarded to this long without reading again
OUTBOX_BATCH = 200  # messages for one process channel in one layer message, at most
CLOCK_RETRY = timedelta(milliseconds=50)  # a room's clock fires no sooner than this after it is set
# Per process: a player's message allowance over all their sockets here, and open sockets
# (a room's sockets normally share its owner's process); per client IP:
# settings.ROOM_SOCKETS_PER_IP. A player's allowance is twice a socket's (ROOM_SOCKET_RATE,
# ROOM_SOCKET_BURST): a second tab or a reconnect's overlap never halves a person's pace.
MAX_SOCKETS_PER_PROFILE = 12
MAX_WATCHERS_PER_ROOM = 50
MAX_WATCHERS_PER_ADDRESS = 10  # of one room, from one client IP


class TokenBucket:
    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.last = rate, burst, float(burst), time.monotonic()

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# --- the process's owners, sockets and channel ---------------------------------------------


@dataclass
class Forwarded:
    """A message for a room owned elsewhere: its answer comes back to the socket's channel."""


class Hub:
    """Everything live in one event loop of one process: the rooms it owns, its sockets
    by room, its process channel, the move log writer and the write-behind flusher."""

    def __init__(self, loop):
        self.loop = loop
        self.rooms: dict[str, LiveRoom] = {}
        self.sockets: dict[str, set] = {}
        self.layer = get_channel_layer()
        self.channel = ""  # set by start()
        self.log = movelog.for_database(run_db)
        self.leases = lease.for_settings()
        self._loading: dict[str, asyncio.Future] = {}
        self._flusher: asyncio.Task | None = None
        self._flush_wanted = asyncio.Event()
        self._reader: asyncio.Task | None = None
        self._refreshing: set[str] = set()
        self._refresh_tries: dict[str, int] = {}
        self._retries: set[asyncio.Task] = set()
        self._buckets: dict[int, TokenBucket] = {}
        self._renewer: asyncio.Task | None = None
        self.layer_away = False  # a channel-layer call failed since the last resync
        self._push_failures = push.layer_failures  # push's count of lost pushes at the last resync
        self._tasks: set[asyncio.Task] = set()
        # The rooms' clocks, one timer for all: (when, n, owner, its due) by the earliest;
        # an entry whose owner was set again or closed since is passed over.
        self._due: list[tuple] = []
        self._due_order = itertools.count()
        self._due_changed = asyncio.Event()
        self._clock: asyncio.Task | None = None
        # What this process queued for other processes' channels, by channel (see _post);
        # a forwarded message's socket by its token, for its answer (sent to this process's
        # channel); and the last forwarded message being applied here per room (_in_order).
        self._outbox: dict[str, list[dict]] = {}
        self._answers: dict[str, Any] = {}  # token -> its RoomConsumer
        self._acting: dict[str, asyncio.Task] = {}
        self._asking: dict[str, asyncio.Future] = {}  # a room's lease read on its way (_holder)
        self._holders: dict[str, tuple[str, float]] = {}  # code -> its owner elsewhere, until when

    async def start(self) -> None:
        if not self.channel:
            # A plain channel name, not new_channel()'s process-specific one: channels-redis
            # shares one reader among those, and a second long-lived reader starved the
            # sockets' own (their pushes never arrived).
            self.channel = f"live.{uuid.uuid4().hex}"
            self._reader = asyncio.ensure_future(self._read())
            self._member = asyncio.ensure_future(self._memberships())

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
            await self._group("add", consumer.code)
        sockets.add(consumer)
        room = await self.owner(consumer.code, load=True)
        if room is None:
            owner = await self.leases.holder(consumer.code)
            if owner and owner != self.channel:
                self._post(owner, self._watch(consumer.code))
        else:
            room.idle_since = None

    async def detach(self, consumer) -> None:
        sockets = self.sockets.get(consumer.code)
        if sockets is not None:
            sockets.discard(consumer)
            if not sockets:
                del self.sockets[consumer.code]
                self._holders.pop(consumer.code, None)
                await self._group("discard", consumer.code)
                owner = await self.leases.holder(consumer.code)
                if owner and owner != self.channel:
                    self._post(owner, wire.Unwatch(consumer.code, self.channel))

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
            changed=self.wake_flusher,
            schedule=self.schedule,
        )
        self.rooms[code] = room
        self.schedule(room)
        if self._renewer is None:
            self._renewer = asyncio.ensure_future(self._renew())
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush_loop())
        # Processes already watching the room (sockets there) learn who owns it now.
        await self._group_hello(code)
        return room

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
            self.spawn(self._refresh_soon(room.code))
            for channel in list(room.remote):
                self._post(channel, wire.Push(room.code, {"type": "room.refresh"}))

    # acting ----------------------------------------------------------------------------
    async def act(self, consumer, action, message_id: str, data: dict):
        """Apply a socket's action through the room's owner. Returns the Result (owned
        here), a Forwarded marker (the owner is elsewhere: its answer comes to the
        socket's channel), or None (no live owner: the caller takes the locked path, and
        loads an owner if that left the room running)."""
        room = self.rooms.get(consumer.code)
        if room is not None:
            return await room.act(consumer.player, action, message_id)
        holder = await self._holder(consumer.code)
        if holder and holder != self.channel:
            self.spawn(self._forward(consumer, action, message_id, data, holder))
            return Forwarded()
        return None

    async def _holder(self, code: str, fresh: bool = False) -> str | None:
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
        if holder and holder != self.channel and code in self.sockets:
            self._holders[code] = (holder, time.monotonic() + HOLDER_SECONDS)
        else:
            self._holders.pop(code, None)
        return holder

    async def _forward(self, consumer, action, message_id: str, data: dict, holder: str) -> None:
        """Send a socket's message to the room's owner elsewhere and see it answered. An
        owner that died answers nothing: once its lease runs out this process becomes the
        owner and applies the message itself (its id makes a second application harmless)."""
        token = uuid.uuid4().hex
        answered = consumer.awaiting[token] = asyncio.Event()
        self._answers[token] = consumer
        message = wire.Act(
            consumer.code,
            consumer.player.pk,
            token,
            data,
            message_id,
            consumer.channel_name,
            consumer.language,
            self.channel,
        )
        try:
            self._post(holder, message)
            for _attempt in range(int(lease.TTL_MS / 1000 / FORWARD_CHECK_SECONDS) + 4):
                try:
                    await asyncio.wait_for(answered.wait(), FORWARD_CHECK_SECONDS)
                    return
                except TimeoutError:
                    pass
                now_holder = await self._holder(consumer.code, fresh=True)
                if now_holder == holder:
                    continue  # still leased: alive but slow, or dead and not yet expired
                room = await self.owner(consumer.code, load=True)
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
                        parse_mode(data),
                        parse_cell(data),
                        language=consumer.language,
                    )
                    if html:
                        await consumer.send(text_data=html)
                    return
                if now_holder and now_holder != self.channel:
                    holder = now_holder  # a new owner elsewhere: ask it instead
                    self._post(holder, message)
                    continue
                # Nobody owns it or nobody can be asked (Redis away from this process): the
                # locked path itself (the lease was just asked: no owner to route to). A
                # duplicate there was applied by the owner, whose answer was lost with the
                # layer: the mover still waits, so it gets its game as logged.
                mode = parse_mode(data)
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
            self._answers.pop(token, None)

    # pushes ----------------------------------------------------------------------------
    async def _write(self, snapshot: store.Snapshot) -> bool:
        return await run_db(store.write_snapshot, snapshot)

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
                self._post(channel, wire.Push(room.code, event))
            try:
                await self.layer.group_send(group_name(room.code), wire.encode(wire.Push(room.code, event)))
            except Exception:  # the layer is away: a resync follows its return
                self.layer_away = True
                logger.warning("room refresh push failed", exc_info=True)
                # This process's own sockets need no Redis; not awaited here: the render must not
                # wait under the room's lock (a locked-path caller may hold the sync thread).
                self.spawn(self.deliver(room.code, event))
            return
        await self.deliver(room.code, event)
        for channel in list(room.remote):
            self._post(channel, wire.Push(room.code, event))  # queued: not a Redis wait under the room's lock

    async def deliver(self, code: str, event: dict) -> None:
        if event["type"] == "room.refresh":
            self._holders.pop(code, None)  # a finish or a stale owner's drop: who owns it may have changed
            await self._refresh_soon(code)
            return
        for consumer in list(self.sockets.get(code, ())):
            try:
                await consumer.live_event(event)
            except Exception:  # one dead socket must not stop the others
                logger.warning("push to a socket of %s failed", code, exc_info=True)

    async def _refresh_later(self, code: str) -> None:
        await asyncio.sleep(REFRESH_RETRY_SECONDS)
        await self._refresh_soon(code)

    async def _refresh_soon(self, code: str) -> None:
        """Every local socket of the room gets its view again, rendered once per distinct
        viewer, and a burst of refreshes (a client toggling ready) renders once."""
        if code in self._refreshing:
            return
        self._refreshing.add(code)
        try:
            await asyncio.sleep(REFRESH_COALESCE_SECONDS)
        finally:
            self._refreshing.discard(code)  # a refresh from now on needs another render
        sockets = [s for s in self.sockets.get(code, ()) if s.player is not None]
        if not sockets:
            return
        viewers = {(s.player.pk, s.language): s.player for s in sockets}
        try:
            views = await database_sync_to_async(render_views)(code, viewers)
        except Exception:  # the database is away: tried again in a moment, a few times
            logger.warning("room refresh of %s failed", code, exc_info=True)
            tries = self._refresh_tries.get(code, 0) + 1
            self._refresh_tries[code] = tries
            if tries <= REFRESH_RETRIES:
                # an open socket never resyncs by itself: a finish pushed into a database outage
                # was lost to every client (tests/resilience/test_faults.py, a dropped connection)
                retry = asyncio.ensure_future(self._refresh_later(code))
                self._retries.add(retry)
                retry.add_done_callback(self._retries.discard)
            return
        self._refresh_tries.pop(code, None)
        for consumer in sockets:
            html = views.get((consumer.player.pk, consumer.language))
            if html:
                try:
                    await consumer.send(text_data=html)
                except Exception:
                    logger.warning("refresh of a socket of %s failed", code, exc_info=True)

    async def _group(self, what: str, code: str) -> bool:
        try:
            if what == "add":
                await self.layer.group_add(group_name(code), self.channel)
            else:
                await self.layer.group_discard(group_name(code), self.channel)
        except Exception:  # Redis away: the socket stays open, resyncs later
            self.layer_away = True
            logger.warning("room group %s failed for %s", what, code, exc_info=True)
            return False
        return True

    async def _rejoin(self, codes: list[str]) -> bool:
        """Join the process groups of `codes` again, in one Redis round trip per shard (a
        pipeline of each group's ZADD and EXPIRE, what channels-redis's group_add sends one
        call at a time: two round trips per room every MEMBERSHIP_SECONDS); another layer
        (the tests' in-memory one) one group_add per room."""
        if not codes:
            return True
        layer = self.layer
        try:
            if not all(hasattr(layer, name) for name in ("_group_key", "consistent_hash", "connection")):
                for code in codes:
                    await layer.group_add(group_name(code), self.channel)
                return True
            shards: dict[int, list[str]] = {}
            for code in codes:
                shards.setdefault(layer.consistent_hash(group_name(code)), []).append(group_name(code))
            joined_at = time.time()
            for index, groups in shards.items():
                pipe = layer.connection(index).pipeline(transaction=False)
                for group in groups:
                    key = layer._group_key(group)
                    pipe.zadd(key, {self.channel: joined_at})
                    pipe.expire(key, layer.group_expiry)
                await pipe.execute()
        except Exception:  # Redis away: the sockets stay open, resync later
            self.layer_away = True
            logger.warning("room groups re-join failed for %d rooms", len(codes), exc_info=True)
            return False
        return True

    def spawn(self, coroutine) -> None:
        """Run `coroutine` on its own, held until done (the loop keeps only weak references)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _layer_answers(self) -> bool:
        try:
            await self.layer.group_discard("live-probe", self.channel)  # one cheap round trip
        except Exception:  # noqa: BLE001 - whatever the failure, the layer does not answer
            return False
        return True

    async def _layer_back(self) -> None:
        """The channel layer answers again after failing: pushes sent meanwhile, both ways,
        were lost. Every socket here gets its room's full state, and the sockets elsewhere
        of the rooms owned here get theirs (their owner's pushes to them were lost)."""
        self.layer_away = False
        logger.warning("channel layer back: resyncing %d rooms", len(self.sockets))
        for code in list(self.sockets):
            self.spawn(self._refresh_soon(code))
        for room in list(self.rooms.values()):
            for channel in list(room.remote):
                self._post(channel, wire.Push(room.code, {"type": "room.refresh"}))

    def _watch(self, code: str) -> wire.Watch:
        """This process watches `code`, in its sockets' languages (sent again with every
        socket that attaches: a new language reaches the owner before that socket's
        first push, but for pushes already on their way, which show another language)."""
        return wire.Watch(code, self.channel, sorted({s.language for s in self.sockets.get(code, ())}))

    async def hello(self, code: str, owner_channel: str) -> None:
        """A new owner of `code` announced itself: tell it this process has sockets there."""
        if code in self.sockets and owner_channel != self.channel:
            self._holders[code] = (owner_channel, time.monotonic() + HOLDER_SECONDS)  # forward there from now on
            self._post(owner_channel, self._watch(code))

    # the process channel ------------------------------------------------------------------
    async def _read(self) -> None:
        while True:
            try:
                messages = await self._receive()
            except asyncio.CancelledError:
                return
            except Exception:  # Redis away: retry, sockets stay open
                self.layer_away = True
                logger.warning("live channel read failed", exc_info=True)
                await asyncio.sleep(1)
                continue
            for message in messages:
                try:
                    await self._handle(message)
                except Exception:
                    logger.exception("live message failed: %s", message.get("type"))

    async def _receive(self) -> list[dict]:
        """What waits on this process's channel, in order: with channels-redis on one Redis,
        a blocking pop of the first message and one pop of all the rest (two round trips;
        channels-redis's receive took four per message, for a backup queue that only helps
        a reader cancelled mid-read, which this one is only when the process stops)."""
        redis = self._redis()
        if redis is None:
            return [await self.layer.receive(self.channel)]
        key = self.layer.prefix + self.channel
        first = await redis.bzpopmin(key, timeout=self.layer.brpop_timeout)
        if first is None:
            return []
        rest = await redis.zpopmin(key, OUTBOX_BATCH)
        return [self.layer.deserialize(member) for member in [first[1], *(member for member, _score in rest)]]

    async def _handle(self, message: dict) -> None:
        match wire.parse(message):
            case wire.Batch(messages):
                for each in messages:  # in order; one failing message must not lose the rest
                    try:
                        await self._handle(each)
                    except Exception:
                        logger.exception("live message failed: %s", each.get("type"))
            case wire.Act() as act:
                self._in_order(act.code, self._forwarded(act))
            case wire.Answer(html, token):
                consumer = self._answers.get(token or "")
                if consumer is not None:
                    await consumer.live_answer({"html": html, "token": token})
            case wire.Call() as call:
                await self._called(call)
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

    async def _forwarded(self, message: wire.Act) -> None:
        room = await self.owner(message.code, load=True)
        # A seated mover's profile is the seat's (no database trip per forwarded move).
        seated = room and next((s.player for s in room.seats if s.player_id == message.player), None)
        player = seated or await run_db(store.profile, message.player)
        if room is None or player is None:
            # Not the owner (any more): no answer, so the sender's watchdog re-routes it.
            return
        data, language = message.data, message.language
        try:
            action, message_id = A.parse_message(data, room.game)
            result = await room.act(player, action, message_id)
        except Refusal as error:
            html = await database_sync_to_async(refusal_view)(message.code, player, error, data, language)
        else:
            html = await answer_html(result.live, player, result, parse_mode(data), parse_cell(data), language)
        if message.via:  # to the sender's process: in order with the room's pushes, batched with them
            self._post(message.via, wire.Answer(html, message.token))
        else:
            await self._send(message.reply, wire.Answer(html, message.token))

    def _in_order(self, code: str, forwarded) -> None:
        """Apply a room's forwarded messages one after another in the order they came, and
        other rooms' beside them: the channel's reader awaiting each one (its log write
        included) held every room behind the one move being applied."""
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

    async def _called(self, message: wire.Call) -> None:
        """An action from the locked path of another process (an HTTP view, a Celery task)."""
        player = None
        if message.player is not None:
            player = await run_db(store.profile, message.player)
        try:
            result = await self.call(message.code, player, wire.action_from(message.action), message.mid)
        except Refusal as error:
            await self._send(message.reply, wire.refused(str(error), type(error).__name__))
            return
        if result is None:
            await self._send(message.reply, wire.refused("", wire.NOT_OWNER))
            return
        await self._send(message.reply, wire.replied(result.changed, result.duplicate))

    async def call(self, code, player, action, message_id=""):
        room = await self.owner(code, load=True)
        if room is None:
            return None
        return await room.act(player, action, message_id)

    def _post(self, channel: str, message: wire.Message) -> None:
        """Queue `message` for another process's channel. What is queued for one channel
        leaves in order, in one layer message per batch: all that was queued in the same
        event-loop tick, or while the batch before it was on its way (a room spread over two
        processes sent each move, answer and push across Redis one by one, eight round
        trips each, and saturated two processes at 250 moves/s)."""
        queue = self._outbox.get(channel)
        if queue is None:
            queue = self._outbox[channel] = []
            self.spawn(self._drain(channel, queue))  # starts after this tick: its batch fills first
        queue.append(wire.encode(message))

    async def _drain(self, channel: str, queue: list[dict]) -> None:
        """Send `channel`'s queue until it is empty, one batch at a time (one sender per
        channel: batches never overtake each other)."""
        try:
            while queue:
                batch = queue[:OUTBOX_BATCH]
                del queue[:OUTBOX_BATCH]
                await self._send(channel, batch[0] if len(batch) == 1 else wire.encode(wire.Batch(batch)), fast=True)
        finally:
            # No await between the empty queue and this: a message posted from now on
            # starts a new sender.
            del self._outbox[channel]

    def _redis(self):
        """The channel layer's one Redis connection (channels-redis on one host, as the
        site's settings make it), else None (the tests' in-memory layer, a sharded one)."""
        layer = self.layer
        if getattr(layer, "ring_size", 0) != 1 or not hasattr(layer, "connection"):
            return None
        return layer.connection(0)

    async def _send(self, channel: str, message: wire.Message | dict, fast: bool = False) -> None:
        """Send `message` to `channel`. `fast` (a process channel): in one Redis round trip,
        a pipeline of what channels-redis's send does in four (drop expired entries, add,
        expire), without its capacity check: a process channel's senders send batches one
        at a time each, and what its reader takes it takes all at once (_receive)."""
        message = message if isinstance(message, dict) else wire.encode(message)
        redis = self._redis() if fast else None
        try:
            if redis is None:
                await self.layer.send(channel, message)
                return
            key, now = self.layer.prefix + channel, time.time()
            pipe = redis.pipeline(transaction=False)
            pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.layer.expiry))
            pipe.zadd(key, {self.layer.serialize(message): now})
            pipe.expire(key, int(self.layer.expiry))
            await pipe.execute()
        except Exception:  # the layer is away; a resync follows its return
            self.layer_away = True
            logger.warning("live send failed", exc_info=True)

    async def _group_hello(self, code: str) -> None:
        try:
            await self.layer.group_send(group_name(code), wire.encode(wire.Hello(code, self.channel)))
        except Exception:
            logger.warning("live hello failed", exc_info=True)

    # background ----------------------------------------------------------------------------
    def schedule(self, room: LiveRoom) -> None:
        """Set `room`'s clock for its next due moment (nothing if that did not move)."""
        due = room.next_due()
        if due == room.due:
            return
        room.due = due
        if due is None:
            return
        when = max(due, timezone.now() + CLOCK_RETRY)
        heapq.heappush(self._due, (when, next(self._due_order), room, due))
        if self._due[0][2] is room:
            self._due_changed.set()  # earlier than what the timer sleeps for
        if self._clock is None:
            self._clock = asyncio.ensure_future(self._clocks())

    async def _clocks(self) -> None:
        """Every owned room's clock on one timer, asleep until the next due room: apply what
        time makes due (countdown over, time limit, safety limit) even when nobody sends
        anything, and push it. A task per room woke a thousand rooms' tasks for nothing."""
        while True:
            try:
                now = timezone.now()
                while self._due and self._due[0][0] <= now:
                    _when, _n, room, due = heapq.heappop(self._due)
                    if room.closed or room.due != due:
                        continue  # set again since, or given up
                    room.due = None
                    self.spawn(self._tick(room))
                self._due_changed.clear()
                wait = (self._due[0][0] - now).total_seconds() if self._due else None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._due_changed.wait(), wait)
            except asyncio.CancelledError:
                return
            except Exception:  # the clock must never stop for good
                logger.exception("room clocks failed")
                await asyncio.sleep(1)

    async def _tick(self, room: LiveRoom) -> None:
        try:
            await room.act(None, A.Sync())
        except RoomError:
            return  # moved on or gone: no clock
        except Exception:  # one room's clock must not take the others down
            logger.exception("room clock failed for %s", room.code)
            return
        if not room.closed:
            self.schedule(room)  # not yet due after all (a moment on the boundary): again soon

    def wake_flusher(self) -> None:
        self._flush_wanted.set()

    async def _flush_loop(self) -> None:
        while True:
            try:
                await self._flush_wanted.wait()
                await asyncio.sleep(FLUSH_SECONDS)  # coalesce: one write per room per period
                self._flush_wanted.clear()
                now = time.monotonic()
                # One trip to the database thread and one transaction for every dirty room;
                # each room's lock is held only while its snapshot is taken, not for the write.
                batch = []
                for room in list(self.rooms.values()):
                    if room.dirty and not room.closed:
                        async with room.lock:
                            batch.append((room, room.snapshot()))
                if batch:
                    try:
                        written = await run_db(store.write_many, [snapshot for _, snapshot in batch])
                    except Exception:
                        for room, _ in batch:
                            room.dirty = True  # try again next period; the log has every move
                        raise
                    for (room, snapshot), ok in zip(batch, written, strict=True):
                        if ok:
                            room.written_back(snapshot)
                        else:
                            await self.drop(room, stale=True)  # a newer owner wrote: this one is stale
                for room in list(self.rooms.values()):
                    if not self.sockets.get(room.code) and not room.remote:
                        room.idle_since = room.idle_since or now
                        if now - room.idle_since > IDLE_UNLOAD_SECONDS:
                            async with room.lock:
                                await room.flush()
                                await self.drop(room)
                    else:
                        room.idle_since = None
            except asyncio.CancelledError:
                return
            except Exception:  # a failed flush is retried; the log has every move
                logger.exception("write-behind failed")
                await asyncio.sleep(1)

    async def _memberships(self) -> None:
        """Join the process groups of this process's rooms again now and then, all in one
        Redis round trip (`_rejoin`): Redis keeps nothing on disk, so a restarted Redis forgot
        them (and pushes would stop arriving), and a socket's join racing another's leave of
        the same room can leave the process out. (Joining again only when Redis's run id
        moved lost updates in the two-process fault test: the periodic join repairs more.)"""
        while True:
            try:
                await asyncio.sleep(MEMBERSHIP_SECONDS)
                failures = push.layer_failures  # the locked path's pushes lost in this process
                away = self.layer_away or failures != self._push_failures
                joined = await self._rejoin(list(self.sockets))
                if away and joined and await self._layer_answers():
                    self._push_failures = failures
                    await self._layer_back()
            except asyncio.CancelledError:
                return

    async def _renew(self) -> None:
        while True:
            try:
                await asyncio.sleep(lease.RENEW_SECONDS)
                owned = list(self.rooms.items())
                if not owned:
                    continue
                held = await self.leases.renew_many([code for code, _room in owned], self.channel)  # one trip
                for (_code, room), still in zip(owned, held, strict=True):
                    if not still:
                        async with room.lock:
                            await self.drop(room)  # someone else owns it now
            except asyncio.CancelledError:
                return
            except Exception:
                logger.warning("lease renewal failed", exc_info=True)


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
    """For `api.act`: a running room held by a live owner is acted on by that
    owner (this process or another); returns its Result, or None to take the locked path."""
    code = normalize_code(code)
    if player is not None:
        player.pk  # noqa: B018 - evaluate a lazy request.player here, not on the event loop
    local = _local_owner(code)
    if local is not None:
        future = asyncio.run_coroutine_threadsafe(local.call(code, player, action, message_id), local.loop)
        return future.result(FORWARD_TIMEOUT)
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
    reply = f"live-reply.{uuid.uuid4().hex}"  # plain name: see Hub.start
    await layer.send(holder, wire.encode(wire.Call(code, player.pk if player else None, action, message_id, reply)))
    try:
        return await asyncio.wait_for(layer.receive(reply), FORWARD_TIMEOUT)
    except TimeoutError:
        return None

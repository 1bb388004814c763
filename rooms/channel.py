"""A process's own channel on the channel layer, and the one module that knows channels-redis
(its keys, its connection, its serializer): what the hub (rooms/hub.py) sends other processes
and reads from them, typed (rooms/wire.py).

- Sends leave in ordered batches: everything queued for one channel in one event-loop tick
  (or while the batch before it was on its way) goes as one layer message, in one pipelined
  Redis round trip.
- Reads take everything waiting at once: a blocking pop of the first message, one pop of
  the rest.
- The rooms' process groups are joined again every MEMBERSHIP_SECONDS, every room in one
  round trip; when the layer answers again after failing, the hub is told (`back`): pushes
  sent meanwhile were lost.

Without channels-redis on one host (the tests' in-memory layer, a sharded one) each of these
is the layer's own call.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable

from channels.layers import get_channel_layer

from . import push, wire
from .push import group_name

logger = logging.getLogger(__name__)

MEMBERSHIP_SECONDS = 2.0  # how often a process re-joins its rooms' groups (one round trip for all)
OUTBOX_BATCH = 200  # messages for one process channel in one layer message, at most


class ProcessChannel:
    """This process's channel: `post` to another process, `send` to any channel, the rooms'
    process groups, and the reader handing every message that arrives to `handle`."""

    def __init__(
        self,
        spawn: Callable[[Awaitable], None],
        handle: Callable[[dict], Awaitable[None]],
        watched: Callable[[], list[str]],
        back: Callable[[], Awaitable[None]],
    ):
        self.layer = get_channel_layer()
        self.name = ""  # set by open()
        self.away = False  # a channel-layer call failed since the last resync
        self._spawn, self._handle, self._watched, self._back = spawn, handle, watched, back
        self._push_failures = push.layer_failures  # push's count of lost pushes at the last resync
        # What this process queued for other processes' channels, by channel (see post).
        self._outbox: dict[str, list[dict]] = {}
        self._reader: asyncio.Task | None = None
        self._member: asyncio.Task | None = None

    def open(self) -> None:
        if not self.name:
            # A plain channel name, not new_channel()'s process-specific one: channels-redis
            # shares one reader among those, and a second long-lived reader starved the
            # sockets' own (their pushes never arrived).
            self.name = f"live.{uuid.uuid4().hex}"
            self._reader = asyncio.ensure_future(self._read())
            self._member = asyncio.ensure_future(self._memberships())

    def stop(self) -> None:
        for task in (self._reader, self._member):
            if task is not None:
                task.cancel()

    # sending ------------------------------------------------------------------------------
    def post(self, channel: str, message: wire.Message) -> None:
        """Queue `message` for another process's channel. What is queued for one channel
        leaves in order, in one layer message per batch: all that was queued in the same
        event-loop tick, or while the batch before it was on its way (a room spread over two
        processes sent each move, answer and push across Redis one by one, eight round
        trips each, and saturated two processes at 250 moves/s)."""
        queue = self._outbox.get(channel)
        if queue is None:
            queue = self._outbox[channel] = []
            self._spawn(self._drain(channel, queue))  # starts after this tick: its batch fills first
        queue.append(wire.encode(message))

    async def _drain(self, channel: str, queue: list[dict]) -> None:
        """Send `channel`'s queue until it is empty, one batch at a time (one sender per
        channel: batches never overtake each other)."""
        try:
            while queue:
                batch = queue[:OUTBOX_BATCH]
                del queue[:OUTBOX_BATCH]
                await self.send(channel, batch[0] if len(batch) == 1 else wire.encode(wire.Batch(batch)), fast=True)
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

    async def send(self, channel: str, message: wire.Message | dict, fast: bool = False) -> None:
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
            self.away = True
            logger.warning("live send failed", exc_info=True)

    async def push_group(self, code: str, message: wire.Message) -> bool:
        """Send `message` to every process with sockets of `code` (its process group)."""
        try:
            await self.layer.group_send(group_name(code), wire.encode(message))
        except Exception:  # the layer is away: a resync follows its return
            self.away = True
            logger.warning("room refresh push failed", exc_info=True)
            return False
        return True

    async def hello(self, code: str) -> None:
        """This process owns `code` now: the processes already watching it learn so."""
        try:
            await self.layer.group_send(group_name(code), wire.encode(wire.Hello(code, self.name)))
        except Exception:
            logger.warning("live hello failed", exc_info=True)

    # the rooms' process groups ------------------------------------------------------------
    async def group(self, what: str, code: str) -> bool:
        """Join ("add") or leave ("discard") the process group of `code`."""
        try:
            if what == "add":
                await self.layer.group_add(group_name(code), self.name)
            else:
                await self.layer.group_discard(group_name(code), self.name)
        except Exception:  # Redis away: the socket stays open, resyncs later
            self.away = True
            logger.warning("room group %s failed for %s", what, code, exc_info=True)
            return False
        return True

    async def rejoin(self, codes: list[str]) -> bool:
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
                    await layer.group_add(group_name(code), self.name)
                return True
            shards: dict[int, list[str]] = {}
            for code in codes:
                shards.setdefault(layer.consistent_hash(group_name(code)), []).append(group_name(code))
            joined_at = time.time()
            for index, groups in shards.items():
                pipe = layer.connection(index).pipeline(transaction=False)
                for group in groups:
                    key = layer._group_key(group)
                    pipe.zadd(key, {self.name: joined_at})
                    pipe.expire(key, layer.group_expiry)
                await pipe.execute()
        except Exception:  # Redis away: the sockets stay open, resync later
            self.away = True
            logger.warning("room groups re-join failed for %d rooms", len(codes), exc_info=True)
            return False
        return True

    async def _memberships(self) -> None:
        """Join the process groups of this process's rooms again now and then, all in one
        Redis round trip (`rejoin`): Redis keeps nothing on disk, so a restarted Redis forgot
        them (and pushes would stop arriving), and a socket's join racing another's leave of
        the same room can leave the process out. (Joining again only when Redis's run id
        moved lost updates in the two-process fault test: the periodic join repairs more.)"""
        while True:
            try:
                await asyncio.sleep(MEMBERSHIP_SECONDS)
                failures = push.layer_failures  # the locked path's pushes lost in this process
                away = self.away or failures != self._push_failures
                joined = await self.rejoin(self._watched())
                if away and joined and await self._answers():
                    self._push_failures = failures
                    self.away = False
                    await self._back()
            except asyncio.CancelledError:
                return

    async def _answers(self) -> bool:
        try:
            await self.layer.group_discard("live-probe", self.name)  # one cheap round trip
        except Exception:  # noqa: BLE001 - whatever the failure, the layer does not answer
            return False
        return True

    # reading ------------------------------------------------------------------------------
    async def _read(self) -> None:
        while True:
            try:
                messages = await self._receive()
            except asyncio.CancelledError:
                return
            except Exception:  # Redis away: retry, sockets stay open
                self.away = True
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
            return [await self.layer.receive(self.name)]
        key = self.layer.prefix + self.name
        first = await redis.bzpopmin(key, timeout=self.layer.brpop_timeout)
        if first is None:
            return []
        rest = await redis.zpopmin(key, OUTBOX_BATCH)
        return [self.layer.deserialize(member) for member in [first[1], *(member for member, _score in rest)]]

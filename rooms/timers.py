"""The background work of a process's owners, one of each per process, not per room (lila's
GameProxy write-behind and scheduler tick): every owned room's clock on one timer, asleep
until the next due room; the write-behind, one transaction for every dirty room every
FLUSH_SECONDS; the unload of an owner nobody watches; the lease renewal, one round trip for
every owned room. The hub (rooms/hub.py) builds it with its rooms and sockets and the ways
to drop an owner and to run a task; the owners (rooms/owner.py) are handed `schedule` and
`wake_flusher`.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta

from django.utils import timezone

from . import actions as A
from . import lease, store
from .owner import LiveRoom
from .result import RoomError
from .store import run_db

logger = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5  # seat and room rows lag the log by at most this much
IDLE_UNLOAD_SECONDS = 120  # an owner with no sockets anywhere for this long is unloaded
CLOCK_RETRY = timedelta(milliseconds=50)  # a room's clock fires no sooner than this after it is set
CLOCK_FAILED_RETRY_SECONDS = 1.0  # a clock whose tick failed (the database away) is tried again


class Timers:
    def __init__(
        self,
        rooms: dict[str, LiveRoom],
        sockets: dict[str, set],
        leases,
        drop: Callable[..., Awaitable[None]],
        spawn: Callable[[Awaitable], None],
    ):
        self.rooms, self.sockets, self.leases = rooms, sockets, leases  # the hub's own
        self._drop, self._spawn = drop, spawn
        self._channel = ""  # the owners' process channel, which holds their leases (start)
        # The rooms' clocks, one timer for all: (when, n, owner, its due) by the earliest;
        # an entry whose owner was set again or closed since is passed over.
        self._due: list[tuple] = []
        self._due_order = itertools.count()
        self._due_changed = asyncio.Event()
        self._clock: asyncio.Task | None = None
        self._flush_wanted = asyncio.Event()
        self._flusher: asyncio.Task | None = None
        self._renewer: asyncio.Task | None = None

    def start(self, channel: str) -> None:
        """This process owns a room now: its leases are renewed, its rows written behind."""
        self._channel = channel
        if self._renewer is None:
            self._renewer = asyncio.ensure_future(self._renew())
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush_loop())

    def stop(self) -> None:
        for task in (self._flusher, self._renewer, self._clock):
            if task is not None:
                task.cancel()
        # forgotten, so that a later start() or schedule() starts them again
        self._flusher = self._renewer = self._clock = None

    # the clocks ---------------------------------------------------------------------------
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
                    self._spawn(self._tick(room))
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
            # ...nor stop for good: a countdown nobody's move ends would hold the room in it
            # forever (bench/arena.py under load: a room stayed in its countdown all arena).
            self._spawn(self._again_later(room))
            return
        if not room.closed:
            self.schedule(room)  # not yet due after all (a moment on the boundary): again soon

    async def _again_later(self, room: LiveRoom) -> None:
        """The failed tick once more: now, not at next_due() (which passes over a moment
        already gone, such as the countdown's end this tick failed to apply)."""
        await asyncio.sleep(CLOCK_FAILED_RETRY_SECONDS)
        if room.closed or room.due is not None:
            return  # gone, or its clock set again since (a move came)
        room.due = now = timezone.now()
        heapq.heappush(self._due, (now, next(self._due_order), room, now))
        self._due_changed.set()

    # the write-behind and the idle unload ------------------------------------------------
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
                            await self._drop(room, stale=True)  # a newer owner wrote: this one is stale
                for room in list(self.rooms.values()):
                    if not self.sockets.get(room.code) and not room.remote:
                        room.idle_since = room.idle_since or now
                        if now - room.idle_since > IDLE_UNLOAD_SECONDS:
                            async with room.lock:
                                await room.flush()
                                await self._drop(room)
                    else:
                        room.idle_since = None
            except asyncio.CancelledError:
                return
            except Exception:  # a failed flush is retried; the log has every move
                logger.exception("write-behind failed")
                await asyncio.sleep(1)

    # the leases ---------------------------------------------------------------------------
    async def _renew(self) -> None:
        while True:
            try:
                await asyncio.sleep(lease.RENEW_SECONDS)
                owned = list(self.rooms.items())
                if not owned:
                    continue
                held = await self.leases.renew_many([code for code, _room in owned], self._channel)  # one trip
                for (_code, room), still in zip(owned, held, strict=True):
                    if not still:
                        async with room.lock:
                            await self._drop(room)  # someone else owns it now
            except asyncio.CancelledError:
                return
            except Exception:
                logger.warning("lease renewal failed", exc_info=True)

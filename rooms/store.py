"""The live rooms' database edge: their own database thread (`run_db`) with the reconnect
retry, and the rows a live owner reads and writes (its load, the write-behind).

The owner and the hub never touch the ORM themselves: they call these through `run_db`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor

from django.db import InterfaceError, OperationalError, close_old_connections, connection, transaction
from django.utils import timezone

from players.models import Profile

from . import lifecycle, services
from .models import Room, RoomEvent, Seat

logger = logging.getLogger(__name__)

CONNECTION_LOST = (OperationalError, InterfaceError)

# --- the live rooms' own database thread ---------------------------------------------------

_DB_THREADS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def run_db(fn, *args):
    """Run `fn` on this event loop's live-rooms database thread: not channels' one sync
    thread, which the locked path may be holding while it waits for an owner (deadlock)."""
    loop = asyncio.get_running_loop()
    executor = _DB_THREADS.get(loop)
    if executor is None:
        executor = _DB_THREADS[loop] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-db")
    return await loop.run_in_executor(executor, _with_connection, fn, args)


def _with_connection(fn, args):
    close_old_connections()  # as channels does around each database call
    try:
        return once_more_if_dropped(fn)(*args)
    finally:
        close_old_connections()


def close_threads() -> None:
    for executor in list(_DB_THREADS.values()):
        executor.shutdown(wait=True)
    _DB_THREADS.clear()


def once_more_if_dropped(fn):
    """`fn` (a database call of the live path or the socket's) made once more on a fresh
    connection when the server dropped the one it ran on (pg_terminate_backend, a restart):
    the pool checks the next one. Safe to repeat: reads, the locked path's moves (their
    message id is applied once) and the write-behind (compare-and-set on the version)."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CONNECTION_LOST:
            if connection.in_atomic_block:
                raise  # the caller's transaction is gone with it: only its caller may repeat
            logger.warning("database connection lost during %s; once more", getattr(fn, "__name__", fn))
            connection.close()  # back to the pool, which discards it
            return fn(*args, **kwargs)

    return call


# --- what a live owner reads and writes ------------------------------------------------------


def write_rows(room_id, version, room_fields, seats, finished_room, finished_seats) -> bool:
    """The write-behind of one room: compare-and-set on the version (never backwards)."""
    with transaction.atomic():
        updated = Room.objects.filter(pk=room_id, version__lte=version).update(version=version, **room_fields)
        if not updated:
            return False
        for seat_id, summary in seats:
            Seat.objects.filter(pk=seat_id).update(**summary)
        if finished_room is not None:
            services.record_results(finished_room, finished_seats, timezone.now())
    return True


def write_many(snapshots: list) -> list[bool]:
    with transaction.atomic():
        return [write_rows(*snapshot) for snapshot in snapshots]


def running(code: str) -> bool:
    return Room.objects.filter(code=code, state__in=lifecycle.RUNNING).exists()


def load(code: str):
    """The room as its rows and the newer log entries say (see services.restore)."""
    room = Room.objects.filter(code=code).select_related("puzzle", "host").first()
    if room is None or room.state not in lifecycle.RUNNING:
        return None
    seats = list(room.seats.select_related("player"))
    newer = list(RoomEvent.objects.filter(room=room, version__gt=room.version).values_list("version", "data"))
    services.restore(room, seats, newer)
    seen = {
        (player_id, mid)
        for player_id, mid in RoomEvent.objects.filter(room=room)
        .exclude(message_id="")
        .values_list("seat__player_id", "message_id")
        if player_id is not None
    }
    return room, seats, seen


def profile(player_id):
    return Profile.objects.filter(pk=player_id).first()

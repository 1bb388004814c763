"""The rooms' database edge: the locked write path's transaction (`locked`), room
creation, the running view of a room for rendering, and for the live rooms their own
database thread (`run_db`) with the reconnect retry and the rows a live owner reads and
writes (its load, the write-behind). The owner and the hub never touch the ORM
themselves: they call these through `run_db`."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from django.db import IntegrityError, InterfaceError, OperationalError, close_old_connections, connection, transaction
from django.utils import timezone

from games.engines.text import _
from players.models import Profile
from stats import ratings

from . import actions as A
from . import push
from .gametypes import DEFAULT_GAME, GAME_TYPES, game_for
from .handlers import check_schedule
from .lifecycle import RUNNING
from .models import Guest, Room, RoomEvent, RoomResult, Seat
from .result import Result, RoomError, RoomNotFound
from .rules import Audience, apply, normalize_code, restore
from .signals import room_finished

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


@dataclass
class Snapshot:
    """What a live owner's rows must say (LiveRoom.snapshot): the room's fields at
    `version`, the seats whose rows differ, and when it just finished, the room and every
    seat for the results."""

    room_id: int
    version: int
    room_fields: dict
    seats: list[tuple[int, dict]]
    finished_room: Room | None = None
    finished_seats: list[Seat] | None = None


def write_snapshot(snapshot: Snapshot) -> bool:
    return write_rows(
        snapshot.room_id,
        snapshot.version,
        snapshot.room_fields,
        snapshot.seats,
        snapshot.finished_room,
        snapshot.finished_seats,
    )


def write_rows(room_id, version, room_fields, seats, finished_room, finished_seats) -> bool:
    """The write-behind of one room: compare-and-set on the version (never backwards)."""
    with transaction.atomic():
        updated = Room.objects.filter(pk=room_id, version__lte=version).update(version=version, **room_fields)
        if not updated:
            return False
        for seat_id, summary in seats:
            Seat.objects.filter(pk=seat_id).update(**summary)
        if finished_room is not None:
            record_results(finished_room, finished_seats, timezone.now())
    return True


# --- the write-behind of a whole flush: one statement per table on PostgreSQL ----------------

# The write-behind's columns and their SQL types (each column goes as a typed array).
_ROOM_TYPES = {
    "state": "varchar",
    "starts_at": "timestamptz",
    "finished_at": "timestamptz",
    "expired_at": "timestamptz",
    "expiry_reason": "varchar",
    "ends_at": "timestamptz",
}
_SEAT_TYPES = {
    "state": "jsonb",
    "status": "varchar",
    "score": "integer",
    "mistakes": "integer",
    "progress": "integer",
    "finish_seconds": "double precision",
    "place": "integer",
}


def write_many(snapshots: list[Snapshot]) -> list[bool]:
    """The write-behind of every dirty room of one flush, in one transaction. On PostgreSQL
    that is one `UPDATE ... FROM (VALUES ...)` for all the rooms (compare-and-set on each
    room's version: a room a newer writer moved on is not written, nor are its seats) and
    one for the seats of the rooms written; elsewhere (SQLite) row by row."""
    if connection.vendor != "postgresql":
        with transaction.atomic():
            return [write_snapshot(snapshot) for snapshot in snapshots]
    with transaction.atomic():
        written = _update_rooms(snapshots)
        seats = [seat for snapshot in snapshots if snapshot.room_id in written for seat in snapshot.seats]
        if seats:
            _update_seats(seats)
        for snapshot in snapshots:
            if snapshot.room_id in written and snapshot.finished_room is not None:
                record_results(snapshot.finished_room, snapshot.finished_seats, timezone.now())
    return [snapshot.room_id in written for snapshot in snapshots]


def _unnest(rows: list[list], types: list[str]) -> tuple[str, list]:
    """`rows` as one array parameter per column and the unnest(...) that zips them back
    into rows: the statement's text is the same however many rows a flush writes, so
    psycopg parses it once (with a placeholder per value it parsed each flush's statement
    anew: 6% of a live process's CPU at 50 rooms x 5 x 1 move/s)."""
    columns = [list(column) for column in zip(*rows, strict=True)] if rows else [[] for _ in types]
    return "unnest(" + ", ".join(f"%s::{kind}[]" for kind in types) + ")", columns


def _update_rooms(snapshots: list[Snapshot]) -> set[int]:
    names = list(_ROOM_TYPES)
    rows, params = _unnest(
        [[s.room_id, s.version, *(s.room_fields[name] for name in names)] for s in snapshots],
        ["bigint", "integer", *_ROOM_TYPES.values()],
    )
    assignments = ", ".join(f"{name} = v.{name}" for name in ["version", *names])
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE rooms_room AS r SET {assignments} FROM {rows} AS v(id, version, {', '.join(names)}) "
            "WHERE r.id = v.id AND r.version <= v.version RETURNING r.id",
            params,
        )
        return {room_id for (room_id,) in cursor.fetchall()}


def _update_seats(seats: list[tuple[int, dict]]) -> None:
    names = list(_SEAT_TYPES)
    values = [[seat_id, *(json.dumps(s[n]) if n == "state" else s[n] for n in names)] for seat_id, s in seats]
    rows, params = _unnest(values, ["bigint", *_SEAT_TYPES.values()])
    assignments = ", ".join(f"{name} = v.{name}" for name in names)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE rooms_seat AS s SET {assignments} FROM {rows} AS v(id, {', '.join(names)}) WHERE s.id = v.id",
            params,
        )


def running(code: str) -> bool:
    return Room.objects.filter(code=code, state__in=RUNNING).exists()


def load(code: str):
    """The room as its rows and the newer log entries say (see rules.restore)."""
    room = Room.objects.filter(code=code).select_related("puzzle", "host").first()
    if room is None or room.state not in RUNNING:
        return None
    seats = list(room.seats.select_related("player"))
    newer = list(RoomEvent.objects.filter(room=room, version__gt=room.version).values_list("version", "data"))
    restore(room, seats, newer)
    seen = [  # oldest first: the owner keeps each player's latest (owner.RecentIds)
        (player_id, mid)
        for player_id, mid in RoomEvent.objects.filter(room=room)
        .exclude(message_id="")
        .order_by("version")
        .values_list("seat__player_id", "message_id")
        if player_id is not None
    ]
    return room, seats, seen


def profile(player_id):
    return Profile.objects.filter(pk=player_id).first()


# --- the locked write path, creation, and the running view --------------------------------


def create_room(
    player,
    game: str = DEFAULT_GAME,
    level: str = "medium",
    preset: str = "standard",
    scheduled_for=None,
    host_timezone: str = "",
    now=None,
) -> Room:
    if game not in GAME_TYPES:
        raise RoomError(_("Unknown game."))
    rules = GAME_TYPES[game].initial_rules(preset)
    now = now or timezone.now()
    if scheduled_for is not None:
        check_schedule(scheduled_for, now)
    for _attempt in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    game=game,
                    host=player,
                    level=level,
                    rules=rules,
                    scheduled_for=scheduled_for,
                    host_timezone=host_timezone,
                )
                Seat.objects.create(room=room, player=player)
                if scheduled_for is not None:  # the host is the first on the guest list
                    Guest.objects.create(room=room, player=player)
                RoomEvent.objects.create(room=room, kind="create", version=0)
                return room
        except IntegrityError:  # a code collision: draw again
            continue
    raise RoomError(_("Could not create a room, please try again."))


def create_public_room(
    players,
    level: str,
    now=None,
    puzzle=None,
    ghosts=(),
    preset="standard",
    arena="",
    ends_at=None,
    berserk=(),
    start=None,
) -> Room:
    """A public race the pool formed (docs/rules.md 9): a Showdown in the Standard preset with
    no host, every player seated and ready; its Start is the pool's (`act` with no player, or
    `start` below). With `ghosts` (docs/rules.md 10: what
    replays.presenters.ghost_data made of each) the race is on their `puzzle`. An arena's room
    (docs/rules.md 12) has the arena's preset, its code, its end and its berserk players.

    With `start` (a time) the room is made in its countdown from then: the Start is applied
    by the rules in the creation's own transaction, so a caller seating many rooms at once
    (the pool's tick, an arena's round) makes each in one trip, not a creation and then a
    locked start each; nobody knows the new code yet, so there is nobody to push to."""
    rules = GAME_TYPES["showdown"].initial_rules(preset)
    for _attempt in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    game="showdown",
                    host=None,
                    level=level,
                    rules=rules,
                    public=True,
                    puzzle=puzzle,
                    ghosts=list(ghosts),
                    arena=arena,
                    ends_at=ends_at,
                    berserk=list(berserk),
                )
                seats = Seat.objects.bulk_create([Seat(room=room, player=player, ready=True) for player in players])
                RoomEvent.objects.create(room=room, kind="create", version=0)
                if start is not None:
                    save(room, seats, apply(room, seats, None, A.Start(), start, ""), start)
                return room
        except IntegrityError:  # a code collision: draw again
            continue
    raise RoomError(_("Could not create a room, please try again."))


def locked(code: str, player, action, now=None, message_id: str = "") -> Result:
    """The locked write path (outsiders use api.act, which routes a room held by a live
    owner to it first): lobby actions, and running rooms that no live owner holds. Locks the room row,
    applies what time has made due and the action, saves; pushes go out after commit."""
    now = now or timezone.now()
    with transaction.atomic():
        room = (
            Room.objects.select_for_update(of=("self",))
            .select_related("puzzle")
            .filter(code=normalize_code(code))
            .first()
        )
        if room is None:
            raise RoomNotFound(_("No room has that code. Check the code and try again."))
        if message_id and RoomEvent.objects.filter(room=room, message_id=message_id, seat__player=player).exists():
            return Result(room, _seat(room, player), changed=False, duplicate=True)
        seats = list(room.seats.select_related("player"))
        if room.state in RUNNING:
            restore(
                room,
                seats,
                RoomEvent.objects.filter(room=room, version__gt=room.version).values_list("version", "data"),
            )
        result = apply(room, seats, player, action, now, message_id)
        if result.changed:
            save(room, seats, result, now)
            # robust: the move is committed whatever happens to the push. If Redis is down,
            # the player still gets an answer (not a 500) and others resync on reconnect.
            transaction.on_commit(lambda: push.result_pushed(room, seats, result), robust=True)
        elif result.change.audience is Audience.MOVER and result.seat is not None:
            result.seat.save(update_fields=["state"])
        return result


def running_view(code: str):
    """(room, seats) as its rows and any newer log entries say, for rendering a view (a
    live owner writes rows behind its log); (None, None) if there is no such room."""
    room = Room.objects.filter(code=code).select_related("puzzle", "host").first()
    if room is None:
        return None, None
    seats = list(room.seats.select_related("player"))
    if room.state in RUNNING:
        restore(
            room, seats, RoomEvent.objects.filter(room=room, version__gt=room.version).values_list("version", "data")
        )
    return room, seats


def save(room, seats, result, now) -> None:
    """Write a changed room on the locked path: the room, its seats, the log entry and,
    when it just finished, everyone's result."""
    room.save()
    for seat in seats:
        seat.save()
    for event in result.change.events:
        RoomEvent.objects.create(
            room=room,
            seat_id=event["seat_id"],
            kind=event["kind"],
            data=event["data"],
            message_id=event["message_id"],
            version=event["version"],
            created_at=now,
        )
    if result.change.room_changed and room.state == Room.State.FINISHED:
        record_results(room, seats, now)


def _seat(room, player):
    return room.seats.filter(player=player).first() if player is not None else None


def record_results(room, seats, now):
    """Everyone's result of a finished room and, for a rated Showdown, the rating changes
    (idempotent: one row per player and room)."""
    game = game_for(room)
    for seat in seats:
        RoomResult.objects.get_or_create(
            player_id=seat.player_id,
            room_code=room.code,
            defaults=dict(
                game=room.game,
                placement=seat.place,
                player_count=len(seats),
                status=seat.status,
                seconds=seat.finish_seconds,
                score=seat.score,
                finished_at=room.finished_at or now,
                in_totals=game.in_totals(room),
                summary=game.result_summary(room, seat),
            ),
        )
    ratings.rate_room(room, seats, now)  # once per room (its own unique rows), in this transaction
    transaction.on_commit(lambda: room_finished.send(Room, room_id=room.pk), robust=True)

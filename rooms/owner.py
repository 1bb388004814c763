"""A running room's one owner (countdown, playing), in one process: `LiveRoom`.

It holds the room's state in memory (room, seats, boards) and applies every action for
that room in order, through the same rules as the locked write path (rooms/rules.py
`apply`) and the same game-type interface. A change is durable before anyone hears of
it: the owner appends it to the move log and only then answers the mover and has the
others told. The seat and room rows are written behind (by the hub's flusher, and at once
when a seat or the room changes state); a new owner rebuilds the room from the rows plus
the log entries newer than them (each carries the summaries of what it changed).

The owner imports none of its edges: the hub (rooms/hub.py) builds it with the move log,
the row writer, the publisher and its own drop passed in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from django.utils import timezone

from . import lifecycle, movelog, store
from .gametypes import game_for
from .lifecycle import RUNNING
from .models import Room, Seat
from .result import Result, RoomError
from .rules import ROOM_FIELDS, Audience, apply, seat_of, seat_summary
from .store import CONNECTION_LOST

logger = logging.getLogger(__name__)


class Moved(RoomError):
    """This process lost the room (its lease ran out and another owner wrote first)."""


class RecentIds:
    """The latest WINDOW message ids of each player, oldest first: a message re-sent after a
    reconnect is answered as a duplicate without a trip to the log. An older id is refused
    by the log's unique key instead (movelog.Duplicate), so the owner's memory stays bounded
    however long a room lives (it held every id of every move)."""

    WINDOW = 256

    def __init__(self, pairs=()):
        self._ids: dict[int, dict[str, None]] = {}
        for pair in pairs:
            self.add(pair)

    def __contains__(self, pair) -> bool:
        player_id, message_id = pair
        return message_id in self._ids.get(player_id, {})

    def add(self, pair) -> None:
        player_id, message_id = pair
        ids = self._ids.setdefault(player_id, {})
        ids.pop(message_id, None)
        ids[message_id] = None
        while len(ids) > self.WINDOW:
            del ids[next(iter(ids))]

    def __len__(self) -> int:
        return sum(len(ids) for ids in self._ids.values())


class LiveRoom:
    """One running room's owner. Its edges are passed in, never imported (lila's
    socketSend): `log(room_id, event, now)` appends a change to the move log (durable when it
    returns), `write(snapshot)` writes the rows behind it (False: a newer writer moved the
    room on), `publish(owner, result)` tells everyone else, `drop(owner, stale=False)` gives
    the room up, `changed()` says there is something to write behind, `schedule(owner)` sets its clock
    again (`next_due` moved)."""

    def __init__(
        self,
        room: Room,
        seats: list[Seat],
        seen,
        *,
        log: Callable[..., Awaitable[None]],
        write: Callable[[store.Snapshot], Awaitable[bool]],
        publish: Callable[[LiveRoom, Result], Awaitable[None]],
        drop: Callable[..., Awaitable[None]],
        changed: Callable[[], None],
        schedule: Callable[[LiveRoom], None] = lambda owner: None,
    ):
        self.room, self.seats, self.seen = room, seats, RecentIds(seen)
        self.log, self.write, self.publish, self.drop, self.changed = log, write, publish, drop, changed
        self.schedule = schedule
        self.code = room.code
        self.game = game_for(room)
        self.lock = asyncio.Lock()
        self.remote: set[str] = set()  # process channels with sockets of this room
        self.remote_languages: dict[str, list[str] | None] = {}  # their sockets' languages, as last told
        self.dirty = False
        self.written: dict[int, dict] = {s.pk: seat_summary(s) for s in seats}  # what the rows say
        self.closed = False
        self.idle_since: float | None = None
        self.due: datetime | None = None  # the moment its clock is set for (the hub's one timer keeps them all)

    def seat_of(self, player) -> Seat | None:
        return seat_of(self.seats, player)

    async def act(self, player, action, message_id: str = "", now=None) -> Result:
        """The owner applies `action`, in order with the room's others (outsiders use api.act)."""
        async with self.lock:
            if self.closed:
                raise Moved("The room moved on: try again.")
            if message_id and player is not None and (player.pk, message_id) in self.seen:
                duplicate = Result(self.room, self.seat_of(player), changed=False, duplicate=True, seats=self.seats)
                duplicate.live = self
                return duplicate
            now = now or timezone.now()
            backup = _backup(self.room, self.seats)
            try:
                result = apply(self.room, self.seats, player, action, now, message_id)
                for event in result.change.events:
                    await self.log(self.room.pk, event, now)
            except movelog.Duplicate:
                _restore(self.room, self.seats, backup)
                duplicate = Result(self.room, self.seat_of(player), changed=False, duplicate=True, seats=self.seats)
                duplicate.live = self
                return duplicate
            except (movelog.Fenced, movelog.Uncertain) as error:
                # Another owner wrote this version, or the move may be in the log or not: either
                # way this memory may be behind the log, so it goes; the next message rebuilds
                # the room from the log (a re-sent move applies once).
                _restore(self.room, self.seats, backup)
                await self.drop(self, stale=True)
                if isinstance(error, movelog.Uncertain):
                    raise  # the mover hears "try again"
                raise Moved("The room moved on: try again.") from None
            except BaseException:
                _restore(self.room, self.seats, backup)
                raise
            if message_id and player is not None and (result.changed or result.change.audience is Audience.MOVER):
                self.seen.add((player.pk, message_id))  # a re-sent pencil mark toggles once
            result.before_state = next(
                (summary["state"] for seat, summary, _ in backup[1] if seat is result.seat), None
            )
            if result.changed and (result.change.room_changed or result.change.status_changed):
                try:
                    await self.flush()  # finishes, eliminations and the room's own moves are never late
                except CONNECTION_LOST:
                    # The move is in the log already (durable, answered below): the rows follow.
                    logger.warning("write-behind of %s failed; retried by the flusher", self.code)
                    self.dirty = True
                    self.changed()
            elif result.changed or result.change.audience is Audience.MOVER:
                self.dirty = True
                self.changed()
            if result.change.room_changed:
                self.schedule(self)  # a new state or start: the clock's next moment moved
            if result.changed:
                await self.publish(self, result)  # inside the lock: pushes keep the log's order
        result.live = self  # the answer is rendered from this owner's memory
        return result

    def snapshot(self) -> store.Snapshot:
        """What the rows must say now: take it under the room's lock, so that it holds only
        acknowledged moves. Seats whose row already says the same are left out."""
        self.dirty = False
        finished = self.room.state == Room.State.FINISHED
        return store.Snapshot(
            room_id=self.room.pk,
            version=self.room.version,
            room_fields={name: getattr(self.room, name) for name in ROOM_FIELDS},
            seats=[(s.pk, summary) for s in self.seats if (summary := seat_summary(s)) != self.written.get(s.pk)],
            finished_room=self.room if finished else None,
            finished_seats=list(self.seats) if finished else None,
        )

    def written_back(self, snapshot: store.Snapshot) -> None:
        for seat_id, summary in snapshot.seats:
            self.written[seat_id] = summary

    async def flush(self) -> None:
        """Write the rows behind the log now (compare-and-set on the version: never backwards)."""
        snapshot = self.snapshot()
        if not await self.write(snapshot):
            await self.drop(self, stale=True)
            return
        self.written_back(snapshot)
        if self.room.state not in RUNNING:
            await self.drop(self)  # over: the rows say everything; the locked path takes it from here

    def next_due(self):
        """When time next makes this room move on by itself (countdown over, time limit,
        safety limit), even if nobody sends anything: the hub's clock acts on it then."""
        room = self.room
        if room.state not in RUNNING or room.starts_at is None:
            return None
        now = timezone.now()
        upcoming = [m for m in lifecycle.moments(room, self.game.time_limit) if m > now - _EPSILON] or [now]
        return min(upcoming)


_EPSILON = timedelta(milliseconds=1)


def _backup(room, seats):
    return (
        {name: getattr(room, name) for name in (*ROOM_FIELDS, "version")},
        [(s, seat_summary(s), s.ready) for s in seats],
    )


def _restore(room, seats, backup):
    room_fields, seat_fields = backup
    for name, value in room_fields.items():
        setattr(room, name, value)
    for seat, summary, ready in seat_fields:
        for name, value in summary.items():
            setattr(seat, name, value)
        seat.ready = ready

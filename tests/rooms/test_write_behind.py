"""The write-behind of one flush (rooms/store.py write_many): every dirty room in one
transaction, on PostgreSQL one UPDATE for the rooms and one for their seats, each room
compare-and-set on its version (a room a newer writer moved on is left alone, seats too)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from players.models import Profile
from rooms import store
from rooms.api import create_room
from rooms.models import Room, Seat
from rooms.rules import ROOM_FIELDS, SEAT_FIELDS

pytestmark = pytest.mark.django_db


def test_the_batched_columns_are_the_summaries_columns():
    assert tuple(store._ROOM_TYPES) == ROOM_FIELDS
    assert tuple(store._SEAT_TYPES) == SEAT_FIELDS


def snapshot(room, seat, version, score):
    fields = {"state": "playing", "starts_at": timezone.now(), "finished_at": None, "expired_at": None, "ends_at": None}
    summary = {
        "state": {"board": f"b{score}"},
        "status": "finished",
        "score": score,
        "mistakes": 1,
        "progress": 5,
        "finish_seconds": 12.5,
        "place": None,
    }
    return store.Snapshot(room.pk, version, {**fields, "expiry_reason": ""}, [(seat.pk, summary)])


def test_one_flush_writes_every_dirty_room_and_leaves_a_room_moved_on_alone():
    players = [Profile.objects.create(display_name=name) for name in ("Ada", "Grace", "Linus")]
    rooms = [create_room(player) for player in players]
    seats = [room.seats.get() for room in rooms]
    Room.objects.filter(pk=rooms[1].pk).update(version=10)  # a newer writer wrote this one
    snapshots = [snapshot(room, seat, 3, score) for score, (room, seat) in enumerate(zip(rooms, seats, strict=True))]
    with CaptureQueriesContext(connection) as queries:
        assert store.write_many(snapshots) == [True, False, True]
    for n in (0, 2):
        room, seat = Room.objects.get(pk=rooms[n].pk), Seat.objects.get(pk=seats[n].pk)
        assert (room.version, room.state, room.starts_at) == (3, "playing", snapshots[n].room_fields["starts_at"])
        assert (seat.status, seat.score, seat.state, seat.finish_seconds) == ("finished", n, {"board": f"b{n}"}, 12.5)
    moved_on = Room.objects.get(pk=rooms[1].pk)
    assert (moved_on.version, moved_on.state) == (10, "lobby")
    assert Seat.objects.get(pk=seats[1].pk).score == 0
    if connection.vendor == "postgresql":
        updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
        assert len(updates) == 2, updates  # one per table, whatever the number of rooms


def test_a_seat_state_with_any_text_in_it_is_written_as_it_was():
    """Each column goes as one array parameter (one statement text for any number of rows):
    JSON with quotes, backslashes, commas, braces and non-ASCII text, and NULLs, come back
    unchanged."""
    player = Profile.objects.create(display_name="Ada")
    room = create_room(player)
    seat = room.seats.get()
    tricky = {"notes": {"4": 6}, "text": 'a "quoted", {braced} \\ back\\slash, NULL, Ünï 数独', "none": None}
    first = snapshot(room, seat, 3, 7)
    first.seats[0][1]["state"] = tricky
    first.room_fields["starts_at"] = None
    assert store.write_many([first]) == [True]
    seat.refresh_from_db()
    room.refresh_from_db()
    assert seat.state == tricky and seat.place is None and room.starts_at is None

"""A room socket when the database goes away under it (issue 12, 5): the handshake is
closed with a code that says "try again", a message in flight is answered "try again"
and the socket stays open, and a locked-path move that lost a race for the log's next
version is answered so, with nothing applied."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.db import IntegrityError, OperationalError

from config.database import TRY_AGAIN
from rooms import api, consumers
from rooms import hub as hubs
from rooms.models import Seat
from tests.rooms.test_consumer import connect, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


class AwayRoom:
    """Room, as the handshake's lookup sees it while the server drops every connection."""

    class objects:
        calls = 0

        @classmethod
        def filter(cls, **kwargs):
            cls.calls += 1
            raise OperationalError("terminating connection due to administrator command")


async def test_a_handshake_while_the_database_is_away_closes_with_try_again(monkeypatch):
    room, ada, *_ = await setup_room(started=False)
    AwayRoom.objects.calls = 0
    monkeypatch.setattr(consumers, "Room", AwayRoom)
    _, connected, close_code = await connect(room.code, ada)
    assert not connected and close_code == consumers.CLOSE_TRY_AGAIN
    assert AwayRoom.objects.calls == 2  # made once more on a fresh connection before giving up
    monkeypatch.undo()
    c, connected, _ = await connect(room.code, ada)  # the database is back: so is the room
    assert connected
    await receive_until(c, 'id="room-body"')
    await c.disconnect()


async def test_a_move_whose_connection_dropped_is_answered_try_again_and_the_socket_stays(monkeypatch):
    room, ada, *_ = await setup_room(started=False)
    c, *_ = await connect(room.code, ada)
    await c.receive_from(timeout=5)

    async def dropped(self, consumer, incoming):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(hubs.Hub, "act", dropped)
    await c.send_to(text_data=json.dumps({"action": "ready", "mid": "m1"}))
    assert TRY_AGAIN in await c.receive_from(timeout=5)
    assert not (await sync_to_async(Seat.objects.get)(room=room, player=ada)).ready
    monkeypatch.undo()
    await c.send_to(text_data=json.dumps({"action": "ready", "mid": "m2"}))  # same socket, applied now
    await receive_until(c, 'id="room-body"')
    assert (await sync_to_async(Seat.objects.get)(room=room, player=ada)).ready
    await c.disconnect()


async def test_a_locked_path_move_that_lost_the_race_for_its_version_applies_nothing(monkeypatch):
    """With Redis away a process cannot see a live owner elsewhere, and its locked path
    writes the log's next version too: the unique (room, version) index refuses the second
    writer. Its mover hears "another move came first", and the room is as it was."""
    room, ada, *_ = await setup_room(started=False)
    c, *_ = await connect(room.code, ada)
    await c.receive_from(timeout=5)
    real = api.act

    def loses_the_race(code, player, action, message_id=""):
        raise IntegrityError('duplicate key value violates unique constraint "one_event_per_room_version"')

    monkeypatch.setattr(api, "act", loses_the_race)
    await c.send_to(text_data=json.dumps({"action": "ready", "mid": "m1"}))
    assert "Another move came first" in await c.receive_from(timeout=5)
    assert not (await sync_to_async(Seat.objects.get)(room=room, player=ada)).ready
    monkeypatch.setattr(api, "act", real)
    await c.send_to(text_data=json.dumps({"action": "ready", "mid": "m2"}))
    await receive_until(c, 'id="room-body"')
    assert (await sync_to_async(Seat.objects.get)(room=room, player=ada)).ready
    await c.disconnect()

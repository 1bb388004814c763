"""The move log's writer when the database drops a connection mid-commit (issue 12, 5): a
mover hears "try again" only for a move that is certainly not in the log, and an owner
that cannot tell rebuilds the room from the log."""

import asyncio
import json

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError, connection
from django.utils import timezone

from config.database import TRY_AGAIN
from rooms import hub as hubs
from rooms import movelog
from rooms.models import RoomEvent, Seat
from tests.conftest import EMPTY, SOLUTION, require_service
from tests.rooms.test_consumer import receive_until, setup_room
from tests.rooms.test_live import entry, started

pytestmark = pytest.mark.django_db(transaction=True)


async def postgres_log(monkeypatch, lands: list[bool], check_fails=False):
    """A PostgresLog whose INSERTs fail with a dropped connection, one per entry of
    `lands` (True: the commit reached the server before the drop), then work."""
    require_service(connection.vendor == "postgresql", "PostgreSQL (the move log's own connection)")
    log = movelog.PostgresLog()
    real_insert = movelog.PostgresLog._insert

    async def insert(conn, rows):
        if not lands:
            return await real_insert(conn, rows)
        landed = lands.pop(0)
        if landed:
            await real_insert(conn, rows)
        conn.pgconn.finish()  # the server went away: the client never hears the COMMIT's answer
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(movelog.PostgresLog, "_insert", staticmethod(insert))
    if check_fails:

        async def landed(self, rows):
            raise psycopg.OperationalError("connection refused")

        monkeypatch.setattr(movelog.PostgresLog, "_landed", landed)
    room, ada, *_ = await setup_room()
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    event = {"seat_id": seat.pk, "kind": "enter", "data": {}, "message_id": "m1", "version": room.version + 100}
    return log, room, event


def logged(room) -> int:
    return RoomEvent.objects.filter(room=room, message_id="m1").count()


@pytest.mark.parametrize(
    "lands",
    [
        [True],  # the first commit landed: the second try finds it there
        [False, True],  # the second try's commit landed, then that connection dropped too
        [True, False],  # the first landed, the second try could not even insert
    ],
)
async def test_a_commit_that_landed_before_the_drop_is_not_answered_try_again(monkeypatch, lands):
    log, room, event = await postgres_log(monkeypatch, lands)
    await log.append(room.pk, event, timezone.now())  # no error: the move is applied
    assert await sync_to_async(logged)(room) == 1
    log.close_now()


async def test_a_commit_that_never_landed_is_answered_try_again(monkeypatch):
    log, room, event = await postgres_log(monkeypatch, [False, False])
    with pytest.raises(OperationalError) as raised:
        await log.append(room.pk, event, timezone.now())
    assert not isinstance(raised.value, movelog.Uncertain)  # certain: it is not in the log
    assert await sync_to_async(logged)(room) == 0
    await log.append(room.pk, event, timezone.now())  # the connection works again
    assert await sync_to_async(logged)(room) == 1
    log.close_now()


async def test_a_commit_whose_fate_cannot_be_asked_is_uncertain(monkeypatch):
    log, room, event = await postgres_log(monkeypatch, [True, True], check_fails=True)
    with pytest.raises(movelog.Uncertain):
        await log.append(room.pk, event, timezone.now())
    log.close_now()


async def test_an_owner_unsure_whether_a_move_landed_rebuilds_the_room_from_the_log(monkeypatch):
    """The log took the move but the owner could not learn it (Uncertain): it must not keep
    a memory without the move (the next move would take the same version and be fenced,
    and a re-sent copy be refused as 'moved on' though applied). It lets the room go; the
    re-sent move is found in the log and applied once; the next move follows it."""
    room, ada, _, a = await started()
    hub = hubs.current()
    real_write = hub.log.write

    async def write_then_lose_the_answer(rows):
        await real_write(rows)
        raise movelog.Uncertain("server closed the connection unexpectedly")

    monkeypatch.setattr(hub.log, "write", write_then_lose_the_answer)
    cell = EMPTY[1]
    await a.send_to(text_data=entry(cell, "u1"))
    answer = await receive_until(a, 'id="room-message"')
    assert TRY_AGAIN in answer  # the truth as far as the owner knows: it may not have landed
    assert room.code not in hub.rooms  # the owner's memory is gone with the doubt
    monkeypatch.setattr(hub.log, "write", real_write)
    await a.send_to(text_data=entry(cell, "u1"))  # the player's page re-sends it
    await a.send_to(text_data=entry(EMPTY[2], "u2"))
    await receive_until(a, "is correct")  # (a refresh of the whole room may come first)
    assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id="u1").count)() == 1
    u2 = await sync_to_async(RoomEvent.objects.get)(room=room, message_id="u2")
    seat = u2.data["seats"][str((await sync_to_async(Seat.objects.get)(room=room, player=ada)).pk)]
    assert seat["progress"] == 2  # both moves, each once
    await a.send_to(text_data=json.dumps({"action": "sync", "mid": "s9"}))
    board = await receive_until(a, 'id="room-body"')
    assert f'data-value="{SOLUTION[cell]}"' in board
    await asyncio.sleep(0)
    await a.disconnect()


@pytest.mark.parametrize("writer", ["postgres", "orm"])
async def test_a_row_of_a_deleted_room_fails_only_itself_not_its_batch(writer):
    """Moves queued together go in one INSERT. A row for a room deleted under its owner failed
    that whole INSERT, and every other room's move in it with it (a browser run: a finished
    test's room clock ticked on in the shared daphne, and a move of the next test's room
    written beside its tick was lost: "The room is busy"). The batch is written row by row
    then: the live room's move lands, the deleted room's row is refused as Gone (a stale
    owner's, so its owner lets the room go and its clock stops)."""
    from rooms.api import create_room

    if writer == "postgres":
        require_service(connection.vendor == "postgresql", "PostgreSQL (the move log's own connection)")
        log: movelog.MoveLog = movelog.PostgresLog()
    else:

        async def run(fn, *args):
            return await sync_to_async(fn)(*args)

        log = movelog.OrmLog(run)
    room, ada, *_ = await setup_room()
    deleted = await sync_to_async(create_room)(ada, level="easy", preset="standard")
    deleted_id = deleted.pk
    await sync_to_async(deleted.delete)()
    now = timezone.now()

    def event(version):
        return {"seat_id": None, "kind": "sync", "data": {}, "message_id": f"m{version}", "version": version}

    results = await asyncio.gather(
        log.append(room.pk, event(room.version + 100), now),
        log.append(deleted_id, event(101), now),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], movelog.Gone)
    assert await sync_to_async(RoomEvent.objects.filter(room=room, version=room.version + 100).count)() == 1
    log.close_now()

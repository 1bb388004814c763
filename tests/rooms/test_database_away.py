"""A database connection dropped while a message or request is in flight costs that one
message or request, answered "try again": the socket stays open (no 1011) and the page
is no 500 (issue 12, 5). The fault runs (tests/resilience) drop real connections."""

import json

import pytest
from django.db import OperationalError

from config.database import TRY_AGAIN
from rooms import hub as hubs
from rooms import store
from tests.rooms.test_consumer import connect, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_move_whose_log_write_lost_the_database_is_answered_try_again(monkeypatch):
    room, ada, *_ = await setup_room()
    a, *_ = await connect(room.code, ada)
    await receive_until(a, 'id="room-body"')
    log = hubs.current().log
    real_write, failures = log.write, []

    async def dropped(rows):
        if not failures:
            failures.append(rows)
            raise OperationalError("terminating connection due to administrator command")
        await real_write(rows)

    monkeypatch.setattr(log, "write", dropped)
    await a.send_to(text_data=json.dumps({"cell": "2", "digit": "4", "mode": "enter", "mid": "m1"}))
    assert TRY_AGAIN in await receive_until(a, "try again")
    owner = hubs.current().rooms[room.code]
    assert owner.seats[0].state.get("cells", "")[2] in ("", "0")  # nothing applied in memory either
    await a.send_to(text_data=json.dumps({"cell": "2", "digit": "4", "mode": "enter", "mid": "m1"}))
    answer = await receive_until(a, 'id="room-version"')  # the same message again: applied now
    assert 'data-cell="2"' in answer and failures
    await a.disconnect()


def test_a_request_whose_database_connection_dropped_gets_503_try_again(player_client, run, monkeypatch):
    from games.sudoku import solo

    def dropped(*args, **kwargs):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(solo, "act", dropped)
    answer = player_client.post(f"/solo/{run.pk}/act/", {"cell": "2", "digit": "4"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 503 and TRY_AGAIN in answer.content.decode()
    assert answer["HX-Retarget"] == "#flash" and answer["Retry-After"]
    page = player_client.post(f"/solo/{run.pk}/act/", {"cell": "2", "digit": "4"})
    assert page.status_code == 503 and TRY_AGAIN in page.content.decode()


async def test_an_owner_that_could_not_load_its_room_leaves_no_lease_behind(monkeypatch):
    """A load that lost the database twice: the lease it took is given back, so other
    processes do not forward the room's messages to a process that owns nothing."""
    room, ada, *_ = await setup_room()
    hub = hubs.current()
    real_load, failures = store.load, []

    def dropped(code):
        if len(failures) < 2:  # the call and its one retry on a fresh connection
            failures.append(code)
            raise OperationalError("terminating connection due to administrator command")
        return real_load(code)

    monkeypatch.setattr(store, "load", dropped)
    a, connected, _ = await connect(room.code, ada)
    assert connected
    assert TRY_AGAIN in await receive_until(a, "try again")  # the socket stays, told to try again
    assert failures and room.code not in hub.rooms
    assert await hub.leases.holder(room.code) is None
    await a.send_to(text_data=json.dumps({"cell": "2", "digit": "4", "mode": "enter", "mid": "m1"}))
    await receive_until(a, 'id="room-version"')  # the next message loads the owner and is applied
    assert await hub.leases.holder(room.code) == hub.channel
    await a.disconnect()

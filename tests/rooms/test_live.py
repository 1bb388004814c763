"""The live owner of a running room (rooms/owner.py, rooms/hub.py): every move durable before its answer,
rows written behind, a room rebuilt from rows plus log, one owner per room, a stale owner
fenced off, and answers that carry only what changed."""

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async

from games.sudoku.play import Enter
from rooms import forwarding, lease, movelog, store, timers, wire
from rooms import hub as hubs
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, RoomEvent, Seat
from tests.conftest import EMPTY, SOLUTION
from tests.rooms.test_consumer import connect, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


def entry(cell, mid, digit=None):
    return json.dumps({"cell": str(cell), "digit": str(digit or SOLUTION[cell]), "mode": "enter", "mid": mid})


async def started(monkeypatch=None):
    """A running race with Ada's socket connected and the countdown already applied."""
    room, ada, grace, _watcher = await setup_room()
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    await a.send_to(text_data=json.dumps({"action": "sync", "mid": "s0"}))
    await receive_until(a, 'id="room-body"')
    return room, ada, grace, a


async def test_the_owner_is_loaded_when_a_socket_connects_to_a_running_room():
    room, ada, *_ = await setup_room()
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    assert room.code in hubs.current().rooms
    assert await hubs.current().leases.holder(room.code) == hubs.current().channel
    await a.disconnect()


async def test_a_socket_of_a_lobby_takes_no_lease_and_lobby_messages_take_the_locked_path():
    # A lease taken only to find out the room was not running made a second process
    # forward (or refuse) lobby messages meanwhile: a ready was lost and the room never started.
    room, ada, grace, _ = await setup_room(started=False)
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    assert await hubs.current().leases.holder(room.code) is None
    assert room.code not in hubs.current().rooms
    await a.send_to(text_data=json.dumps({"action": "ready", "mid": "r1"}))
    await receive_until(a, 'id="room-body"')
    assert await sync_to_async(lambda: Seat.objects.get(room=room, player=ada).ready)()
    # A lobby action from a view, with another process's lease left on the room, is applied.
    await hubs.current().leases.acquire(room.code, "live.another-process")
    assert await sync_to_async(ready_up)(room, grace)
    await hubs.current().leases.release(room.code, "live.another-process")
    await a.disconnect()


async def test_a_board_move_from_another_process_s_locked_path_is_applied_by_the_owner():
    # A view, a task or a test in another process hands any plain action to the owner.
    from rooms import actions as A

    room, _ada, grace, a = await started()
    cell = EMPTY[2]
    move = A.GameMove(Enter(cell, int(SOLUTION[cell])))
    assert wire.action_from(wire.action_to(move), GAME_TYPES["showdown"]) == move
    reply = f"live-reply.{room.code.lower()}"
    await hubs.current()._handle(
        {
            "type": "live.call",
            "code": room.code,
            "player": grace.pk,
            "action": wire.action_to(move),
            "mid": "far1",
            "reply": reply,
        }
    )
    answer = await hubs.current().transport.layer.receive(reply)
    assert answer == {"changed": True, "duplicate": False}
    event = await sync_to_async(RoomEvent.objects.get)(room=room, message_id="far1")
    assert event.data["outcome"] == "correct"
    with pytest.raises(TypeError):  # not a game type's typed move: nothing to send
        wire.action_to(A.GameMove(object()))
    await a.disconnect()


def ready_up(room, player) -> bool:
    from rooms import actions as A
    from rooms.api import act

    act(room.code, player, A.SetReady(True), message_id="g1")
    return Seat.objects.get(room=room, player=player).ready


async def test_a_move_is_in_the_log_before_its_answer_and_the_rows_follow(monkeypatch):
    monkeypatch.setattr(timers, "FLUSH_SECONDS", 0.05)
    room, ada, _, a = await started()
    cell = EMPTY[1]
    await a.send_to(text_data=entry(cell, "m1"))
    answer = await receive_until(a, 'id="room-message"')
    assert "is correct" in answer
    # The answer came after the INSERT: the log already has the move and Ada's new seat.
    event = await sync_to_async(RoomEvent.objects.get)(room=room, message_id="m1")
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    assert event.data["seats"][str(seat.pk)]["progress"] == 1
    await asyncio.sleep(0.5)  # written behind within FLUSH_SECONDS
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    room_row = await sync_to_async(Room.objects.get)(pk=room.pk)
    assert seat.progress == 1 and seat.score == 10 and room_row.version == event.version
    await a.disconnect()


async def test_a_correct_entry_answers_with_its_own_cell_and_no_other():
    _room, _ada, _, a = await started()
    cell = EMPTY[1]
    await a.send_to(text_data=entry(cell, "m1"))
    answer = await receive_until(a, 'id="room-message"')
    assert re.findall(r'id="cell-(\d+)"', answer) == [str(cell)]
    assert 'id="board"' not in answer and 'id="room-body"' not in answer
    assert len(answer.encode()) < 3000
    # The digit is the one just entered; no other digit of the solution travels with it.
    assert f'data-value="{SOLUTION[cell]}"' in answer and answer.count("data-value=") == 1
    await a.disconnect()


async def test_an_owner_that_dies_before_writing_behind_is_rebuilt_from_the_log(monkeypatch):
    monkeypatch.setattr(timers, "FLUSH_SECONDS", 3600)  # nothing is written behind in this test
    room, ada, _, a = await started()
    for i, cell in enumerate(EMPTY[1:3]):
        await a.send_to(text_data=entry(cell, f"m{i}"))
        await receive_until(a, 'id="room-message"')
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    assert seat.progress == 0  # the rows lag: only the log has the two moves
    hub = hubs.current()
    owner = hub.rooms[room.code]
    await hub.drop(owner)  # as if its process died (no flush)
    rebuilt_room, seats, seen = await store.run_db(store.load, room.code)
    rebuilt = next(s for s in seats if s.player_id == ada.pk)
    assert rebuilt.progress == 2 and rebuilt.score == 20
    assert rebuilt.state["cells"][EMPTY[1]] == SOLUTION[EMPTY[1]]
    assert rebuilt_room.version == owner.room.version
    assert (ada.pk, "m0") in seen and (ada.pk, "m1") in seen  # a re-sent message applies once
    await a.disconnect()


async def test_a_message_re_sent_after_a_reconnect_applies_once():
    room, ada, _, a = await started()
    cell = EMPTY[1]
    await a.send_to(text_data=entry(cell, "same"))
    await receive_until(a, 'id="room-message"')
    await a.send_to(text_data=entry(EMPTY[2], "same"))  # the same id again: a duplicate
    await a.send_to(text_data=json.dumps({"action": "sync", "mid": "s1"}))
    await receive_until(a, 'id="room-body"')
    assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id="same").count)() == 1
    owner = hubs.current().rooms[room.code]
    assert next(s for s in owner.seats if s.player_id == ada.pk).progress == 1
    await a.disconnect()


async def test_two_processes_asked_to_own_a_room_at_once_exactly_one_wins():
    room, *_ = await setup_room()
    leases = lease.for_settings()
    won = await asyncio.gather(*(leases.acquire(room.code, f"live.process-{i}") for i in range(6)))
    assert won.count(True) == 1
    winner = f"live.process-{won.index(True)}"
    assert await leases.holder(room.code) == winner
    assert not await leases.renew(room.code, "live.someone-else")
    await leases.release(room.code, "live.someone-else")  # only the holder can release
    assert await leases.holder(room.code) == winner
    await leases.release(room.code, winner)
    assert await leases.holder(room.code) is None


async def test_an_owner_whose_lease_was_forgotten_takes_it_again_on_renewal():
    """A restarted Redis forgot every lease (or one ran out while its owner could not reach
    Redis): the owner keeps the room instead of dropping it to the locked path."""
    room, *_ = await setup_room()
    leases = lease.for_settings()
    assert await leases.acquire(room.code, "live.owner")
    await leases.release(room.code, "live.owner")  # forgotten
    assert await leases.renew(room.code, "live.owner")
    assert await leases.holder(room.code) == "live.owner"
    assert not await leases.renew(room.code, "live.other")  # held: never taken over by renewal
    await leases.release(room.code, "live.owner")


async def test_one_round_trip_renews_every_lease_of_a_process_and_refuses_the_ones_held_elsewhere():
    room, *_ = await setup_room()
    leases = lease.for_settings()
    codes = [room.code, "RENEWFREE1", "RENEWTAKEN"]
    assert await leases.acquire(room.code, "live.owner")
    assert await leases.acquire("RENEWTAKEN", "live.other")
    # Held: renewed; forgotten (nobody holds it): taken again; held by another: refused.
    assert await leases.renew_many(codes, "live.owner") == [True, True, False]
    assert [await leases.holder(code) for code in codes] == ["live.owner", "live.owner", "live.other"]
    assert await leases.renew_many([], "live.owner") == []
    for code, holder in zip(codes, ["live.owner", "live.owner", "live.other"], strict=True):
        await leases.release(code, holder)


async def test_a_stale_owner_is_fenced_and_a_duplicate_is_refused_by_the_log():
    room, ada, *_ = await setup_room()
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    log = movelog.for_database(store.run_db)
    version = room.version + 100

    def event(mid, v):
        return {"seat_id": seat.pk, "kind": "enter", "data": {}, "message_id": mid, "version": v}

    from django.utils import timezone

    await log.append(room.pk, event("first", version), timezone.now())
    with pytest.raises(movelog.Fenced):  # another owner already wrote this version
        await log.append(room.pk, event("second", version), timezone.now())
    with pytest.raises(movelog.Duplicate):  # this message was applied already
        await log.append(room.pk, event("first", version + 1), timezone.now())
    assert await sync_to_async(RoomEvent.objects.filter(room=room, version=version).count)() == 1
    log.close_now()


async def test_writing_behind_never_goes_backwards():
    room, _ada, *_ = await setup_room()
    fresh = await sync_to_async(Room.objects.get)(pk=room.pk)
    fields = {
        "state": fresh.state,
        "starts_at": fresh.starts_at,
        "finished_at": None,
        "expired_at": None,
        "expiry_reason": "",
    }
    assert await store.run_db(store.write_rows, room.pk, fresh.version + 5, fields, [], None, None)
    # An older owner's late write is refused (compare-and-set on the version).
    assert not await store.run_db(store.write_rows, room.pk, fresh.version + 4, fields, [], None, None)
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).version == fresh.version + 5


async def test_a_forwarded_move_whose_answer_was_lost_with_redis_is_answered_by_the_locked_path(monkeypatch):
    """Redis away from this process: a move forwarded to the owner elsewhere was applied
    there, but its answer cannot come back. Nobody can be asked who owns the room now, so
    the locked path takes the message; it finds it applied (a duplicate) and answers the
    mover with its game as logged, instead of leaving it waiting forever."""
    from rooms import actions as A
    from rooms.api import act

    monkeypatch.setattr(forwarding, "FORWARD_CHECK_SECONDS", 0.1)
    room, ada, *_ = await setup_room()
    cell = EMPTY[3]
    # The owner elsewhere applied it (here: the locked path, before anyone owned the room).
    await sync_to_async(act)(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))), message_id="lost1")
    hub = hubs.current()
    await hub.start()
    await hub.leases.acquire(room.code, "live.another-process")
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    assert room.code not in hub.rooms  # owned elsewhere
    await a.send_to(text_data=entry(cell, "lost1"))
    await asyncio.sleep(0.05)  # forwarded; now Redis goes away from this process
    await hub.leases.release(room.code, "live.another-process")

    async def unavailable(*args):
        return None if args[1:] == () else False

    monkeypatch.setattr(hub.leases, "holder", lambda code: unavailable(code))
    monkeypatch.setattr(hub.leases, "acquire", lambda code, channel: unavailable(code, channel))
    answer = await receive_until(a, 'id="room-version"')
    logged = await sync_to_async(RoomEvent.objects.get)(room=room, message_id="lost1")
    assert f'name="version" value="{logged.version}"' in answer  # the version the log gave it
    assert f'data-cell="{cell}"' in answer
    assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id="lost1").count)() == 1
    await a.disconnect()


async def test_an_owner_fenced_by_another_writer_refreshes_every_socket_of_the_room():
    """Another writer moved the room on behind this owner's back (a process that could not
    see it while Redis was away took the locked path): the owner's next write is fenced,
    its mover hears "the room moved on", and every socket gets the room as the log says
    (what this owner had pushed was behind it)."""
    from rooms import actions as A
    from rooms.rules import apply

    room, _ada, grace, a = await started()
    g, *_ = await connect(room.code, grace)
    await g.receive_from(timeout=5)
    owner = hubs.current().rooms[room.code]
    cell = EMPTY[4]

    def foreign_write():  # the next version, written by someone else than this owner
        from django.utils import timezone

        copy = Room.objects.get(pk=room.pk)
        seats = list(copy.seats.select_related("player"))
        copy.version = owner.room.version
        result = apply(copy, seats, grace, A.GameMove(Enter(cell, int(SOLUTION[cell]))), timezone.now(), "foreign1")
        RoomEvent.objects.create(
            room=copy,
            seat_id=result.change.event["seat_id"],
            kind="enter",
            data=result.change.event["data"],
            message_id="foreign1",
            version=result.change.event["version"],
        )
        return result.change.event["version"]

    foreign = await sync_to_async(foreign_write)()
    await a.send_to(text_data=entry(EMPTY[5], "mine1"))
    assert "moved on" in await receive_until(a, "moved on")
    assert room.code not in hubs.current().rooms  # dropped: the next message loads it from the log
    refreshed = await receive_until(g, 'id="room-body"')  # Grace, who sent nothing, is brought up to date
    assert f'name="version" value="{foreign}"' in refreshed
    for c in (a, g):
        await c.disconnect()


async def test_the_owner_keeps_a_bounded_window_of_message_ids_and_the_log_refuses_older_ones(monkeypatch):
    """Issue 28, item 8: the in-memory set of applied message ids grew with every move for
    the room's whole life. Now each player's latest WINDOW ids are kept; a re-sent older one
    is still applied once (the log's unique key)."""
    from rooms import owner as owners

    monkeypatch.setattr(owners.RecentIds, "WINDOW", 2)
    room, ada, _, a = await started()
    for n, cell in enumerate(EMPTY[1:5]):
        await a.send_to(text_data=entry(cell, f"m{n}"))
        await receive_until(a, 'id="room-message"')
    owner = hubs.current().rooms[room.code]
    assert len(owner.seen) <= 2 * 2  # Ada's two latest (and the other players')
    assert (ada.pk, "m3") in owner.seen and (ada.pk, "m0") not in owner.seen
    await a.send_to(text_data=entry(EMPTY[6], "m0"))  # an old id, out of the window
    await a.send_to(text_data=json.dumps({"action": "sync", "mid": "s9"}))
    await receive_until(a, 'id="room-body"')
    assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id="m0").count)() == 1
    assert next(s for s in owner.seats if s.player_id == ada.pk).progress == 4
    await a.disconnect()


async def test_a_room_spread_over_two_processes_hears_every_move(monkeypatch):
    """A room whose sockets are on a process that does not own it (a proxy without hash
    routing): each move crosses to the owner and its answer and the room's standings come
    back. With the layer slow (a Redis round trip), a burst of moves is answered in full and
    the other player gets every move's standings, none skipped."""
    room, ada, grace, _watcher = await setup_room()
    here = hubs.current()
    owner_hub = hubs.Hub(asyncio.get_running_loop())  # the other process, owner of the room
    await owner_hub.start()
    await here.start()
    crossings: list[tuple[str, str]] = []

    def slowed(real_send):
        async def slow_send(channel, message, fast=False):
            # What crossed, a batch's messages each (wire.Batch: what was queued meanwhile).
            message = message if isinstance(message, dict) else wire.encode(message)
            for each in message["messages"] if message["type"] == "live.batch" else [message]:
                crossings.append((channel, each["type"]))
            await asyncio.sleep(0.02)  # a round trip to Redis
            await real_send(channel, message, fast)

        return slow_send

    for hub in (here, owner_hub):  # what each process sends the other (ProcessChannel.send)
        monkeypatch.setattr(hub.transport, "send", slowed(hub.transport.send))
    try:
        owner = await owner_hub.owner(room.code, load=True)
        assert owner is not None and room.code not in here.rooms
        a, *_ = await connect(room.code, ada)
        g, *_ = await connect(room.code, grace)
        await a.receive_from(timeout=5)
        await g.receive_from(timeout=5)
        cells = EMPTY[:10]
        for n, cell in enumerate(cells):
            await a.send_to(text_data=entry(cell, f"burst{n}"))
        answered: set[int] = set()
        while len(answered) < len(cells):
            html = await a.receive_from(timeout=5)
            answered |= {int(v) for v in re.findall(r'id="room-version"[^>]*value="(\d+)"', html)}
        last = owner.room.version
        assert max(answered) == last and len(answered) == len(cells)  # every move answered
        # The burst's first move also started play (every view again); each later one is a
        # standings push of its own, and the other player gets every one of them.
        wanted, seen = answered - {min(answered)}, set()
        while not wanted <= seen:
            html = await g.receive_from(timeout=5)
            seen |= {int(v) for v in re.findall(r'<section id="standings"[^>]*data-version="(\d+)"', html)}
        assert wanted <= seen and last in seen  # none skipped, the last one included
        assert any(kind == "live.act" for _channel, kind in crossings)  # the moves did cross
        assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id__startswith="burst").count)() == 10
        await a.disconnect()
        await g.disconnect()
    finally:
        owner_hub.stop()
        owner_hub.log.close_now()


async def test_every_room_s_clock_runs_on_one_timer_and_moves_its_room_on_without_a_message(settings):
    """Room clocks are one timer per process, asleep until the next due room (a task per
    room woke for nothing): two rooms in their countdown go to playing by themselves, the
    earlier first, each socket told, with nobody sending anything."""
    import datetime as dt

    from django.utils import timezone

    from rooms import actions as A
    from rooms.api import act, create_room

    settings.COUNTDOWN_SECONDS = 3

    @sync_to_async
    def counting_down(room, ada, grace, delay):
        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        act(room.code, ada, A.Start(), now=timezone.now() + dt.timedelta(seconds=delay))

    first, ada, grace, _watcher = await setup_room(started=False)
    await counting_down(first, ada, grace, 0)

    @sync_to_async
    def second_room():
        from games.models import Puzzle
        from tests.conftest import PUZZLE

        # A puzzle of its own: a room's puzzle is never dealt again (on PostgreSQL the bank's
        # pick skips the first room's, and this test alone found the bank empty)
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=2)
        room = create_room(grace, level="easy")
        act(room.code, ada, A.Join())
        return room

    second = await second_room()
    await counting_down(second, grace, ada, 1.5)
    hub = hubs.current()
    a, *_ = await connect(first.code, ada)
    b, *_ = await connect(second.code, grace)
    await a.receive_from(timeout=5)
    await b.receive_from(timeout=5)
    owners = [hub.rooms[first.code], hub.rooms[second.code]]
    assert [o.room.state for o in owners] == ["countdown", "countdown"]
    assert {entry[2] for entry in hub.timers._due} == set(owners) and hub.timers._clock is not None
    clock = hub.timers._clock
    await receive_until(a, 'id="room-body"')  # the first room's refresh: playing now
    assert owners[0].room.state == "playing" and owners[1].room.state == "countdown"
    await receive_until(b, 'id="room-body"')
    assert owners[1].room.state == "playing"
    assert hub.timers._clock is clock and not clock.done()  # one task for every room, still asleep
    for room in (first, second):
        saved = await sync_to_async(RoomEvent.objects.filter(room=room, kind="sync").count)()
        assert saved == 1  # the clock's own action, logged like any other
    await a.disconnect()
    await b.disconnect()


def note(cell, digit, mid):
    return json.dumps({"cell": str(cell), "digit": str(digit), "mode": "note", "mid": mid})


async def test_pencil_marks_write_no_log_rows_and_survive_the_owner_going(monkeypatch):
    """Issue 28, item 8: a player toggling pencil marks wrote a move-log row per toggle (18 a
    second, about 1.5 KB each, for the room's life). Marks score nothing: they stay out of
    the log, are written behind with the seat's row (at most FLUSH_SECONDS later) and ride
    in every later logged move's seat summary, so a new owner rebuilds them; a re-sent toggle
    applies once. (Lost on a kill -9: only marks toggled in the last FLUSH_SECONDS with no
    logged move after them.)"""
    monkeypatch.setattr(timers, "FLUSH_SECONDS", 0.1)
    room, ada, _, a = await started()
    events = await sync_to_async(RoomEvent.objects.filter(room=room).count)()
    cell = EMPTY[3]
    for i, digit in enumerate([1, 2, 3, 4, 5, 6, 7, 8, 9] * 2 + [2]):  # 19 toggles: 2 is left on
        await a.send_to(text_data=note(cell, digit, f"n{i}"))
        await receive_until(a, f'id="cell-{cell}"')
        await asyncio.sleep(0.1)  # under the socket's rate (10 a second)
    await a.send_to(text_data=note(cell, 2, "n18"))  # re-sent after a reconnect: no second toggle
    await a.send_to(text_data=note(EMPTY[5], 4, "n30"))  # handled after it, in order
    await receive_until(a, "notes 4")
    assert await sync_to_async(RoomEvent.objects.filter(room=room).count)() == events  # not one row
    await asyncio.sleep(0.5)  # written behind
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    assert seat.state["notes"][cell] == 1 << 2
    hub = hubs.current()
    await hub.drop(hub.rooms[room.code])  # the owner goes; the next one loads rows + log
    _room, seats, _seen = await store.run_db(store.load, room.code)
    assert next(s for s in seats if s.player_id == ada.pk).state["notes"][cell] == 1 << 2
    # a logged move after more marks carries them: rebuilt from the log even before the rows
    monkeypatch.setattr(timers, "FLUSH_SECONDS", 3600)
    await a.send_to(text_data=note(EMPTY[4], 7, "n19"))
    await receive_until(a, "notes 7")
    await a.send_to(text_data=entry(EMPTY[1], "m1"))
    await receive_until(a, 'id="room-message"')
    owner = hub.rooms[room.code]
    await hub.drop(owner)
    _room, seats, _seen = await store.run_db(store.load, room.code)
    assert next(s for s in seats if s.player_id == ada.pk).state["notes"][EMPTY[4]] == 1 << 7
    await a.disconnect()


async def test_a_room_clock_whose_tick_failed_fires_again(settings, monkeypatch):
    """A clock's tick that fails (the database away under load) is tried again a moment later:
    it used to stop for good, and a countdown nobody's move ends held its room in the
    countdown for the whole arena (bench/arena.py)."""
    import datetime as dt

    from django.utils import timezone

    from rooms import actions as A
    from rooms.api import act
    from rooms.owner import LiveRoom

    settings.COUNTDOWN_SECONDS = 1
    monkeypatch.setattr(timers, "CLOCK_FAILED_RETRY_SECONDS", 0.2)
    room, ada, grace, _watcher = await setup_room(started=False)

    @sync_to_async
    def count_down():
        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        act(room.code, ada, A.Start(), now=timezone.now() + dt.timedelta(seconds=0.5))

    await count_down()
    live_act, failed = LiveRoom.act, []

    async def failing_once(self, player, action, *args, **kwargs):
        if player is None and isinstance(action, A.Sync) and not failed:
            failed.append(action)
            raise ConnectionError("the database went away")
        return await live_act(self, player, action, *args, **kwargs)

    monkeypatch.setattr(LiveRoom, "act", failing_once)
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    owner = hubs.current().rooms[room.code]
    assert owner.room.state == "countdown"
    await receive_until(a, 'id="room-body"')  # the retried clock's refresh: playing now
    assert failed and owner.room.state == "playing"
    await a.disconnect()


async def test_a_move_while_this_process_holds_the_lease_and_its_owner_loads_waits_for_that_owner(monkeypatch):
    """The lease is this process's but its owner is not in place yet (loading, its database
    thread busy): the socket's move waits for that owner. It used to take the locked path,
    which called this very process back through Redis from the sockets' one sync thread and
    held that thread meanwhile (bench/arena.py: two fifths of its time under load)."""
    room, _ada, _grace, a = await started()
    hub = hubs.current()
    hub.rooms.pop(room.code).closed = True  # the lease stays this process's, as while loading

    def no_call_back(*args):
        raise AssertionError("the locked path called this process back")

    monkeypatch.setattr(hubs, "call_elsewhere", no_call_back)
    monkeypatch.setattr(store, "locked", no_call_back)
    cell = EMPTY[0]
    await a.send_to(text_data=entry(cell, "loading1"))
    answer = await receive_until(a, 'id="room-version"')
    assert f'data-cell="{cell}"' in answer and "the locked path" not in answer
    assert room.code in hub.rooms  # owned again, by this process
    assert await sync_to_async(RoomEvent.objects.filter(room=room, message_id="loading1").count)() == 1
    await a.disconnect()


async def test_a_refresh_does_not_hold_the_process_channels_reader(monkeypatch):
    """The process channel's reader hands every message to the hub one after another: a
    refresh (a room's start or end) awaited its render there, which waits for the sockets'
    sync thread, and the messages behind it outlived the layer's expiry under load (a room's
    end lost to its players, bench/arena.py). The render runs beside the reader now."""
    import threading
    import time

    from rooms import refresh

    room, _ada, _grace, a = await started()
    hub = hubs.current()
    gate, rendered = threading.Event(), []

    def slow_render(code, viewers):
        gate.wait(5)
        rendered.append(code)
        return {}

    monkeypatch.setattr(refresh, "render_views", slow_render)
    began = time.monotonic()
    await hub._handle(wire.encode(wire.Push(room.code, {"type": "room.refresh"})))
    assert time.monotonic() - began < 1  # the reader goes on at once
    gate.set()
    for _ in range(100):
        if rendered:
            break
        await asyncio.sleep(0.05)
    assert rendered == [room.code]  # and the refresh still renders
    await a.disconnect()


async def test_an_owner_acted_on_from_a_sync_thread_leaves_its_tasks_free_to_use_the_database(monkeypatch):
    """The arena's tick (in a thread-sensitive context of its own, as Django runs a view) acts
    on a room this process owns: the owner's call must not carry the calling thread's context.
    A refresh the call started then queued its render on that very thread, blocked waiting
    for the call, or refused it ("Single thread executor already being used, would deadlock",
    bench/arena.py: the tick's nudge)."""
    from asgiref.sync import ThreadSensitiveContext
    from channels.db import database_sync_to_async

    from rooms import actions as A
    from rooms.api import act

    room, _ada, _grace, a = await started()
    called = hubs.Hub.call
    rendered = []

    async def call_then_render(self, *args):
        result = await called(self, *args)
        rendered.append(await database_sync_to_async(lambda: "rendered")())  # as a refresh it starts
        return result

    monkeypatch.setattr(hubs.Hub, "call", call_then_render)
    async with ThreadSensitiveContext():  # as arenas/live.py runs the tick
        await database_sync_to_async(lambda: act(room.code, None, A.Sync()))()
    assert rendered == ["rendered"]
    await a.disconnect()

"""The room socket, end to end through the real ASGI stack (origin check, cookies)."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Seat
from tests.conftest import EMPTY, SOLUTION, cookie_for, handshake

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def headers_for(profile, origin=ORIGIN):
    headers = [(b"host", b"127.0.0.1:8000")]
    if origin:
        headers.append(origin)
    if profile is not None:
        headers.append((b"cookie", f"{settings.PLAYER_COOKIE_NAME}={cookie_for(profile)}".encode()))
    return headers


async def connect(code, profile, origin=ORIGIN):
    communicator = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers_for(profile, origin))
    connected, close_code = await handshake(communicator)
    return communicator, connected, close_code


@sync_to_async
def setup_room(preset="standard", started=True):
    from games.models import Puzzle
    from tests.conftest import PUZZLE

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    ada, grace, watcher = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Watcher"))
    room = create_room(ada, level="easy", preset=preset)
    act(room.code, grace, A.Join())
    if started:
        import datetime as dt

        from django.utils import timezone

        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        act(room.code, ada, A.Start(), now=timezone.now() - dt.timedelta(seconds=5))
    return room, ada, grace, watcher


async def receive_until(communicator, needle, limit=10):
    for _ in range(limit):
        html = await communicator.receive_from(timeout=10)  # a loaded CI machine (6 workers) runs late
        if needle in html:
            return html
    raise AssertionError(f"{needle!r} never arrived")


async def test_socket_without_origin_or_with_foreign_origin_is_refused():
    room, ada, *_ = await setup_room(started=False)
    _, connected, _ = await connect(room.code, ada, origin=None)
    assert not connected
    _, connected, _ = await connect(room.code, ada, origin=(b"origin", b"http://evil.example"))
    assert not connected


async def test_socket_without_profile_cookie_is_closed():
    room, *_ = await setup_room(started=False)
    _communicator, connected, close_code = await connect(room.code, None)
    assert not connected and close_code == 4401


async def test_unknown_room_is_closed():
    _, ada, *_ = await setup_room(started=False)
    _, connected, close_code = await connect("ZZZZZZ", ada)
    assert not connected and close_code == 4404


async def test_first_push_is_full_state_and_move_reaches_opponent():
    room, ada, grace, watcher = await setup_room()
    a, *_ = await connect(room.code, ada)
    g, *_ = await connect(room.code, grace)
    w, *_ = await connect(room.code, watcher)
    for c in (a, g, w):
        first = await c.receive_from(timeout=5)
        assert 'id="room-body"' in first and 'id="standings"' in first
    cell = EMPTY[0]
    await a.send_to(text_data=json.dumps({"cell": str(cell), "digit": SOLUTION[cell], "mode": "enter", "mid": "x1"}))
    mine = await receive_until(a, 'id="game"')
    assert "is correct" in mine
    theirs = await receive_until(g, 'id="standings"')
    assert "Ada" in theirs and "10 pts" in theirs
    watched = await receive_until(w, 'id="standings"')
    # Spectators and opponents never get digits: only the silhouette classes.
    assert 'data-value' not in watched and f">{SOLUTION[cell]}<" not in watched
    for c in (a, g, w):
        await c.disconnect()


async def test_reconnect_resyncs_to_server_state():
    room, ada, *_ = await setup_room()
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    cell = EMPTY[0]
    await a.send_to(text_data=json.dumps({"cell": cell, "digit": SOLUTION[cell], "mid": "r1"}))
    await receive_until(a, 'id="game"')
    await a.disconnect()
    again, *_ = await connect(room.code, ada)
    first = await again.receive_from(timeout=5)
    assert f'aria-label="Row 1, column 3, {SOLUTION[cell]}"' in first
    await again.disconnect()


@pytest.mark.parametrize(
    "payload, message",
    [
        ("not json", "must be JSON"),
        ('["a list"]', "JSON objects"),
        ('{"action": "explode"}', "Unknown action"),
        ('{"cell": "99", "digit": "4"}', "between 0 and 80"),
        ('{"cell": "2", "digit": "0"}', "between 1 and 9"),
        ('{"action": "rules", "level": "insane"}', "Difficulty must be"),
    ],
)
async def test_malformed_messages_get_an_error_and_change_nothing(payload, message):
    room, ada, *_ = await setup_room()
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    await a.send_to(text_data=payload)
    reply = await a.receive_from(timeout=5)
    assert 'id="room-message"' in reply and message in reply
    seat = await sync_to_async(Seat.objects.get)(room=room, player=ada)
    assert seat.progress == 0 and seat.mistakes == 0
    await a.disconnect()


async def test_non_host_start_and_eliminated_entries_are_refused():
    room, _ada, grace, _ = await setup_room(preset="hardcore")
    g, *_ = await connect(room.code, grace)
    await g.receive_from(timeout=5)
    await g.send_to(text_data=json.dumps({"action": "start"}))
    assert "Only the host" in await receive_until(g, 'id="room-message"')
    wrong = int(SOLUTION[EMPTY[0]]) % 9 + 1
    for i in range(3):
        await g.send_to(text_data=json.dumps({"cell": EMPTY[0], "digit": wrong, "mid": f"w{i}"}))
        await receive_until(g, 'id="game"')
    await g.send_to(text_data=json.dumps({"cell": EMPTY[0], "digit": SOLUTION[EMPTY[0]], "mid": "late"}))
    assert "locked" in await receive_until(g, 'id="room-message"')
    seat = await sync_to_async(Seat.objects.get)(room=room, player=grace)
    assert seat.status == "eliminated" and seat.progress == 0
    # Leaving once eliminated changes nothing, and still gets an answer: the state as it stands.
    await g.send_to(text_data=json.dumps({"action": "leave", "mid": "bye"}))
    answer = await g.receive_from(timeout=5)
    assert 'id="room-body"' in answer and "mistake cap" in answer
    seat = await sync_to_async(Seat.objects.get)(room=room, player=grace)
    assert seat.status == "eliminated"
    await g.disconnect()


async def test_flooding_socket_is_cut_off():
    room, ada, *_ = await setup_room(started=False)
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    for _ in range(60):
        await a.send_to(text_data=json.dumps({"action": "sync"}))
    closed = False
    for _ in range(200):
        message = await a.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            closed = message.get("code") == 4429
            break
    assert closed

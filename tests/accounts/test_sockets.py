"""Room sockets of a linked profile: open only with the account's session, closed at sign-out."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore

from accounts.linking import close_sockets
from config.asgi import application
from players.models import Profile
from rooms.api import create_room
from tests.conftest import cookie_for, handshake

pytestmark = pytest.mark.django_db(transaction=True)


def room_socket(user, profile, room) -> WebsocketCommunicator:
    """A room socket from a browser whose player cookie names `profile`, signed in to `user`
    (None: its session is signed in to nobody)."""
    session = SessionStore()
    if user is not None:
        session["_auth_user_id"] = str(user.pk)
    session.create()
    cookies = (
        f"{settings.PLAYER_COOKIE_NAME}={cookie_for(profile)}; {settings.SESSION_COOKIE_NAME}={session.session_key}"
    )
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookies.encode())]
    return WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)


@sync_to_async
def linked_room(signed_in: bool):
    user = get_user_model().objects.create_user("ada", email="ada@example.com")
    ada = Profile.objects.create(display_name="Ada", account=user)
    room = create_room(ada, level="easy", preset="standard")
    return room, ada, room_socket(user if signed_in else None, ada, room)


async def test_a_signed_in_browsers_socket_opens_and_closes_at_sign_out():
    _room, ada, socket = await linked_room(signed_in=True)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.receive_from(timeout=5)  # the full state
    await sync_to_async(close_sockets)(ada)
    closed = await socket.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await socket.receive_output(timeout=5)
    assert closed["code"] == 4401
    await socket.disconnect()


async def test_a_linked_profiles_cookie_without_the_accounts_session_opens_no_socket():
    _room, _ada, socket = await linked_room(signed_in=False)
    connected, code = await handshake(socket)  # accepted and closed at once: the browser sees 4401
    assert not connected and code == 4401


# --- one account on two devices: one player in a room ---------------------------------


@sync_to_async
def race_of_one_account_on_two_browsers():
    """Ada's laptop hosts a race against Grace; Ada's phone (the same account, another browser's
    profile) has never been in the room."""
    import datetime as dt

    from django.utils import timezone

    from games.models import Puzzle
    from rooms import actions as A
    from rooms.api import act
    from tests.conftest import PUZZLE, SOLUTION

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    user = get_user_model().objects.create_user("ada", email="ada@example.com")
    laptop = Profile.objects.create(display_name="Ada", account=user)
    phone = Profile.objects.create(display_name="Ada", account=user)
    grace = Profile.objects.create(display_name="Grace")
    room = create_room(laptop, level="easy", preset="standard")
    act(room.code, grace, A.Join())
    for player in (laptop, grace):
        act(room.code, player, A.SetReady(True))
    act(room.code, laptop, A.Start(), now=timezone.now() - dt.timedelta(seconds=5))
    return room, user, laptop, phone


def entry(cell, mid):
    import json

    from tests.conftest import SOLUTION

    return json.dumps({"cell": str(cell), "digit": SOLUTION[cell], "mode": "enter", "mid": mid})


@sync_to_async
def seats_and_log(room, message_id=None):
    from rooms.models import RoomEvent, Seat

    seats = list(Seat.objects.filter(room=room).values_list("player__display_name", flat=True).order_by("pk"))
    events = RoomEvent.objects.filter(room=room)
    return seats, events.filter(message_id=message_id).count() if message_id else events.count()


async def drain(socket) -> str:
    """Everything the socket has been sent until it goes quiet: answers and pushes."""
    received = []
    while not await socket.receive_nothing(timeout=1):
        received.append(await socket.receive_from(timeout=5))
    return "".join(received)


async def test_two_browsers_of_one_account_are_one_seat_and_apply_each_move_once():
    from rooms import hub
    from rooms.models import Seat
    from tests.conftest import EMPTY, SOLUTION

    room, user, laptop, phone = await race_of_one_account_on_two_browsers()
    a, b = await sync_to_async(room_socket)(user, laptop, room), await sync_to_async(room_socket)(user, phone, room)
    for socket in (a, b):
        connected, _ = await socket.connect(timeout=5)
        assert connected
        first = await socket.receive_from(timeout=5)
        # Both browsers get the seat's own board (a watcher gets none), the phone included.
        assert 'id="board"' in first
    # The same message from both browsers (the same id): applied once.
    await a.send_to(text_data=entry(EMPTY[0], "m1"))
    assert "is correct" in await drain(a)
    await b.send_to(text_data=entry(EMPTY[0], "m1"))
    await drain(b)
    assert await seats_and_log(room, "m1") == (["Ada", "Grace"], 1)
    # Different ids: each applied, once, to the one seat, whichever browser sent it.
    await a.send_to(text_data=entry(EMPTY[1], "m2"))
    await b.send_to(text_data=entry(EMPTY[2], "m3"))
    answer = await drain(b)
    assert "is correct" in answer and f'data-value="{SOLUTION[EMPTY[2]]}"' in answer
    await a.send_to(text_data=entry(EMPTY[3], "m3"))  # the phone's id again, from the laptop: a repeat
    await drain(a)
    for mid in ("m2", "m3"):
        assert await seats_and_log(room, mid) == (["Ada", "Grace"], 1)
    assert not await sync_to_async(Seat.objects.filter(room=room, player=phone).exists)()
    # m1, m2 and m3 moved the one seat three cells on (the owner's memory: rows are written behind).
    seat = hub.current().rooms[room.code].seat_of(laptop)
    assert (seat.progress, seat.score) == (3, 30)
    await a.disconnect()
    await b.disconnect()

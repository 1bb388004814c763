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
from tests.conftest import cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def linked_room(signed_in: bool):
    user = get_user_model().objects.create_user("ada", email="ada@example.com")
    ada = Profile.objects.create(display_name="Ada", account=user)
    room = create_room(ada, level="easy", preset="standard")
    session = SessionStore()
    if signed_in:
        session["_auth_user_id"] = str(user.pk)
    session.create()
    cookies = f"{settings.PLAYER_COOKIE_NAME}={cookie_for(ada)}; {settings.SESSION_COOKIE_NAME}={session.session_key}"
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookies.encode())]
    return room, ada, WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)


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
    connected, code = await socket.connect(timeout=5)
    assert not connected and code == 4401

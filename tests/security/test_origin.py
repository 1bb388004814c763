"""The socket Origin check compares scheme, host and port (issue 12, section 7)."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application, same_origin


def scope(origin, host="127.0.0.1:8000", scheme="ws", extra=()):
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else []) + list(extra)
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    "origin, host, scheme, ok",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://localhost", "localhost", "ws", True),
        ("http://localhost:80", "localhost", "ws", True),
        ("https://localhost", "localhost", "wss", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", "ws", False),  # another port of the same host
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # another scheme
        ("http://localhost", "localhost", "wss", False),
        ("http://127.0.0.1:8000", "evil.example:8000", "ws", False),  # host not allowed
        ("http://evil.example", "127.0.0.1:8000", "ws", False),
        ("null", "127.0.0.1:8000", "ws", False),
        ("", "127.0.0.1:8000", "ws", False),
    ],
)
def test_origin_must_match_scheme_host_and_port(origin, host, scheme, ok):
    assert same_origin(scope(origin, host, scheme)) is ok


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_forwarded_scheme_counts():
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert same_origin(scope("https://localhost", "localhost", "ws", forwarded))
    assert not same_origin(scope("http://localhost", "localhost", "ws", forwarded))
    assert not same_origin(scope("https://localhost", "localhost", "ws"))


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example.org"])
def test_trusted_origins_are_accepted():
    assert same_origin(scope("https://play.example.org", "127.0.0.1:8000"))


@pytest.mark.django_db(transaction=True)
async def test_a_page_on_another_port_cannot_open_a_room_socket():
    from asgiref.sync import sync_to_async
    from django.conf import settings

    from games.models import Puzzle
    from players.models import Profile
    from rooms.api import create_room
    from tests.conftest import PUZZLE, SOLUTION, cookie_for

    @sync_to_async
    def setup():
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
        ada = Profile.objects.create(display_name="Ada")
        return create_room(ada, level="easy"), cookie_for(ada)

    room, cookie = await setup()

    async def connect(origin):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/r/{room.code}/",
            headers=[
                (b"host", b"127.0.0.1:8000"),
                (b"origin", origin),
                (b"cookie", f"{settings.PLAYER_COOKIE_NAME}={cookie}".encode()),
            ],
        )
        connected, _ = await communicator.connect(timeout=5)
        if connected:
            await communicator.disconnect()
        return connected

    assert await connect(b"http://127.0.0.1:8000")
    assert not await connect(b"http://127.0.0.1:9999")
    assert not await connect(b"https://127.0.0.1:8000")

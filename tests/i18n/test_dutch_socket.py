"""A Dutch player hears Dutch over the room socket (the answer to their move, the pushed
standings and a refresh), while an English player in the same room hears English."""

import pytest
from django.conf import settings

from games.common.i18n import socket_language
from tests.conftest import EMPTY, SOLUTION
from tests.rooms.test_consumer import ORIGIN, headers_for, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(code, profile, language_headers):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = headers_for(profile, ORIGIN) + language_headers
    communicator = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
    connected, _code = await communicator.connect(timeout=5)
    assert connected
    await communicator.receive_from(timeout=5)  # the first push: the whole room
    return communicator


def with_cookie(headers, language):
    """The player cookie and the language cookie in one Cookie header, as a browser sends them."""
    cookie = dict(headers)[b"cookie"] + f"; {settings.LANGUAGE_COOKIE_NAME}={language}".encode()
    return [(name, value) for name, value in headers if name != b"cookie"] + [(b"cookie", cookie)]


async def test_a_dutch_player_gets_a_dutch_answer_and_an_english_one_english():
    room, ada, grace, _watcher = await setup_room()
    dutch = await connect(room.code, ada, [(b"accept-language", b"nl-NL,nl;q=0.9,en;q=0.5")])
    english = await connect(room.code, grace, [(b"accept-language", b"en-GB,en;q=0.9")])
    cell = EMPTY[0]
    await dutch.send_json_to({"action": "enter", "cell": cell, "digit": int(SOLUTION[cell])})
    # (A refresh of the whole room may come first: a connect's presence reaches everyone.)
    answer = await receive_until(dutch, f"{SOLUTION[cell]} is goed.")
    assert "is correct" not in answer
    await dutch.send_json_to({"action": "enter", "cell": EMPTY[1], "digit": 0})
    refusal = await receive_until(dutch, "Het veld cijfer")
    assert "Het veld cijfer moet tussen 1 en 9 liggen." in refusal
    # The standings pushed to both: each in its own language.
    assert "Tussenstand" in await receive_until(dutch, 'id="standings"')
    pushed = await receive_until(english, 'id="standings"')
    assert "Standings" in pushed and "Tussenstand" not in pushed
    await dutch.disconnect()
    await english.disconnect()


async def test_the_language_cookie_outranks_accept_language():
    room, _ada, grace, _watcher = await setup_room(started=False)
    # Grace, not the host: the host's Start is the host's ready (no "I'm ready" for Ada).
    headers = with_cookie(headers_for(grace, ORIGIN), "nl") + [(b"accept-language", b"en")]
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    communicator = WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)
    assert (await communicator.connect(timeout=5))[0]
    lobby = await communicator.receive_from(timeout=5)
    assert "Ik ben klaar" in lobby and "I'm ready" not in lobby
    await communicator.send_json_to({"action": "ready"})
    assert "Niet klaar" in await receive_until(communicator, 'id="room-body"')
    await communicator.disconnect()


def test_socket_language_reads_the_cookie_then_the_header():
    def scope(cookie=None, header=b""):
        return {
            "cookies": {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {},
            "headers": [(b"accept-language", header)],
        }

    assert socket_language(scope(header=b"nl-BE,nl;q=0.9")) == "nl"
    assert socket_language(scope(cookie="en", header=b"nl")) == "en"
    assert socket_language(scope(cookie="xx", header=b"fr, nl;q=0.5")) == "nl"
    assert socket_language(scope(header=b"fr")) == settings.LANGUAGE_CODE
    assert socket_language({}) == settings.LANGUAGE_CODE

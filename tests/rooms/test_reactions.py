"""Quick reactions over the room socket (issue 27, rooms/reactions.py): a seated player's
fixed words reach everyone in the room as a toast, in each one's language; unknown words,
a flood, a spectator and a lobby are refused with a clear message, and nothing is stored."""

import pytest
from asgiref.sync import sync_to_async

from rooms.models import RoomEvent
from tests.i18n.test_dutch_socket import with_cookie
from tests.rooms.test_consumer import ORIGIN, connect, headers_for, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(code, profile, dutch=False):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    headers = headers_for(profile, ORIGIN)
    if dutch:
        headers = with_cookie(headers, "nl")
    communicator = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
    assert (await communicator.connect(timeout=5))[0]
    await communicator.receive_from(timeout=5)  # the whole room
    return communicator


async def drain(communicator):
    """Everything already sent to this socket (a connect's presence refreshes the room)."""
    seen = []
    while not await communicator.receive_nothing(timeout=0.3):
        seen.append(await communicator.receive_from(timeout=1))
    return seen


async def refused(sender, listener, message) -> str:
    """Send `message`, read the sender's refusal; the listener hears no toast."""
    await drain(listener)
    await sender.send_json_to(message)
    answer = await receive_until(sender, "is-error")
    assert not any('id="toasts"' in seen for seen in await drain(listener))
    return answer


async def events(room):
    return await sync_to_async(RoomEvent.objects.filter(room=room).count)()


async def test_a_reaction_reaches_everyone_in_their_language_and_stores_nothing():
    room, ada, grace, watcher = await setup_room()
    ada_socket = await opened(room.code, ada)
    grace_socket = await opened(room.code, grace, dutch=True)
    watching = await opened(room.code, watcher)
    before = await events(room)
    for socket in (ada_socket, grace_socket, watching):
        await drain(socket)
    await ada_socket.send_json_to({"action": "react", "reaction": "close", "mid": "r1"})
    mine = await receive_until(ada_socket, 'id="toasts"')
    assert 'hx-swap-oob="beforeend"' in mine and "Ada: Close one!" in mine and "racer-c0" in mine
    assert "Ada: Dat was spannend!" in await receive_until(grace_socket, 'id="toasts"')
    assert "Ada: Close one!" in await receive_until(watching, 'id="toasts"')
    assert await ada_socket.receive_nothing(timeout=0.3)  # the sender's toast came once
    assert await events(room) == before  # not a move: nothing logged, the room as it was
    for socket in (ada_socket, grace_socket, watching):
        await socket.disconnect()


@pytest.mark.parametrize(
    ("sender", "message", "refusal"),
    [
        ("ada", {"action": "react", "reaction": "you lose"}, "Unknown reaction: pick one of the reaction buttons."),
        ("ada", {"action": "react", "reaction": "<b>GG</b>"}, "Unknown reaction"),
        ("ada", {"action": "react"}, "Unknown reaction"),
        ("ada", {"action": "react", "reaction": "GG"}, "Unknown reaction"),  # the key, not the words
        # Spectators watch: they do not react.
        ("watcher", {"action": "react", "reaction": "gg"}, "Only the players in this room can send reactions."),
    ],
)
async def test_no_free_text_and_no_spectators(sender, message, refusal):
    room, ada, grace, watcher = await setup_room()
    sending = await opened(room.code, {"ada": ada, "watcher": watcher}[sender])
    grace_socket = await opened(room.code, grace)
    answer = await refused(sending, grace_socket, message)
    assert refusal in answer and "<b>GG" not in answer
    for socket in (sending, grace_socket):
        await socket.disconnect()


async def test_a_flood_is_refused_after_three_in_ten_seconds():
    room, ada, grace, _watcher = await setup_room()
    ada_socket = await opened(room.code, ada)
    grace_socket = await opened(room.code, grace)
    await drain(grace_socket)
    for n in range(3):
        await ada_socket.send_json_to({"action": "react", "reaction": "gg", "mid": f"f{n}"})
        assert "Ada: GG" in await receive_until(ada_socket, 'id="toasts"')
    await ada_socket.send_json_to({"action": "react", "reaction": "gg", "mid": "f3"})
    assert "Easy on the reactions: 3 every 10 seconds at most." in await receive_until(ada_socket, "is-error")
    heard = [seen for seen in await drain(grace_socket) if 'id="toasts"' in seen]
    assert len(heard) == 3
    # Grace has her own allowance.
    await grace_socket.send_json_to({"action": "react", "reaction": "rematch"})
    assert "Grace: Rematch?" in await receive_until(ada_socket, 'id="toasts"')
    for socket in (ada_socket, grace_socket):
        await socket.disconnect()


async def test_no_reactions_in_the_lobby():
    room, ada, _grace, _watcher = await setup_room(started=False)
    socket, connected, _code = await connect(room.code, ada)
    assert connected
    await socket.receive_from(timeout=5)
    await socket.send_json_to({"action": "react", "reaction": "gg"})
    assert "Reactions open when the countdown starts." in await receive_until(socket, "is-error")
    await socket.disconnect()

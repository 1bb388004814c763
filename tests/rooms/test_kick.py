"""The host removes a seated player from the lobby (issue 12, section 4): a stranger who
joins and never readies must not be able to block the start."""

import json

import pytest
from asgiref.sync import sync_to_async

from players.models import Profile
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, act, create_room
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, Seat
from tests.conftest import client_for
from tests.rooms.test_consumer import connect, receive_until


@pytest.fixture
def lobby(db, bank_puzzle):
    ada, grace, linus = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus"))
    room = create_room(ada, level="easy")
    for p in (grace, linus):
        act(room.code, p, A.Join())
    return room, ada, grace, linus


def seated(room):
    return set(Seat.objects.filter(room=room).values_list("player__display_name", flat=True))


def test_host_removes_a_seated_player_who_then_cannot_rejoin(lobby):
    room, ada, grace, linus = lobby
    act(room.code, ada, A.Kick(linus.pk))
    assert seated(room) == {"Ada", "Grace"}
    with pytest.raises(NotAllowed, match="removed you"):
        act(room.code, linus, A.Join())
    # The others can still ready and start without the stranger.
    for p in (ada, grace):
        act(room.code, p, A.SetReady(True))
    act(room.code, ada, A.Start())
    assert Room.objects.get(pk=room.pk).state == Room.State.COUNTDOWN


def test_only_the_host_may_remove_anyone(lobby):
    room, ada, grace, linus = lobby
    for who, target in ((grace, linus), (linus, ada), (grace, grace)):
        with pytest.raises(NotAllowed, match="Only the host"):
            act(room.code, who, A.Kick(target.pk))
    assert seated(room) == {"Ada", "Grace", "Linus"}


def test_host_cannot_remove_themself_or_someone_not_seated(lobby):
    room, ada, _grace, _linus = lobby
    with pytest.raises(RoomError, match="cannot remove yourself"):
        act(room.code, ada, A.Kick(ada.pk))
    stranger = Profile.objects.create(display_name="Stranger")
    with pytest.raises(RoomError, match="not seated"):
        act(room.code, ada, A.Kick(stranger.pk))
    assert seated(room) == {"Ada", "Grace", "Linus"}


def test_removing_is_lobby_only(lobby):
    room, ada, grace, linus = lobby
    act(room.code, linus, A.Leave())
    for p in (ada, grace):
        act(room.code, p, A.SetReady(True))
    act(room.code, ada, A.Start())
    with pytest.raises(RoomError, match="only possible in the lobby"):
        act(room.code, ada, A.Kick(grace.pk))
    assert seated(room) == {"Ada", "Grace"}


@pytest.mark.parametrize("seat", ["٣", "３", "²", "", None, "1.0", True, -1])
def test_kick_message_needs_an_ascii_seat_number(seat):
    with pytest.raises(A.MalformedMessage, match="seat"):
        A.parse_message({"action": "kick", "seat": seat}, GAME_TYPES["showdown"])


def test_lobby_shows_remove_buttons_to_the_host_only(lobby):
    room, ada, grace, linus = lobby
    host_page = client_for(ada).get(f"/r/{room.code}/").content.decode()
    assert host_page.count('name="action" value="kick"') == 2
    assert f'name="seat" value="{linus.pk}"' in host_page and f'name="seat" value="{ada.pk}"' not in host_page
    assert 'value="kick"' not in client_for(grace).get(f"/r/{room.code}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_kick_over_the_socket_refuses_others_and_removes_for_the_host():
    room, ada, grace, linus = await sync_to_async(_lobby_rows)()
    a, connected, _ = await connect(room.code, ada)
    assert connected
    g, connected, _ = await connect(room.code, grace)
    assert connected
    await a.receive_from(timeout=5)
    await g.receive_from(timeout=5)
    await g.send_to(text_data=json.dumps({"action": "kick", "seat": linus.pk}))
    assert "Only the host can do that." in await receive_until(g, 'id="room-message"')
    await a.send_to(text_data=json.dumps({"action": "kick", "seat": "٣"}))
    assert "The seat must be a number." in await receive_until(a, 'id="room-message"')
    await a.send_to(text_data=json.dumps({"action": "kick", "seat": linus.pk}))
    body = await receive_until(g, 'id="room-body"')  # everyone sees the new player list
    assert "Linus" not in body
    assert await sync_to_async(seated)(room) == {"Ada", "Grace"}
    for c in (a, g):
        await c.disconnect()


def _lobby_rows():
    from games.models import Puzzle
    from tests.conftest import PUZZLE, SOLUTION

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    ada, grace, linus = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus"))
    room = create_room(ada, level="easy")
    for p in (grace, linus):
        act(room.code, p, A.Join())
    return room, ada, grace, linus

"""Duels over the room socket, end to end through the real ASGI stack (origin, cookies)."""

import datetime as dt
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.engines import cardoku as ck
from games.engines import domino as d
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, Seat
from tests.rooms.test_consumer import headers_for, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(code, profile):
    communicator = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers_for(profile))
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    first = await communicator.receive_from(timeout=5)
    assert 'id="room-body"' in first
    return communicator, first


@sync_to_async
def setup_duel(game, **settings):
    from games.models import Puzzle
    from tests.conftest import PUZZLE, SOLUTION

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    ada, grace, watcher = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Watcher"))
    room = create_room(ada, game=game, level="easy")
    act(room.code, grace, A.Join())
    if settings:
        act(room.code, ada, A.parse_message({"action": "rules", **settings}, GAME_TYPES[game])[0])
    for p in (ada, grace):
        act(room.code, p, A.SetReady(True))
    act(room.code, ada, A.Start(), now=timezone.now() - dt.timedelta(seconds=5))
    act(room.code, ada, A.Sync())  # the countdown is over: playing
    return room, ada, grace, watcher


@sync_to_async
def seat_of(room, player) -> Seat:
    """The seat as stored durably: its row, plus the move log entries the room's live
    owner has acknowledged but not yet written behind (rooms/owner.py)."""
    from rooms.api import running_view

    _, seats = running_view(room.code)
    return next(s for s in seats if s.player_id == player.pk)


def right_push(state: d.State) -> str | None:
    for (edge, line), (row, col) in sorted(d.entry_points(state).items()):
        if state.solution[(row - 1) * 9 + col - 1] == state.current_stone:
            return f"{edge}-{line}"
    return None


async def test_domino_push_reaches_the_player_and_only_standings_reach_the_others(fixed_seeds):
    room, ada, grace, watcher = await setup_duel("domino")
    a, mine = await connect(room.code, ada)
    g, _ = await connect(room.code, grace)
    w, watched = await connect(room.code, watcher)
    assert "data-marker" in mine and "data-current-stone" in mine
    assert "data-marker" not in watched and "data-current-stone" not in watched
    state = d.from_dict((await seat_of(room, ada)).state)
    await a.send_to(text_data=json.dumps({"push": right_push(state), "version": "0", "mid": "p1"}))
    reply = await receive_until(a, 'id="game"')
    assert 'id="room-message"' in reply and "is-good" in reply
    for other in (g, w):
        standings = await receive_until(other, 'id="standings"')
        assert "Ada" in standings and "5 pts · 3 lives · 1 stone placed" in standings
        assert "data-current-stone" not in standings and "data-marker" not in standings
    seat = await seat_of(room, ada)
    assert seat.score == 5 and seat.progress == 1
    for c in (a, g, w):
        await c.disconnect()


async def test_domino_joker_mode_is_a_private_view(fixed_seeds):
    room, ada, grace, _ = await setup_duel("domino")
    a, _ = await connect(room.code, ada)
    g, _ = await connect(room.code, grace)
    version = (await sync_to_async(Room.objects.get)(pk=room.pk)).version
    await a.send_to(text_data=json.dumps({"joker": "grey", "mid": "j1"}))
    reply = await receive_until(a, 'id="game"')
    assert "data-pick" in reply and "joker-mode joker-grey" in reply and "data-marker" not in reply
    assert await g.receive_nothing(timeout=0.5)  # nothing changed for anyone else
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).version == version
    await a.send_to(text_data=json.dumps({"joker": "grey", "cell": "1-3", "version": "0", "mid": "j2"}))
    reply = await receive_until(a, 'id="game"')
    assert "stone joker grey" in reply and "data-pick" not in reply
    for c in (a, g):
        await c.disconnect()


async def test_domino_refused_push_shows_why(fixed_seeds):
    room, ada, *_ = await setup_duel("domino")
    a, _ = await connect(room.code, ada)
    state = d.from_dict((await seat_of(room, ada)).state)
    blocked = next(
        f"{edge}-{line}" for edge in d.EDGES for line in range(1, 10) if (edge, line) not in d.entry_points(state)
    )
    await a.send_to(text_data=json.dumps({"push": blocked, "mid": "b1"}))
    reply = await receive_until(a, 'id="room-message"')
    assert "is not possible" in reply
    await a.disconnect()


async def test_cardoku_place_discard_and_no_undo(fixed_seeds):
    room, ada, grace, watcher = await setup_duel("cardoku", layout="random")
    a, mine = await connect(room.code, ada)
    g, _ = await connect(room.code, grace)
    w, watched = await connect(room.code, watcher)
    assert 'id="ck-board"' in mine and 'data-drag="current"' in mine
    assert 'id="ck-board"' not in watched and "data-card" not in watched
    state = ck.from_dict((await seat_of(room, ada)).state)
    assert state.layout.kind == "random"
    row, col = sorted(ck.legal_squares(state))[0]  # this seed's first card fits somewhere
    await a.send_to(text_data=json.dumps({"action": "place", "row": row, "col": col, "step": "0", "mid": "c1"}))
    assert "Placed the" in await receive_until(a, 'id="game"')
    await a.send_to(text_data=json.dumps({"action": "discard", "mid": "c2"}))
    await receive_until(a, "Discarded the")
    standings = await receive_until(g, "43 cards left")
    assert "Ada" in standings and "-9 pts · 43 cards left" in standings
    assert "data-card" not in standings
    await a.send_to(text_data=json.dumps({"action": "undo", "mid": "c3"}))
    assert "no undo" in await receive_until(a, 'id="room-message"')
    await a.send_to(text_data=json.dumps({"action": "helper", "option": "moves", "on": "1", "mid": "c4"}))
    assert "show-moves" in await receive_until(a, 'id="game"')
    for c in (a, g, w):
        await c.disconnect()


@pytest.mark.parametrize(
    "game, payload, message",
    [
        ("domino", '{"push": "middle-1"}', "edge must be"),
        ("domino", '{"joker": "silver"}', "grey or gold"),
        ("domino", '{"push": "left-1", "version": "x"}', "version must be"),
        ("domino", '{"action": "rules", "level": "insane"}', "Difficulty must be"),
        ("cardoku", '{"action": "place", "row": "10", "col": "1"}', "row must be"),
        ("cardoku", '{"action": "place"}', "Pick a square"),
        ("cardoku", '{"action": "shuffle"}', "Unknown move"),
        ("cardoku", '{"action": "helper", "option": "cheat"}', "moves or restrictions"),
        ("cardoku", '{"action": "rules", "layout": "custom"}', "default or random"),
    ],
)
async def test_malformed_messages_get_an_error_and_change_nothing(game, payload, message, fixed_seeds):
    room, ada, *_ = await setup_duel(game)
    a, _ = await connect(room.code, ada)
    await a.send_to(text_data=payload)
    reply = await a.receive_from(timeout=5)
    assert 'id="room-message"' in reply and message in reply
    seat = await seat_of(room, ada)
    assert seat.state["moves"] == [] and seat.score == 0 and seat.progress == 0
    await a.disconnect()

"""While a duel runs, nothing sent to any socket shows where another seat placed a piece
(issue 12, section 2): every seat gets the same stones (cards) in the same order, so the
leader's silhouette told a follower where stone k goes. Every frame a follower and a
spectator receive, end to end through the real ASGI stack, is searched for the squares
the leader filled; once the room finishes, the silhouettes show them."""

import json

import pytest

from games.engines import cardoku as ck
from games.engines import domino as d
from rooms.gametypes import GAME_TYPES
from tests.rooms.test_consumer import receive_until
from tests.rooms.test_duel_consumer import connect, right_push, seat_of, setup_duel

pytestmark = pytest.mark.django_db(transaction=True)


async def drain(communicator, frames: list, quiet=0.3) -> list:
    """Every frame that arrives until the socket is quiet for `quiet` seconds (a timed-out
    receive_from would cancel the consumer)."""
    while not await communicator.receive_nothing(timeout=quiet):
        frames.append(await communicator.receive_from(timeout=5))
    return frames


def square_path(index: int) -> str:
    """How a silhouette draws square `index` (rooms/fragments.silhouette_paths)."""
    return f"M{index % 9} {index // 9}h1v1h-1z"


def assert_hidden(frames, squares, who):
    assert frames, f"{who} received nothing"
    for frame in frames:
        for index in squares:
            assert square_path(index) not in frame, f"{who} was shown square {index} of another seat"


async def duel_frames(game, next_message, moves):
    """Ada plays `moves` messages (``next_message(state)`` -> dict, or None to stop) while
    Grace (a follower) and a spectator collect every frame; then both players forfeit and
    the spectator's frames after the finish are returned too."""
    room, ada, grace, watcher = await setup_duel(game)
    a, _ = await connect(room.code, ada)
    g, first_g = await connect(room.code, grace)
    w, first_w = await connect(room.code, watcher)
    follower, spectator = [first_g], [first_w]
    for n in range(moves):
        message = next_message((await seat_of(room, ada)).state)
        if message is None:
            break
        await a.send_to(text_data=json.dumps(dict(message, mid=f"m{n}")))
        await receive_until(a, 'id="room-message"')
        await drain(g, follower)
        await drain(w, spectator)
    leader = await seat_of(room, ada)
    squares = [i for i, kind in enumerate(GAME_TYPES[game].silhouette(leader)) if kind == "f"]
    for c in (a, g):
        await c.send_to(text_data=json.dumps({"action": "forfeit"}))
    after = await drain(w, [], quiet=1.0)
    for c in (a, g, w):
        await c.disconnect()
    return leader, squares, follower, spectator, after


def domino_move(data):
    return {"push": push} if (push := right_push(d.from_dict(data))) else None


def cardoku_move(data):
    legal = sorted(ck.legal_squares(ck.from_dict(data)))
    return {"action": "place", "row": legal[0][0], "col": legal[0][1]} if legal else {"action": "discard"}


async def test_domino_follower_and_spectator_never_see_where_the_leader_put_a_stone(fixed_seeds):
    leader, squares, follower, spectator, after = await duel_frames("domino", domino_move, 4)
    assert len(squares) >= 2 and leader.progress == len(squares)
    assert any(f"{leader.progress} stones placed" in f for f in follower)  # counts do arrive
    assert_hidden(follower, squares, "the follower")
    assert_hidden(spectator, squares, "the spectator")
    assert any(all(square_path(i) in f for i in squares) for f in after)  # shown once finished


async def test_cardoku_follower_and_spectator_never_see_where_the_leader_put_a_card(fixed_seeds):
    leader, squares, follower, spectator, after = await duel_frames("cardoku", cardoku_move, 8)
    assert len(squares) >= 2
    assert any(f"{45 - leader.progress} cards left" in f for f in follower)
    assert_hidden(follower, squares, "the follower")
    assert_hidden(spectator, squares, "the spectator")
    assert any(all(square_path(i) in f for i in squares) for f in after)

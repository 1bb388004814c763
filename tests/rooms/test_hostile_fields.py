"""Socket messages with non-finite numbers, lists or objects in any field never crash a
socket (issue 28, item 6): `{"action":"ready","cell":Infinity}` (also -Infinity, 1e400)
closed it 1011 with a traceback, and so did a Domino duel's `{"joker":[],"cell":"1-1"}` or
an object as joker (unhashable). Every field's type is checked at the boundary."""

import json

import pytest

from tests.rooms.test_duel_consumer import connect, setup_duel

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = [
    '{"action":"ready","cell":Infinity}',
    '{"action":"ready","cell":-Infinity}',
    '{"action":"ready","cell":NaN}',
    '{"action":"ready","cell":1e400}',
    '{"cell":1e400,"digit":5}',
    '{"cell":3,"digit":-1e400}',
    '{"joker":[],"cell":"1-1"}',
    '{"joker":{},"cell":"1-1"}',
    '{"joker":{"grey":1}}',
    '{"push":["top-1"]}',
    '{"push":{"edge":"top"},"mid":"x1"}',
    '{"action":"rules","level":["easy"]}',
    '{"action":"kick","seat":1e400}',
    '{"action":"kick","seat":[1]}',
    '{"mode":{"note":1},"cell":[4]}',
    '{"action":"sync","mid":["a"]}',
]


@pytest.mark.parametrize("game", ["domino", "cardoku", "showdown"])
async def test_hostile_field_types_get_a_refusal_and_the_socket_stays(fixed_seeds, game):
    room, ada, *_others = await setup_duel(game)
    socket, _ = await connect(room.code, ada)
    for text in HOSTILE:
        await socket.send_to(text_data=text)
        answer = await socket.receive_from(timeout=5)
        assert "message" in answer, text  # an answer, not a close
        assert 'role="alert"' in answer or "is-error" in answer, (text, answer[:300])
    await socket.send_to(text_data=json.dumps({"action": "sync", "mid": "after"}))
    assert await socket.receive_from(timeout=5)  # still open and answering
    await socket.disconnect()

"""Issue 42: a socket message is parsed once, at the consumer, into one typed message
(rooms/actions.py Incoming: the action, its id, the view hints). What a forward carries to
the room's owner in another process is that message (rooms/wire.py Act), rebuilt there with
the room's game type, never the client's raw dict parsed again."""

import msgpack  # type: ignore[import-untyped]  # channels-redis's serializer; no type information
import pytest

from games.sudoku import play
from rooms import actions as A
from rooms import wire
from rooms.gametypes import GAME_TYPES

EVERY_GAME: list[dict[str, object]] = [
    {"action": "join", "mid": "m1"},
    {"action": "leave"},
    {"action": "forfeit"},
    {"action": "start"},
    {"action": "sync"},
    {"action": "kick", "seat": "42"},
    {"action": "ready"},
    {"action": "unready"},
    {"action": "coming", "zone": "Europe/Amsterdam", "lang": "nl", "display_name": "Hedy"},
    {"action": "not_coming"},
    {"action": "remind", "channel": "email", "on": "1"},
    {"action": "reschedule", "scheduled_at": "2030-01-01T10:00", "timezone": "Europe/Amsterdam"},
    {"action": "cancel"},
]
BOARDS: dict[str, list[dict[str, object]]] = {
    "showdown": [
        {"action": "enter", "cell": "4", "digit": "7", "mid": "e1"},
        {"cell": 4, "digit": 7, "mode": "note"},
        {"action": "notes", "cell": "3", "marks": "52"},
        {"command": "hint"},
        {"action": "hint", "cell": "40"},
        {"action": "erase", "cell": "4"},
        {"action": "submit"},
        {"action": "rules", "level": "hard", "preset": "tournament", "rating": "unrated"},
        {"action": "rules", "level": "easy", "preset": "custom", "notes": "on", "mistake_cap": "5"},
    ],
    "domino": [
        {"push": "top-3", "version": "2"},
        {"joker": "gold", "cell": "2-3"},
        {"joker": "grey"},
        {"joker": ""},
        {"action": "rules", "level": "medium"},
    ],
    "cardoku": [
        {"action": "place", "row": "2", "col": "3", "step": "4"},
        {"action": "discard"},
        {"action": "helper", "option": "restrictions", "on": "1"},
        {"action": "rules", "layout": "random"},
    ],
}
CASES = [(key, data) for key, boards in BOARDS.items() for data in EVERY_GAME + boards]


@pytest.mark.django_db
@pytest.mark.parametrize("key, data", CASES, ids=[f"{key}-{n}" for n, (key, _data) in enumerate(CASES)])
def test_every_message_crosses_to_the_owner_as_the_consumer_parsed_it(key, data):
    game = GAME_TYPES[key]
    incoming = A.parse_incoming(data, game)
    act = wire.Act(
        "ROOM",
        7,
        "t1",
        wire.action_to(incoming.action),
        incoming.message_id,
        "reply",
        "nl",
        "via",
        incoming.mode,
        incoming.cell,
    )
    carried = msgpack.unpackb(msgpack.packb(wire.encode(act), use_bin_type=True), raw=False)  # as channels-redis does
    assert "data" not in carried  # the client's raw message never travels
    assert wire.parse(carried).incoming(game) == incoming


def test_showdown_s_moves_are_game_moves_as_the_duels_are():
    showdown = GAME_TYPES["showdown"]
    assert A.parse_message({"action": "enter", "cell": "4", "digit": "7"}, showdown) == (
        A.GameMove(play.Enter(4, 7)),
        "",
    )
    assert showdown.parse({"action": "submit"}) == A.GameMove(play.Submit())
    assert not hasattr(A, "Enter")  # the rooms know no Sudoku move by name: the game type does


def test_the_view_hints_are_read_once_with_the_action():
    incoming = A.parse_incoming(
        {"action": "enter", "cell": "12", "digit": "3", "mode": "note", "mid": "x"}, GAME_TYPES["showdown"]
    )
    assert incoming == A.Incoming(A.GameMove(play.Enter(12, 3)), "x", "note", 12)
    assert A.parse_incoming({"action": "ready"}, GAME_TYPES["domino"]) == A.Incoming(
        A.SetReady(True), "", "enter", None
    )

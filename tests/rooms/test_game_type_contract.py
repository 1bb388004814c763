"""What every registered game type does in a room, through the one write path: start,
a legal move, refusals (illegal and malformed change nothing), settings, ranking, the
finish and its result line. A new game type adds its driver here (a test fails until it
does); what only one game does stays in that game's own test module."""

import datetime as dt
import json
from dataclasses import dataclass, field

import pytest
from django.template.loader import render_to_string

from games.cardoku.play import Action
from games.domino.play import Joker, Push
from games.engines import cardoku as ck
from games.engines import domino as dm
from games.engines.errors import Illegal
from games.sudoku.play import Enter
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, act
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, RoomEvent, RoomResult, Seat
from rooms.presenters import room_context
from tests.conftest import EMPTY, PUZZLE, SOLUTION
from tests.rooms.conftest import T0

PLAY = T0 + dt.timedelta(seconds=3.5)  # just after the countdown
GIVEN = PUZZLE.index("5")  # a start cell of the bank puzzle


# --- drivers: how to play each game type, for the tests below ------------------------------


def state_of(seat):
    return json.dumps(seat.state, sort_keys=True)


def domino_push(seat, correct: bool):
    state = dm.from_dict(seat.state)
    for (edge, line), (row, col) in sorted(dm.entry_points(state).items()):
        if (state.solution[(row - 1) * 9 + col - 1] == state.current_stone) == correct:
            return A.GameMove(Push(edge, line))
    raise AssertionError("no such entry point")


@dataclass
class Driver:
    legal: object  # seat -> a legal move
    illegal: object  # seat -> a move the rules refuse
    illegal_says: str  # the refusal's message (a regex)
    end: object  # seat -> the moves that end its game from there
    settings: dict  # a host settings message
    settings_applied: object  # room -> whether the settings show
    malformed: list = field(default_factory=list)  # (message, the refusal's words)


DRIVERS = {
    "showdown": Driver(
        legal=lambda seat: A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]))),
        illegal=lambda seat: A.GameMove(Enter(GIVEN, 1)),
        illegal_says="is a given",
        end=lambda seat: [
            A.GameMove(Enter(cell, int(SOLUTION[cell]))) for cell in EMPTY if seat.state["cells"][cell] == "0"
        ],
        settings={"action": "rules", "level": "hard", "preset": "hardcore"},
        settings_applied=lambda room: room.level == "hard" and room.rules["mistake_cap"] == 3,
        malformed=[
            ({"action": "enter", "cell": "81", "digit": "1"}, "cell must be between"),
            ({"action": "enter", "cell": "4", "digit": "0"}, "digit must be between"),
            ({"action": "dance"}, "Unknown action"),
            ({"action": "rules", "level": "insane"}, "Difficulty must be"),
        ],
    ),
    "domino": Driver(
        legal=lambda seat: domino_push(seat, True),
        illegal=lambda seat: A.GameMove(Joker("grey", GIVEN // 9 + 1, GIVEN % 9 + 1)),
        illegal_says="not empty",
        end=lambda seat: [domino_push(seat, False)] * 3,  # out of lives (the stone stays the same)
        settings={"action": "rules", "level": "hard"},
        settings_applied=lambda room: room.level == "hard",
        malformed=[
            ({"push": "middle-3"}, "edge must be"),
            ({"push": "left-10"}, "line must be"),
            ({"joker": "silver"}, "grey or gold"),
            ({"joker": "gold", "cell": "0-4"}, "row must be"),
            ({"push": "left-1", "joker": "grey", "cell": "1-1"}, "not both"),
            ({}, "entry point"),
            ({"action": "rules", "level": "insane"}, "Difficulty must be"),
        ],
    ),
    "cardoku": Driver(
        legal=lambda seat: A.GameMove(Action("place", *sorted(ck.legal_squares(ck.from_dict(seat.state)))[0])),
        illegal=lambda seat: A.GameMove(Action("place", 1, 9)),
        illegal_says="next to|adjacent|touch|neighbour",
        end=lambda seat: [A.GameMove(Action("discard"))] * (len(ck.DEAL_CARDS) - seat.progress),
        settings={"action": "rules", "layout": "random"},
        settings_applied=lambda room: room.rules == {"layout": "random"},
        malformed=[
            ({"action": "place", "row": "0", "col": "1"}, "row must be"),
            ({"action": "place", "square": "7"}, "row,column"),
            ({"action": "deal"}, "Unknown move"),
            ({"action": "helper", "option": "peek"}, "moves or restrictions"),
            ({"action": "discard", "step": "-1"}, "step must be"),
            ({"action": "rules", "layout": "custom"}, "default or random"),
        ],
    ),
}


# --- fixtures (and tests/rooms/conftest.py's) -----------------------------------------------

pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture(params=list(GAME_TYPES))
def game_type(request, fixed_seeds):
    """Each registered game type in turn, dealing its known seed."""
    return GAME_TYPES[request.param]


@pytest.fixture
def game_room(game_type, players, bank_puzzle, make_room):
    """Ada's easy room of the game type, Grace and Linus joined."""
    return make_room(*players[:3], game=game_type.key, level="easy", now=T0)


def start(room, players):
    for p in players:
        act(room.code, p, A.SetReady(True), now=T0)
    act(room.code, players[0], A.Start(), now=T0)


def seat(room, player) -> Seat:
    return Seat.objects.get(room__code=room.code, player=player)


def version(room) -> int:
    return Room.objects.get(pk=room.pk).version


# --- the contract ----------------------------------------------------------------------------


def test_every_registered_game_type_has_a_driver():
    assert DRIVERS.keys() == GAME_TYPES.keys()


def test_rooms_and_the_home_page_offer_every_registered_game_type(client, db):
    assert list(Room._meta.get_field("game").choices) == [(key, g.label) for key, g in GAME_TYPES.items()]
    home = client.get("/").content.decode()
    for key, game in GAME_TYPES.items():
        assert f'<option value="{key}"' in home and game.menu_label in home
        assert game.short_label and game.totals_label


def test_start_gives_every_seat_the_same_board(game_type, game_room, players):
    start(game_room, players[:3])
    seats = list(Seat.objects.filter(room__code=game_room.code))
    assert len(seats) == 3 and len({state_of(s) for s in seats}) == 1
    assert all(s.status == "playing" and s.to_fill > 0 and s.progress == 0 for s in seats)
    assert Room.objects.get(pk=game_room.pk).state == "countdown"


def test_a_legal_move_changes_the_movers_board_only(game_type, game_room, players):
    start(game_room, players[:3])
    before = {p.pk: state_of(seat(game_room, p)) for p in players[:3]}
    at = version(game_room)
    result = act(game_room.code, players[0], DRIVERS[game_type.key].legal(seat(game_room, players[0])), now=PLAY)
    assert result.changed and result.outcome.kind and result.outcome.message
    mine = seat(game_room, players[0])
    assert state_of(mine) != before[players[0].pk] and mine.progress == 1
    assert all(state_of(seat(game_room, p)) == before[p.pk] for p in players[1:3])  # each plays their own board
    assert version(game_room) > at and RoomEvent.objects.filter(room=game_room, version=version(game_room)).exists()
    assert game_type.standing_line(mine) and len(game_type.silhouette(mine)) == 81
    assert set(game_type.silhouette(mine)) <= {"g", "f", ""}


def test_an_illegal_move_is_refused_with_its_reason_and_changes_nothing(game_type, game_room, players):
    start(game_room, players[:3])
    act(game_room.code, players[0], A.Sync(), now=PLAY)  # the countdown is over
    before, at = state_of(seat(game_room, players[0])), version(game_room)
    with pytest.raises(Illegal, match=DRIVERS[game_type.key].illegal_says):
        act(game_room.code, players[0], DRIVERS[game_type.key].illegal(seat(game_room, players[0])), now=PLAY)
    assert state_of(seat(game_room, players[0])) == before and version(game_room) == at


@pytest.mark.parametrize(
    "key, data, message",
    [(key, data, message) for key, driver in DRIVERS.items() for data, message in driver.malformed],
)
def test_malformed_messages_are_refused_at_the_boundary(key, data, message):
    with pytest.raises(A.MalformedMessage, match=message):
        A.parse_message(data, GAME_TYPES[key])


def test_moves_before_the_countdown_ends_and_by_spectators_are_refused(game_type, game_room, players):
    start(game_room, players[:3])
    move = DRIVERS[game_type.key].legal(seat(game_room, players[0]))
    before = state_of(seat(game_room, players[0]))
    with pytest.raises(RoomError, match="countdown"):
        act(game_room.code, players[0], move, now=T0 + dt.timedelta(seconds=1))
    with pytest.raises(NotAllowed, match="watching"):
        act(game_room.code, players[3], move, now=PLAY)
    assert state_of(seat(game_room, players[0])) == before


def test_host_changes_the_settings_and_every_ready_flag_resets(game_type, game_room, players):
    for p in players[:3]:
        act(game_room.code, p, A.SetReady(True), now=T0)
    action, _ = A.parse_message(DRIVERS[game_type.key].settings, game_type)
    act(game_room.code, players[0], action, now=T0)
    game_room.refresh_from_db()
    assert DRIVERS[game_type.key].settings_applied(game_room) and not game_room.seats.filter(ready=True).exists()
    with pytest.raises(NotAllowed):
        act(game_room.code, players[1], action, now=T0)


def test_only_the_host_gets_the_settings_form_with_every_field_it_sends(game_type, game_room, players):
    def panel(player):
        return render_to_string(
            game_type.settings_template, room_context(Room.objects.get(pk=game_room.pk), player, now=T0)
        )

    host, guest = panel(players[0]), panel(players[1])
    assert 'id="rules-h"' in host and 'id="rules-h"' in guest
    assert "<form ws-send" in host and all(f'name="{name}"' in host for name in DRIVERS[game_type.key].settings)
    assert "<form" not in guest


def test_a_player_who_left_is_refused(game_type, game_room, players):
    start(game_room, players[:3])
    act(game_room.code, players[0], A.Forfeit(), now=PLAY)
    with pytest.raises(RoomError, match="You left"):
        act(game_room.code, players[0], DRIVERS[game_type.key].legal(seat(game_room, players[0])), now=PLAY)
    assert seat(game_room, players[0]).status == "left"


def test_the_room_finishes_when_every_game_has_ended_and_records_the_ranking(game_type, game_room, players):
    start(game_room, players[:3])
    act(game_room.code, players[0], DRIVERS[game_type.key].legal(seat(game_room, players[0])), now=PLAY)
    for p in players[:3]:
        for move in DRIVERS[game_type.key].end(seat(game_room, p)):
            act(game_room.code, p, move, now=PLAY)
        assert seat(game_room, p).status != "playing"
    game_room = Room.objects.get(pk=game_room.pk)
    assert game_room.state == "finished"
    seats = list(Seat.objects.filter(room=game_room).select_related("player"))
    ranked = dict((s.pk, place) for place, s in game_type.rank(game_room, seats))
    assert {s.pk: s.place for s in seats} == ranked and sorted(ranked.values())[0] == 1
    results = {r.player_id: r for r in RoomResult.objects.filter(room_code=game_room.code)}
    assert {pk: (r.game, r.placement, r.player_count) for pk, r in results.items()} == {
        s.player_id: (game_type.key, s.place, 3) for s in seats
    }
    # What the game type records of its own, for its result partial.
    assert {pk: (r.summary, r.in_totals) for pk, r in results.items()} == {
        s.player_id: (game_type.result_summary(game_room, s), game_type.in_totals(game_room)) for s in seats
    }


def test_the_result_line_fills_the_history_rows_cells(game_type, players):
    room = Room(game=game_type.key, level="easy")
    room.rules = game_type.initial_rules("standard")
    result = RoomResult(
        player=players[0],
        room_code="ABCDEF",
        game=game_type.key,
        placement=2,
        player_count=3,
        status="finished",
        seconds=125,
        score=4321,
        summary=game_type.result_summary(room, Seat(room=room, player=players[0], mistakes=1)),
        finished_at=T0,
    )
    cells = render_to_string(game_type.result_template, {"r": result})
    # Difficulty, rules, time, score, mistakes, hints: the leaderboards' columns after the place.
    assert cells.count("<td") == 6 and "2:05" in cells and "4321" in cells
    assert ("<td>Easy</td>" if game_type.has_level else "<td>–</td>") in cells


def test_every_view_of_the_room_renders_the_games_own_parts(game_type, game_room, players):
    def body(player):
        return render_to_string(
            "rooms/room.html#body", room_context(Room.objects.get(pk=game_room.pk), player, now=PLAY)
        )

    assert 'id="rules-h"' in body(players[0]) and 'id="rules-h"' in body(players[3])  # the settings panel
    start(game_room, players[:3])
    act(game_room.code, players[0], A.Sync(), now=PLAY)

    def watching(html):  # the game type's line for a spectator
        return html.split("You are watching. ", 1)[1].split("</p>", 1)[0].strip()

    assert 'id="game"' in body(players[0]) and watching(body(players[3]))
    assert 'id="game"' not in body(players[3]) and 'id="standings"' in body(players[3])
    for p in players[:3]:
        act(game_room.code, p, A.Forfeit(), now=PLAY)
    finished = body(players[3])
    assert "Final podium" in finished and watching(finished)

"""Sudoku Domino duels through the room's write path: same stones for all, scoring by the
engine, ranking by score, the 10-minute end (even with nobody connected), refusals. What
every game type does (spectators, countdown, settings, malformed messages) is checked in
test_game_type_contract.py."""

import datetime as dt

import pytest
import time_machine
from django.template.loader import render_to_string
from django.utils import timezone

from games.domino.play import Joker, Push
from games.engines import domino as d
from rooms import actions as A
from rooms.api import RoomError, act
from rooms.gametypes import GAME_TYPES
from rooms.gametypes.domino import JokerMode
from rooms.gametypes.duel import MoveRefused
from rooms.models import Room, RoomEvent, RoomResult, Seat
from rooms.presenters import room_context
from rooms.tasks import due_rooms, sweep_rooms
from tests.conftest import PUZZLE, SOLUTION
from tests.rooms.conftest import T0

GAME = GAME_TYPES["domino"]
PLAY = T0 + dt.timedelta(seconds=3.5)  # just after the countdown

pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture
def domino_duel(players, bank_puzzle, fixed_seeds, make_room):
    """Ada's easy Domino room, Grace joined; its first stones each have a right and a wrong entry point."""
    return make_room(players[0], players[1], game="domino", level="easy", now=T0)


def start(room, seated):
    for p in seated:
        act(room.code, p, A.SetReady(True), now=T0)
    act(room.code, seated[0], A.Start(), now=T0)


def seat(room, player) -> Seat:
    return Seat.objects.get(room__code=room.code, player=player)


def engine(room, player) -> d.State:
    return d.from_dict(seat(room, player).state)


def push_for(state: d.State, correct: bool) -> Push:
    """An entry point where the current stone lands right (or wrong)."""
    for (edge, line), (row, col) in sorted(d.entry_points(state).items()):
        if (state.solution[(row - 1) * 9 + col - 1] == state.current_stone) == correct:
            return Push(edge, line)
    raise AssertionError("no such entry point")


def move(room, player, action, now=PLAY):
    return act(room.code, player, A.GameMove(action), now=now)


def test_every_player_gets_the_same_position_and_stones_in_the_same_order(domino_duel, players):
    act(domino_duel.code, players[2], A.Join(), now=T0)
    start(domino_duel, players[:3])
    domino_duel.refresh_from_db()
    states = [engine(domino_duel, p) for p in players[:3]]
    assert domino_duel.seed is not None and domino_duel.puzzle.givens == PUZZLE
    assert all(s.seed == domino_duel.seed for s in states)
    assert len({s.bag for s in states}) == 1 and len({s.puzzle for s in states}) == 1
    # The clock starts when the countdown ends, on the server's clock.
    assert states[0].started_at == domino_duel.starts_at.timestamp() == (T0 + dt.timedelta(seconds=3)).timestamp()
    assert seat(domino_duel, players[0]).to_fill == PUZZLE.count("0")


def test_moves_are_scored_by_the_engine(domino_duel, players):
    start(domino_duel, players[:2])
    expected = engine(domino_duel, players[0])
    for correct in (True, False, True):
        push = push_for(engine(domino_duel, players[0]), correct)
        result = move(domino_duel, players[0], push)
        expected, outcome = d.push(expected, push.edge, push.line, PLAY.timestamp())
        assert result.outcome.kind == outcome.kind and result.outcome.message
    mine = seat(domino_duel, players[0])
    assert engine(domino_duel, players[0]) == expected
    assert (mine.score, mine.progress, mine.mistakes) == (expected.score, 2, 1) and mine.score == 10
    assert GAME.standing_line(mine) == "10 pts · 2 lives · 2 stones placed"
    assert seat(domino_duel, players[1]).score == 0  # each plays their own board


def test_a_wrong_stone_costs_a_life_and_the_player_keeps_it(domino_duel, players):
    start(domino_duel, players[:2])
    before = engine(domino_duel, players[1]).current_stone
    result = move(domino_duel, players[1], push_for(engine(domino_duel, players[1]), False))
    assert result.outcome.kind == "wrong" and engine(domino_duel, players[1]).current_stone == before
    assert seat(domino_duel, players[1]).mistakes == 1


def test_third_wrong_stone_ends_that_players_game_and_refuses_further_moves(domino_duel, players):
    start(domino_duel, players[:2])
    for _ in range(3):
        move(domino_duel, players[1], push_for(engine(domino_duel, players[1]), False))
    done = seat(domino_duel, players[1])
    assert done.status == "finished" and done.state["end_reason"] == "lives"
    assert GAME.status_note(done) == "out of lives"
    with pytest.raises(MoveRefused, match="Your game is over"):
        move(domino_duel, players[1], Push("left", 1))
    assert Room.objects.get(pk=domino_duel.pk).state == "playing"  # Ada still plays


def test_room_finishes_when_every_player_is_done(domino_duel, players):
    start(domino_duel, players[:2])
    move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    for p in players[:2]:
        for _ in range(3):
            move(domino_duel, p, push_for(engine(domino_duel, p), False))
    domino_duel.refresh_from_db()
    assert domino_duel.state == "finished"
    ada, grace = RoomResult.objects.get(player=players[0]), RoomResult.objects.get(player=players[1])
    assert (ada.game, ada.placement, ada.score, ada.summary) == ("domino", 1, 5, {"difficulty": "easy", "mistakes": 3})
    assert (grace.placement, grace.score, grace.summary["mistakes"]) == (2, 0, 3)


def test_ten_minutes_end_the_duel_through_the_sweep_with_nobody_connected(domino_duel, players):
    act(domino_duel.code, players[2], A.Join(), now=T0)
    start(domino_duel, players[:3])
    # Ada and Grace place one right stone each; Linus places none.
    for p in players[:2]:
        move(domino_duel, p, push_for(engine(domino_duel, p), True))
    limit = domino_duel.starts_at if domino_duel.starts_at else Room.objects.get(pk=domino_duel.pk).starts_at
    with time_machine.travel(limit + dt.timedelta(minutes=9, seconds=59), tick=False):
        assert domino_duel.code not in list(due_rooms(timezone.now()))
        assert sweep_rooms() == 0
    assert Room.objects.get(pk=domino_duel.pk).state == "playing"
    with time_machine.travel(limit + dt.timedelta(minutes=10, seconds=1), tick=False):
        assert domino_duel.code in list(due_rooms(timezone.now()))
        assert sweep_rooms() == 1
        assert sweep_rooms() == 0  # idempotent
    domino_duel.refresh_from_db()
    assert domino_duel.state == "finished"
    seats = {s.player_id: s for s in domino_duel.seats.all()}
    assert all(s.status == "finished" and s.state["end_reason"] == "time" for s in seats.values())
    assert all(s.finish_seconds == pytest.approx(600, abs=1.5) for s in seats.values())
    # Highest score wins; equal scores share the place.
    places = {p.display_name: RoomResult.objects.get(player=p).placement for p in players[:3]}
    assert places == {"Ada": 1, "Grace": 1, "Linus": 3}
    assert seats[players[2].pk].place == 3


def test_a_move_after_ten_minutes_is_refused_and_the_room_ends_on_the_next_sync(domino_duel, players):
    start(domino_duel, players[:2])
    late = Room.objects.get(pk=domino_duel.pk).starts_at + dt.timedelta(minutes=10, seconds=2)
    with pytest.raises(RoomError, match="not running"):
        move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True), now=late)
    act(domino_duel.code, players[1], A.Sync(), now=late)
    assert Room.objects.get(pk=domino_duel.pk).state == "finished"


def test_a_player_who_left_is_refused_and_ranked_after_those_who_stayed(domino_duel, players):
    start(domino_duel, players[:2])
    move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    act(domino_duel.code, players[0], A.Forfeit(), now=PLAY)
    with pytest.raises(RoomError, match="You left"):
        move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    for _ in range(3):
        move(domino_duel, players[1], push_for(engine(domino_duel, players[1]), False))
    domino_duel.refresh_from_db()
    assert domino_duel.state == "finished"
    assert seat(domino_duel, players[1]).place == 1 and seat(domino_duel, players[0]).place == 2


def test_joker_mode_is_view_only_and_a_joker_is_scored_by_the_engine(domino_duel, players):
    start(domino_duel, players[:2])
    act(domino_duel.code, players[0], A.Sync(), now=PLAY)  # the countdown is over
    version = Room.objects.get(pk=domino_duel.pk).version
    result = move(domino_duel, players[0], JokerMode("gold"))
    assert not result.changed and result.outcome.view == {"joker_mode": "gold"}
    assert (
        Room.objects.get(pk=domino_duel.pk).version == version
        and not RoomEvent.objects.filter(version__gt=version).exists()
    )
    empty = PUZZLE.index("0")
    result = move(domino_duel, players[0], Joker("gold", empty // 9 + 1, empty % 9 + 1))
    assert result.outcome.kind == "joker" and seat(domino_duel, players[0]).score == 5
    with pytest.raises(MoveRefused, match="not empty"):
        move(domino_duel, players[0], Joker("grey", empty // 9 + 1, empty % 9 + 1))


def test_stale_board_version_is_refused(domino_duel, players):
    start(domino_duel, players[:2])
    push = push_for(engine(domino_duel, players[0]), True)
    move(domino_duel, players[0], Push(push.edge, push.line, version=0))
    with pytest.raises(MoveRefused, match="board changed"):
        move(domino_duel, players[0], Push(push.edge, push.line, version=0))


def test_nobody_else_sees_upcoming_stones_or_the_solution(domino_duel, players):
    start(domino_duel, players[:2])
    move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    domino_duel = Room.objects.select_related("puzzle").get(pk=domino_duel.pk)
    state = engine(domino_duel, players[0])
    watcher = render_to_string("rooms/room.html#body", room_context(domino_duel, players[3], now=PLAY))
    assert "data-current-stone" not in watcher and "Next stone" not in watcher
    assert SOLUTION not in watcher and "data-value" not in watcher
    # While the duel runs, the silhouette shows the shared start squares only, never where
    # Ada's stone went (the same stone comes next for everyone); it shows once it is over.
    assert 'class="g" d="M' in watcher and 'class="f" d=""' in watcher
    own = render_to_string("rooms/room.html#body", room_context(domino_duel, players[0], now=PLAY))
    assert f'aria-label="Current stone: {state.current_stone}"' in own
    assert "Next stone" in own and own.count("data-next-stone") == 1  # one preview, no more
    assert SOLUTION not in own and '"bag"' not in own


def test_silhouettes_show_placed_stones_only_when_the_duel_is_over(domino_duel, players):
    start(domino_duel, players[:2])
    move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), True))
    domino_duel = Room.objects.select_related("puzzle").get(pk=domino_duel.pk)
    running = render_to_string("rooms/room.html#body", room_context(domino_duel, players[1], now=PLAY))
    assert 'class="f" d=""' in running and "1 stone placed" in running
    for p in players[:2]:
        act(domino_duel.code, p, A.Forfeit(), now=PLAY)
    domino_duel = Room.objects.select_related("puzzle").get(pk=domino_duel.pk)
    assert domino_duel.state == "finished"
    after = render_to_string("rooms/room.html#body", room_context(domino_duel, players[1], now=PLAY))
    assert 'class="f" d="M' in after


def test_a_finished_duels_clock_stops_at_its_end_for_a_player_who_left(domino_duel, players):
    start(domino_duel, players[:2])
    left_at = PLAY + dt.timedelta(seconds=20)
    act(domino_duel.code, players[0], A.Forfeit(), now=PLAY + dt.timedelta(seconds=10))
    act(domino_duel.code, players[1], A.Forfeit(), now=left_at)
    domino_duel = Room.objects.select_related("puzzle").get(pk=domino_duel.pk)
    assert domino_duel.state == "finished"
    later = left_at + dt.timedelta(minutes=2)
    for p in players[:2]:
        html = render_to_string("rooms/room.html#body", room_context(domino_duel, p, now=later))
        # 10:00 from the end of the countdown (T0 + 3 s), stopped when the room ended: the
        # header's one clock, the time left (issue 43, 18: the board has no clock of its own)
        left = 600 - (domino_duel.finished_at - domino_duel.starts_at).total_seconds()
        assert f'data-countdown="1" data-running="0" data-elapsed="{left:.2f}"' in html, p
        assert 'data-label="Time left"' in html and "data-seconds-left" not in html, p


def test_a_game_over_watches_the_others_only_while_the_duel_runs(domino_duel, players):
    from django.urls import reverse

    from tests.conftest import client_for

    def page(player) -> str:
        return client_for(player).get(reverse("room", args=[domino_duel.code])).content.decode()

    start(domino_duel, players[:2])
    for _ in range(3):
        move(domino_duel, players[1], push_for(engine(domino_duel, players[1]), False))
    html = page(players[1])  # Ada still plays
    assert "Your game is over" in html and "watch the others finish" in html
    for _ in range(3):
        move(domino_duel, players[0], push_for(engine(domino_duel, players[0]), False))
    html = page(players[1])  # the duel is over: the podium and Play again instead
    assert "Your game is over" in html and "watch the others finish" not in html and ">Play again</button>" in html

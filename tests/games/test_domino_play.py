"""The pure action layer a Domino duel will reuse: state dicts in, state dicts out."""

import copy

import pytest

from games.domino import play
from games.engines import domino as d
from tests.conftest import PUZZLE, SOLUTION

GIVENS = tuple(int(ch) for ch in PUZZLE)
DIGITS = tuple(int(ch) for ch in SOLUTION)


@pytest.mark.parametrize(
    "data, action",
    [
        ({"push": "left-3"}, play.Push("left", 3)),
        ({"edge": "top", "line": "9", "version": "4"}, play.Push("top", 9, 4)),
        ({"joker": "gold", "cell": "5-6"}, play.Joker("gold", 5, 6)),
        ({"joker": "grey", "row": "1", "col": "3", "version": ""}, play.Joker("grey", 1, 3)),
    ],
)
def test_parse_action(data, action):
    assert play.parse_action(data) == action


def test_describe_names_the_edge_and_line():
    assert play.Push("left", 3).describe() == "Push from the left into row 3"
    assert play.Push("bottom", 7).describe() == "Push from the bottom into column 7"


def test_apply_action_is_pure_and_json_safe():
    data = play.start_state(GIVENS, DIGITS, 7, 1000.0)
    before = copy.deepcopy(data)
    state = play.load(data)
    (edge, line), _ = next(iter(d.entry_points(state).items()))
    new, outcome = play.apply_action(data, play.Push(edge, line), 1001.0)
    assert data == before and new != data and outcome.kind in ("placed", "wrong")
    assert play.load(new).move_count == 1


def test_players_with_the_same_start_play_the_same_stones():
    # A duel: every seat starts from the same puzzle and seed.
    one = play.start_state(GIVENS, DIGITS, "room-ABC123", 0.0)
    two = play.start_state(GIVENS, DIGITS, "room-ABC123", 0.0)
    assert one == two and play.load(one).bag == play.load(two).bag


def test_stale_version_and_finished_games_are_refused():
    data = play.start_state(GIVENS, DIGITS, 7, 0.0)
    with pytest.raises(play.StaleBoard):
        play.apply_action(data, play.Joker("grey", 1, 3, version=5), 1.0)
    ended = play.tick(data, 601.0)
    assert play.summary(ended)["end_reason"] == "time"
    with pytest.raises(d.GameOver):
        play.apply_action(ended, play.Joker("grey", 1, 3), 602.0)


def test_tick_before_the_limit_returns_the_same_dict():
    data = play.start_state(GIVENS, DIGITS, 7, 0.0)
    assert play.tick(data, 599.0) is data


def test_summary_holds_no_secrets():
    data = play.start_state(GIVENS, DIGITS, 7, 0.0)
    numbers = play.summary(data, 30.0)
    assert set(numbers) == {
        "score",
        "lives",
        "stones_placed",
        "jokers_used",
        "stones_left",
        "finished",
        "end_reason",
        "moves",
        "seconds_left",
    }
    assert numbers["seconds_left"] == 570.0 and numbers["lives"] == 3


def test_restore_gives_the_checked_load_of_what_the_write_path_stored():
    # The write path restores its own dicts without re-checking them: the same state as load.
    data = play.start_state(GIVENS, DIGITS, 11, 1000.0)
    for t in range(30):
        state = play.load(data)
        assert play.restore(data) == state
        if state.finished:
            break
        entries = list(d.entry_points(state).items())
        if not entries:
            break
        (edge, line), _ = entries[t % len(entries)]
        data, _ = play.apply_action(data, play.Push(edge, line), 1001.0 + t)
    assert play.restore(data) == play.load(data)

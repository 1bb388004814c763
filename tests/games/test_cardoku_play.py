"""The pure Cardoku layer (games/cardoku/play.py): parsing, actions on state dicts.
No database: a later Cardoku duel calls the same functions with one dict per seat."""

import json
import random

import pytest

from games.cardoku import play
from games.engines import cardoku as ck

SEED = 987654321


def start(layout=None, seed=SEED):
    return play.start_state(layout or ck.default_layout(), seed)


def first_legal(data):
    return sorted(ck.legal_squares(play.load(data)))[0]


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"action": "discard"}, play.Action("discard")),
        ({"action": "undo", "step": "3"}, play.Action("undo", step=3)),
        ({"action": "place", "row": "6", "col": "1"}, play.Action("place", 6, 1)),
        ({"action": "place", "square": "6,1", "step": "0"}, play.Action("place", 6, 1, 0)),
        ({"action": "place", "square": " 9-9 "}, play.Action("place", 9, 9)),
    ],
)
def test_parse_action(data, expected):
    assert play.parse_action(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action": ""},
        {"action": "PLACE"},
        {"action": "place"},
        {"action": "place", "row": "6"},
        {"action": "place", "row": "6", "col": "-1"},
        {"action": "place", "row": "6.0", "col": "1"},
        {"action": "place", "square": "6"},
        {"action": "place", "square": "6,1,2"},
        {"action": "discard", "step": "-1"},
        {"action": "discard", "step": "999999999"},
    ],
)
def test_parse_action_refuses_malformed_input(data):
    with pytest.raises(ck.BadMove):
        play.parse_action(data)


def test_start_state_is_json_and_the_same_for_the_same_deal():
    data = start()
    assert json.loads(json.dumps(data)) == data == start()
    assert data["step"] == 0 and data["moves"] == [] and data["deal_code"] == ck.deal_code(SEED)


def test_apply_action_places_discards_undoes_and_counts_steps():
    data = start()
    card = play.load(data).current_card
    square = first_legal(data)
    data, outcome = play.apply_action(data, play.Action("place", *square))
    assert outcome.kind == "placed" and outcome.card == card and outcome.square == square
    assert f"Placed the {card.name}" in outcome.message and data["step"] == 1
    nxt = play.load(data).current_card
    data, outcome = play.apply_action(data, play.Action("discard", step=1))
    assert outcome.kind == "discarded" and outcome.card == nxt and "−9" in outcome.message
    data, outcome = play.apply_action(data, play.Action("undo"))
    assert outcome.kind == "undone" and outcome.card == nxt and outcome.square is None
    data, outcome = play.apply_action(data, play.Action("undo"))
    assert outcome.square == square and "from row" in outcome.message
    assert data["step"] == 4 and data["moves"] == [] and play.load(data).current_card == card


def test_refusals_leave_the_dict_alone():
    data = start()
    before = json.dumps(data)
    with pytest.raises(ck.IllegalSquare):
        play.apply_action(data, play.Action("place", 1, 1))
    with pytest.raises(ck.NothingToUndo):
        play.apply_action(data, play.Action("undo"))
    with pytest.raises(play.StaleBoard):
        play.apply_action(data, play.Action("discard", step=5))
    assert json.dumps(data) == before


def test_a_finished_game_is_final():
    data = start()
    for _ in range(45):
        data, outcome = play.apply_action(data, play.Action("discard"))
    assert outcome.finished and "last card" in outcome.message
    assert play.summary(data) == {
        "score": -405,
        "units": 0,
        "discards": 45,
        "cards_left": 0,
        "cards_placed": 0,
        "finished": True,
        "step": 45,
    }
    for action in (play.Action("undo"), play.Action("discard"), play.Action("place", 6, 1)):
        with pytest.raises(ck.GameOver):
            play.apply_action(data, action)


def test_a_completed_unit_is_reported_with_its_points():
    # Fill squares greedily until some placement completes a unit.
    data = start()
    rng = random.Random(1)
    while True:
        state = play.load(data)
        if state.finished:
            pytest.skip("this deal completes no unit")
        legal = sorted(ck.legal_squares(state))
        action = play.Action("place", *rng.choice(legal)) if legal else play.Action("discard")
        data, outcome = play.apply_action(data, action)
        if outcome.completed:
            break
    unit = outcome.completed[0]
    assert f"{unit.kind.capitalize()} {unit.number} complete: {unit.points} points!" in outcome.message
    assert play.summary(data)["score"] == ck.score(play.load(data)).total


def test_tampered_state_does_not_load():
    data = start()
    data["board"][0] = "KH"
    with pytest.raises(ck.BadState):
        play.apply_action(data, play.Action("discard"))


@pytest.mark.parametrize(
    "placed, problem",
    [
        ({}, "missing"),
        ({(7, 1): "AS", (7, 2): "2S"}, "missing: 3, 4, 5, 6, 7, 8, 9 of spades"),
        ({(7, 1): "AS", (7, 2): "2S", (7, 3): "3S", (7, 5): "4S"}, "Row 7 has 4 spades"),
        ({(7, 1): "AS", (8, 1): "2S", (9, 1): "3S", (8, 2): "4S"}, "Box 7 has 4 spades"),
        ({(6, 1): "AS"}, "outside them"),
        (dict(zip(ck.STAIRCASE, "AS 2S 3S 4S 5S 6S 7S 8S 9S".split(), strict=True)), None),
    ],
)
def test_custom_problem(placed, problem):
    found = play.custom_problem(placed)
    assert (found is None) if problem is None else (problem in found)


def test_custom_incomplete_only_when_nothing_placed_breaks_a_rule():
    assert play.custom_incomplete({(7, 1): "AS"})
    assert not play.custom_incomplete({(6, 1): "AS"})
    assert not play.custom_incomplete({(7, 1): "AS", (7, 2): "2S", (7, 3): "3S", (7, 4): "4S"})
    assert not play.custom_incomplete(dict(zip(ck.STAIRCASE, "AS 2S 3S 4S 5S 6S 7S 8S 9S".split(), strict=True)))


def test_parse_layout_and_deal():
    assert play.parse_layout({}, 5) == ck.default_layout()
    assert play.parse_layout({"layout": "random"}, 5) == ck.random_layout(5)
    with pytest.raises(ck.BadMove):
        play.parse_layout({"layout": "spiral"}, 5)
    with pytest.raises(ck.LayoutError):
        play.parse_layout({"layout": "custom", "spade_1": "7,1"}, 5)
    assert play.parse_deal({"code": "0000001z"}) == 63
    assert 0 <= play.parse_deal({}, random.Random(3)) < ck.SEED_LIMIT
    with pytest.raises(ck.BadDealCode):
        play.parse_deal({"code": "nope"})


def test_restore_equals_the_checked_replay_for_every_stored_dict():
    """The write path's trusted load is the same state as the replay that checks every rule."""
    import random

    from games.cardoku import play
    from games.engines import cardoku as ck

    rng = random.Random(7)
    for seed in range(1, 6):
        state = play.load(play.start_state(ck.random_layout(seed), seed))
        for step in range(60):
            data = play.dump(state, step)
            assert play.restore(data) == ck.from_dict(data)
            if state.finished:
                break
            legal = sorted(ck.legal_squares(state))
            roll = rng.random()
            if roll < 0.15 and state.history:
                state = ck.undo(state)
            elif legal and roll < 0.8:
                state = ck.place(state, *rng.choice(legal))
            else:
                state = ck.discard(state)

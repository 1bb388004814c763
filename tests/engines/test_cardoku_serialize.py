"""Cardoku save/load (to_dict / from_dict) for a Django JSONField."""

import json

import pytest

from games.engines import cardoku as ck


def played(seed=21, steps=12):
    state = ck.new_game(ck.random_layout(seed), seed)
    for i in range(steps):
        legal = sorted(ck.legal_squares(state))
        state = ck.place(state, *legal[i % len(legal)]) if legal and i % 4 else ck.discard(state)
    return state


def test_round_trip_through_json():
    state = played()
    data = json.loads(json.dumps(ck.to_dict(state)))
    assert ck.from_dict(data) == state


def test_dict_contents():
    state = played()
    data = ck.to_dict(state)
    assert data["version"] == 1
    assert data["seed"] == state.seed and data["deal_code"] == state.deal_code
    assert data["moves"] == [list(m) for m in state.moves]
    assert data["layout"]["kind"] == "random"
    assert len(data["board"]) == 81 and data["board"].count(None) == 81 - len(state.cards_on_board())
    assert (data["position"], data["discards"], data["finished"]) == (12, state.discards, False)


def test_minimal_dict_is_enough():
    state = played()
    data = ck.to_dict(state)
    minimal = {"layout": data["layout"], "deal_code": data["deal_code"], "moves": data["moves"]}
    assert ck.from_dict(minimal) == state


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["board"].__setitem__(0, "KH"),
        lambda d: d.__setitem__("discards", 0),
        lambda d: d.__setitem__("position", 3),
        lambda d: d.__setitem__("finished", True),
        lambda d: d["moves"].append(["place", 1, 1]),  # not next to a card
        lambda d: d["moves"].append(["fly"]),
        lambda d: d.__setitem__("moves", "discard"),
        lambda d: d.__setitem__("seed", -1),
        lambda d: d.__setitem__("deal_code", "ZZZZZZZZ"),
        lambda d: d.__setitem__("version", 99),
        lambda d: d.pop("layout"),
        lambda d: d["layout"]["squares"].pop(),
        lambda d: d["board"].__setitem__(5, "??"),
    ],
)
def test_tampered_data_is_refused(tamper):
    data = ck.to_dict(played())
    tamper(data)
    with pytest.raises(ck.BadState):
        ck.from_dict(data)


def test_not_a_dict():
    with pytest.raises(ck.BadState):
        ck.from_dict(["nope"])

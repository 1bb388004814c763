"""Cardoku scoring: base values, additive multipliers, discards."""

import json

import pytest

from games.engines import cardoku as ck

HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
MIXED = ["AC", "2D", "3H", "4C", "5D", "6H", "7C", "8D", "9H"]  # A-9, no single suit


def board_with(units):
    """An 81-square board filling each (kind, number) with nine codes in reading order."""
    board = [None] * 81
    for (kind, number), codes in units.items():
        for (r, c), code in zip(ck.unit_squares(kind, number), codes, strict=True):
            board[(r - 1) * 9 + c - 1] = ck.parse_card(code)
    return board


def only_unit(units):
    result = ck.score_board(board_with(units))
    assert len(result.units) == 1
    return result.units[0]


TABLE = [
    # (unit, codes in reading order, bonuses, multiplier, points)
    (("row", 1), HEARTS, ("Clean", "Flush", "Straight", "Royal"), 9, 810),  # the worked example
    (("row", 1), HEARTS[::-1], ("Clean", "Flush", "Straight", "Royal"), 9, 810),
    (("row", 5), MIXED[::-1], ("Clean", "Straight"), 5, 250),  # a Straight read backwards
    (("row", 5), MIXED, ("Clean", "Straight"), 5, 250),
    (("row", 3), ["2C", "AD", "3H", "4C", "5D", "6H", "7C", "8D", "9H"], ("Clean",), 2, 140),
    (("row", 4), ["2H", "AH", "3H", "4H", "5H", "6H", "7H", "8H", "9H"], ("Clean", "Flush"), 4, 240),
    (("row", 1), HEARTS[:8] + ["KH"], ("Flush",), 2, 180),  # a wild of its suit keeps the Flush
    (("row", 1), ["QH"] + HEARTS[1:], ("Flush",), 2, 180),
    (("row", 1), HEARTS[:8] + ["X1"], (), 1, 90),  # a joker breaks the Flush
    (("row", 1), HEARTS[:8] + ["KD"], (), 1, 90),  # a wild of another suit breaks it too
    (("row", 9), ["AC", "2D", "3H", "4C", "KD", "6H", "7C", "8D", "9H"], (), 1, 10),
    (("column", 1), MIXED, ("Clean", "Straight"), 5, 300),  # outside column bonus: 60
    (("column", 9), ["2C", "AD"] + MIXED[2:], ("Clean",), 2, 120),
    (("column", 5), ["2C", "AD"] + MIXED[2:], ("Clean",), 2, 80),
    (("column", 2), MIXED[::-1], ("Clean", "Straight"), 5, 200),  # top to bottom, 9 down to A
    (("column", 3), HEARTS, ("Clean", "Flush", "Straight", "Royal"), 9, 360),
    (("box", 1), MIXED, ("Clean", "Straight"), 5, 400),  # row by row from the top left
    (("box", 1), ["AC", "4C", "7C", "2D", "5D", "8D", "3H", "6H", "9H"], ("Clean",), 2, 160),
    (("box", 5), HEARTS[::-1], ("Clean", "Flush", "Straight", "Royal"), 9, 450),
    (("box", 9), ["AC", "2D", "3H", "4C", "X2", "6H", "7C", "8D", "9H"], (), 1, 20),
]


@pytest.mark.parametrize("unit, codes, bonuses, multiplier, points", TABLE)
def test_unit_scores(unit, codes, bonuses, multiplier, points):
    result = only_unit({unit: codes})
    assert (result.kind, result.number) == unit
    assert result.bonuses == bonuses
    assert result.multiplier == multiplier
    assert result.points == points == result.base * multiplier


@pytest.mark.parametrize("number, base", [(r, 10 * (10 - r)) for r in range(1, 10)])
def test_row_bases(number, base):
    assert ck.unit_base("row", number) == base


@pytest.mark.parametrize("number, base", [(1, 60), (2, 40), (5, 40), (8, 40), (9, 60)])
def test_column_bases(number, base):
    assert ck.unit_base("column", number) == base


@pytest.mark.parametrize(
    "number, base", [(1, 80), (2, 80), (3, 80), (4, 50), (5, 50), (6, 50), (7, 20), (8, 20), (9, 20)]
)
def test_box_bands(number, base):
    assert ck.unit_base("box", number) == base


def test_worked_example_total():
    result = ck.score_board(board_with({("row", 1): HEARTS}))
    assert result.total == result.units_total == 810
    assert result.discards == 0 and result.discard_penalty == 0


def test_incomplete_units_score_nothing():
    board = board_with({("row", 1): HEARTS})
    board[4] = None
    assert ck.score_board(board).units == ()


def test_several_units_add_up_and_discards_subtract():
    # Row 1 (Royal, 810) and column 1 sharing the A♥ (Clean Straight, 60 x 5 = 300).
    board = board_with({("row", 1): HEARTS, ("column", 1): ["AH", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D"]})
    result = ck.score_board(board, discards=4)
    assert [(u.kind, u.number, u.points) for u in result.units] == [("row", 1, 810), ("column", 1, 300)]
    assert result.discard_penalty == -36
    assert result.total == 810 + 300 - 36


def test_score_can_go_negative():
    assert ck.score_board([None] * 81, discards=3).total == -27


def test_breakdown_is_json_safe():
    data = ck.score_board(board_with({("row", 1): HEARTS}), discards=1).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["total"] == 801
    assert data["units"][0] == {
        "kind": "row", "number": 1, "base": 90,
        "bonuses": ["Clean", "Flush", "Straight", "Royal"], "multiplier": 9, "points": 810,
    }  # fmt: skip


def test_score_of_a_state():
    state = ck.discard(ck.new_game(None, 4))
    assert ck.score(state) == ck.score_board(state.board, 1)


def test_a_state_scored_again_is_not_scored_anew():
    before = ck.new_game(None, 4)
    after = ck.discard(before)
    first = ck.score(before), ck.score(after)
    assert (ck.score(before), ck.score(after)) == first and ck.score(after) is first[1]
    assert ck.score(ck.discard(after)).discards == 2  # another state (equal boards): its own score

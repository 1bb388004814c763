"""Cardoku starting layouts."""

import pytest

from games.engines import cardoku as ck

S = {c.digit: c for c in ck.SPADES}


def staircase_mapping():
    return {sq: S[d] for d, sq in zip(range(1, 10), ck.STAIRCASE, strict=True)}


def test_default_layout_is_the_staircase():
    layout = ck.default_layout()
    assert layout.kind == "default"
    assert layout.as_mapping() == {
        (7, 1): S[1], (7, 2): S[2], (7, 3): S[3],
        (8, 4): S[4], (8, 5): S[5], (8, 6): S[6],
        (9, 7): S[7], (9, 8): S[8], (9, 9): S[9],
    }  # fmt: skip


def test_random_layout_uses_staircase_squares_and_is_seeded():
    a = ck.random_layout(99)
    assert a.kind == "random"
    assert set(a.as_mapping()) == set(ck.STAIRCASE)
    assert set(a.as_mapping().values()) == set(ck.SPADES)
    assert ck.random_layout(99) == a
    assert len({ck.random_layout(s).placements for s in range(20)}) > 1


def test_custom_layout_accepts_staircase():
    assert ck.custom_layout(staircase_mapping()).as_mapping() == ck.default_layout().as_mapping()


def test_custom_layout_accepts_card_to_square_and_codes():
    layout = ck.custom_layout({c.code: sq for sq, c in staircase_mapping().items()})
    assert layout.as_mapping() == ck.default_layout().as_mapping()


def test_three_in_one_column_is_fine():
    mapping = {
        (7, 1): "AS", (8, 1): "2S", (9, 1): "3S",
        (7, 4): "4S", (8, 5): "5S", (9, 6): "6S",
        (7, 9): "7S", (8, 8): "8S", (9, 7): "9S",
    }  # fmt: skip
    assert ck.custom_layout(mapping).kind == "custom"


def _error(mapping):
    with pytest.raises(ck.LayoutError) as info:
        ck.custom_layout(mapping)
    return str(info.value)


def test_four_in_a_row_refused():
    mapping = {
        (7, 1): "AS", (7, 2): "2S", (7, 4): "3S", (7, 5): "4S",
        (8, 6): "5S", (8, 7): "6S", (9, 7): "7S", (9, 8): "8S", (9, 9): "9S",
    }  # fmt: skip
    assert "Row 7 has 4 spades" in _error(mapping)


def test_four_in_a_box_refused():
    mapping = {
        (7, 1): "AS", (7, 2): "2S", (8, 1): "3S", (8, 2): "4S",
        (7, 5): "5S", (8, 5): "6S", (9, 7): "7S", (9, 8): "8S", (9, 9): "9S",
    }  # fmt: skip
    assert "Box 7 has 4 spades" in _error(mapping)


def test_spade_twice_refused():
    mapping = staircase_mapping()
    mapping[(9, 9)] = S[1]
    message = _error(mapping)
    assert "Ace of spades is placed 2 times" in message


def test_missing_spade_refused():
    mapping = staircase_mapping()
    del mapping[(9, 9)]
    assert "missing: 9 of spades" in _error(mapping)


def test_row_6_refused():
    mapping = staircase_mapping()
    del mapping[(7, 1)]
    mapping[(6, 1)] = S[1]
    assert "row 6, column 1 is outside" in _error(mapping)


@pytest.mark.parametrize("card", ["AH", "KS", "X1"])
def test_only_spades_ace_to_nine(card):
    mapping = staircase_mapping()
    mapping[(9, 9)] = card
    assert "Only the Ace to 9 of spades" in _error(mapping)


def test_two_cards_on_one_square_refused():
    mapping = {c.code: sq for sq, c in staircase_mapping().items()}
    mapping["9S"] = (7, 1)
    assert "same square" in _error(mapping)


@pytest.mark.parametrize("bad", [{(7, 1): "ZZ"}, {"AS": "seven"}, [1, 2], {(7, 0): "AS"}])
def test_garbage_is_a_layout_error(bad):
    with pytest.raises(ck.LayoutError):
        ck.custom_layout(bad)


def test_layout_dict_round_trip():
    for layout in (ck.default_layout(), ck.random_layout(5)):
        assert ck.Layout.from_dict(layout.to_dict()) == layout

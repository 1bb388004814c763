"""games/engines/ranking.py: equal results share a place, the next result takes its own
position (1, 1, 3), for every ranked list in the project."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.ranking import places


@pytest.mark.parametrize(
    "scores, expected",
    [
        ([], []),
        ([50], [1]),
        ([90, 90, 70], [1, 1, 3]),
        ([90, 80, 80, 80, 10], [1, 2, 2, 2, 5]),
        ([5, 5, 5], [1, 1, 1]),
        ([None, None, 3], [1, 1, 3]),  # a key may be None
    ],
)
def test_equal_keys_share_a_place(scores, expected):
    assert [place for place, _ in places(scores, key=lambda score: score)] == expected


def test_items_keep_their_order_and_only_the_key_decides_ties():
    runs = [("ada", 61.0, 0), ("bob", 61.0, 1), ("cy", 61.0, 0)]  # (name, time, mistakes)
    assert places(runs, key=lambda run: run[1]) == [(1, runs[0]), (1, runs[1]), (1, runs[2])]
    assert [p for p, _ in places(runs, key=lambda run: run[1:])] == [1, 2, 3]


@given(st.lists(st.integers(0, 4)).map(sorted))
def test_a_place_is_one_more_than_the_number_of_better_items(keys):
    for place, key in places(keys, key=lambda k: k):
        assert place == 1 + sum(1 for other in keys if other < key)

"""The public races' pairing rules (docs/rules.md 9), with worked examples: rooms/pairing.py."""

from hypothesis import given
from hypothesis import strategies as st

from pool.pairing import GHOST_SECONDS, OPEN, PAIR_SECONDS, RATED, Waiting, groups_of, pair, sizes


def w(entry, key, band=RATED, asked=0.0, last=()):
    return Waiting(entry=entry, player=entry, key=key, band=band, asked=asked, last=frozenset(last))


def ids(groups):
    return [[x.entry for x in group] for group in groups]


def test_sizes_are_as_even_as_possible_between_three_and_five():
    assert sizes(3) == [3]
    assert sizes(5) == [5]
    assert sizes(6) == [3, 3]
    assert sizes(9) == [5, 4]
    assert sizes(11) == [4, 4, 3]
    assert sizes(1000) == [5] * 200


def test_nearest_ratings_race_together():
    # Nine waiting, given in no order: the five lowest race, then the four highest.
    keys = [1800, 1000, 1500, 1100, 1300, 1700, 1200, 1600, 1400]
    result = pair([w(i, key) for i, key in enumerate(keys)], now=1)
    groups = [[x.key for x in group] for group in result.groups]
    assert groups == [[1000, 1100, 1200, 1300, 1400], [1500, 1600, 1700, 1800]]
    assert result.starts == {} and result.alone == []


def test_two_wait_twenty_seconds_after_the_second_asked_and_a_third_starts_at_once():
    first, second = w(1, 1500, asked=0), w(2, 1520, asked=5)
    waiting = pair([first, second], now=10)
    assert waiting.groups == [] and waiting.starts == {1: 5 + PAIR_SECONDS, 2: 5 + PAIR_SECONDS}
    assert ids(pair([first, second], now=5 + PAIR_SECONDS).groups) == [[1, 2]]
    # A third at 12 s: the three start at once, not at 25 s.
    assert ids(pair([first, second, w(3, 1490, asked=12)], now=12).groups) == [[3, 1, 2]]


def test_one_alone_waits():
    result = pair([w(1, 1500)], now=100)
    assert result.groups == [] and result.starts == {} and ids([result.alone]) == [[1]]


def test_no_same_two_twice_in_a_row_when_others_wait():
    # A and B raced each other last time; six waiting make two groups of three. Without the
    # rule A, B, C would race; with it B is passed over for the next nearest, D.
    a, b = w(1, 1000, last={2}), w(2, 1010, last={1})
    others = [w(3, 1020), w(4, 1030), w(5, 1040), w(6, 1050)]
    assert ids(groups_of([a, b, *others])) == [[1, 3, 4], [2, 5, 6]]


def test_a_repeat_is_allowed_when_nobody_else_waits():
    a, b, c = w(1, 1000, last={2}), w(2, 1010, last={1}), w(3, 1020)
    assert [sorted(g) for g in ids(pair([a, b, c], now=0).groups)] == [[1, 2, 3]]


def test_bands_pair_apart_until_the_left_over_have_waited_ten_seconds():
    rated = [w(1, 1500), w(2, 1510), w(3, 1520)]
    newcomers = [w(10, 1500, OPEN, asked=0), w(11, 1400, OPEN, asked=3)]
    result = pair(rated + newcomers, now=5)
    assert ids(result.groups) == [[1, 2, 3]]
    assert set(result.starts) == {10, 11}  # the newcomers' pair: 20 s after the second asked
    # One established player alone and one newcomer: after 10 s they race across bands...
    mixed = [w(1, 1900, asked=0), w(10, 1500, OPEN, asked=0), w(11, 1400, OPEN, asked=1)]
    assert ids(pair(mixed, now=9).groups) == []
    assert ids(pair(mixed, now=10).groups) == [[11, 10, 1]]


def test_a_thousand_waiting_all_seated_once_in_rooms_of_three_to_five():
    waiting = [w(i, 1000 + (i * 7919) % 1000, last={i + 1, i - 1}) for i in range(1000)]
    result = pair(waiting, now=0)
    seated = [x.entry for group in result.groups for x in group]
    assert sorted(seated) == list(range(1000))
    assert all(3 <= len(group) <= 5 for group in result.groups)
    keys = [[x.key for x in group] for group in result.groups]
    assert all(max(k) - min(k) <= 30 for k in keys)  # neighbours, not strangers across the range


@given(
    st.lists(
        st.tuples(
            st.integers(0, 3000),
            st.sampled_from([RATED, OPEN]),
            st.floats(0, 60),
            st.sets(st.integers(0, 30), max_size=4),
        ),
        max_size=30,
    ),
    st.floats(0, 90),
)
def test_nobody_is_seated_twice_and_every_room_holds_two_to_five(people, now):
    waiting = [w(i, key, band, min(asked, now), last) for i, (key, band, asked, last) in enumerate(people)]
    result = pair(waiting, now)
    seated = [x.entry for group in result.groups for x in group]
    assert len(seated) == len(set(seated))
    assert all(2 <= len(group) <= 5 for group in result.groups)
    everyone = seated + list(result.starts) + [x.entry for x in result.alone]
    assert sorted(everyone) == list(range(len(waiting)))  # each one is somewhere, once
    for group in result.groups:
        if len(group) == 2:
            assert now >= max(x.asked for x in group) + PAIR_SECONDS


def test_one_alone_for_fifteen_seconds_races_ghosts():
    alone = w(1, 1500, asked=0)
    assert pair([alone], now=GHOST_SECONDS - 1).ghosted == []
    result = pair([alone], now=GHOST_SECONDS)
    assert result.ghosted == [alone] and result.groups == [] and result.alone == [alone]  # no ghosts: waits on


def test_two_for_fifteen_seconds_race_one_ghost_before_their_pair_would_start():
    first, second = w(1, 1500, asked=0), w(2, 1900, band=OPEN, asked=9)
    result = pair([first, second], now=GHOST_SECONDS)
    assert [x.entry for x in result.ghosted] == [1, 2]
    # Three waiting is a race without ghosts; so is a pair whose 20 s are up.
    assert pair([first, second, w(3, 1600, asked=14)], now=GHOST_SECONDS).ghosted == []
    late = pair([w(1, 1500, asked=0), w(2, 1510, asked=1)], now=1 + PAIR_SECONDS)
    assert ids(late.groups) == [[1, 2]] and late.ghosted == []

"""An arena's rules with worked examples (docs/rules.md 12): points, fire, berserk, leaving,
and the pairing of the waiting."""

from arenas import pairing, scoring
from arenas.scoring import Seat


def points_of(seats):
    return {s.entry: (s.points, s.firsts, s.fire) for s in scoring.score(seats)}


def test_points_are_the_opponents_ranked_behind_and_a_leaver_scores_nothing():
    seats = [
        Seat(1, place=1, left=False, berserk=False, firsts=0, seconds=200.0),
        Seat(2, place=2, left=False, berserk=False, firsts=1, seconds=260.0),
        Seat(3, place=2, left=False, berserk=False, firsts=0, seconds=None),  # tied second, still solving
        Seat(4, place=4, left=True, berserk=False, firsts=3, seconds=None),
    ]
    # Ana beat three; Bo and Cy (tied) beat the leaver only; Di left: 0, and his run of firsts ends.
    assert points_of(seats) == {1: (3, 1, False), 2: (1, 0, False), 3: (1, 0, False), 4: (0, 0, False)}


def test_two_firsts_in_a_row_light_the_fire_from_the_next_room_until_a_room_not_won():
    ana = 1
    firsts = 0
    got = []
    for place in (1, 1, 1, 2, 1):  # five rooms of three players, Ana's places
        seats = [
            Seat(ana, place=place, left=False, berserk=False, firsts=firsts, seconds=100.0),
            Seat(2, place=1 if place != 1 else 2, left=False, berserk=False, firsts=0, seconds=110.0),
            Seat(3, place=3, left=False, berserk=False, firsts=0, seconds=120.0),
        ]
        points, firsts, fire = points_of(seats)[ana]
        got.append((points, fire))
    # 2, 2, then on fire: 4; second on fire: 1 x 2 = 2 and the fire goes out; then 2 again.
    assert got == [(2, False), (2, False), (4, True), (2, True), (2, False)]


def test_berserk_adds_one_to_a_first_place_after_the_doubling():
    on_fire_berserk = Seat(1, place=1, left=False, berserk=True, firsts=2, seconds=90.0)
    other = Seat(2, place=2, left=False, berserk=True, firsts=0, seconds=95.0)
    assert points_of([on_fire_berserk, other]) == {1: (3, 3, True), 2: (0, 0, False)}  # 1 x 2 + 1; 0


def test_groups_of_two_to_five_nearest_points_first():
    assert [pairing.sizes(n) for n in (0, 1, 2, 5, 6, 7, 11)] == [[], [], [2], [5], [3, 3], [4, 3], [4, 4, 3]]
    waiting = [
        pairing.Waiting(i, points=p, rating=1500.0, since=0.0, last=frozenset())
        for i, p in enumerate([9, 1, 8, 2, 7, 3])
    ]
    groups = pairing.pair(waiting, now=1.0)
    assert [sorted(w.points for w in g) for g in groups] == [[7, 8, 9], [1, 2, 3]]


def test_the_same_group_twice_in_a_row_is_broken_up_or_waits():
    last = frozenset({1, 2})
    pair_again = [pairing.Waiting(i, points=0, rating=1500.0, since=0.0, last=last) for i in (1, 2)]
    assert pairing.pair(pair_again, now=5.0) == []  # nobody else: they wait
    assert len(pairing.pair(pair_again, now=pairing.REMATCH_SECONDS)) == 1  # then race again
    six = [pairing.Waiting(i, points=10 - i, rating=1500.0, since=0.0, last=frozenset({1, 2, 3})) for i in (1, 2, 3)]
    six += [pairing.Waiting(i, points=10 - i, rating=1500.0, since=0.0, last=frozenset({4, 5, 6})) for i in (4, 5, 6)]
    groups = pairing.pair(six, now=1.0)
    assert [sorted(w.entry for w in g) for g in groups] == [[1, 2, 4], [3, 5, 6]]

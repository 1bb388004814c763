"""The Showdown rating (docs/rules.md section 8): worked examples through the rooms' write path,
the rated-room rules, idempotence, the recomputation, and properties of the model."""

import datetime as dt

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Puzzle
from games.sudoku.play import Enter
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Room
from rooms.store import record_results
from stats import ratings
from stats.models import Rating, RatingChange, RoomRating
from tests.conftest import EMPTY, PUZZLE, SOLUTION
from tests.stats.rated_rooms import race, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(db):
    return [signed_in(name) for name in ("Ada", "Grace", "Linus")]


def changes(room) -> dict[str, RatingChange]:
    rows = RatingChange.objects.filter(room=room).select_related("profile")
    return {c.profile.display_name if c.profile else "": c for c in rows}


def test_a_new_rating_is_1500_and_provisional():
    assert ratings.shown(ratings.MU, ratings.SIGMA) == 1500
    assert ratings.provisional(ratings.SIGMA)


def test_three_players_with_a_tie_for_first(three, bank_puzzle):
    ada, grace, linus = three
    room = race(three, finish=[(ada, 60), (grace, 60), (linus, 90)])
    got = changes(room)
    assert [got[n].rank for n in ("Ada", "Grace", "Linus")] == [1, 1, 3]
    # The tied two move alike and up; the third goes down; mu is only passed around.
    assert got["Ada"].after == got["Grace"].after > 1500 > got["Linus"].after
    assert got["Ada"].mu_after == pytest.approx(got["Grace"].mu_after)
    assert sum(c.mu_after - c.mu_before for c in got.values()) == pytest.approx(0, abs=1e-9)
    assert all(c.before == 1500 and c.sigma_after < c.sigma_before for c in got.values())
    rating = Rating.objects.get(account=ada.account)
    assert (rating.shown, rating.rooms, rating.profile_id) == (got["Ada"].after, 1, ada.pk)


def test_a_player_who_left_ranks_last_even_with_more_cells_than_an_eliminated_one(three, bank_puzzle):
    ada, grace, linus = three
    room = race(three, preset="hardcore", leave=[grace], eliminate=[linus], finish=[(ada, 60)], cells=30)
    assert room.seats.get(player=grace).progress > room.seats.get(player=linus).progress
    got = changes(room)
    assert (got["Ada"].rank, got["Linus"].rank, got["Grace"].rank) == (1, 2, 3)
    assert got["Grace"].after < got["Linus"].after < got["Ada"].after


def test_a_provisional_player_beating_an_established_one_moves_more(db, bank_puzzle):
    new, old = signed_in("Newcomer"), signed_in("Veteran")
    Rating.objects.create(
        account=old.account, profile=old, mu=30.0, sigma=3.0, shown=ratings.shown(30, 3), rooms=40,
        last_room_at=timezone.now(),
    )  # fmt: skip
    room = race([new, old], finish=[(new, 60), (old, 90)])
    got = changes(room)
    assert got["Veteran"].before == ratings.shown(30, 3) and got["Newcomer"].before == 1500
    assert got["Newcomer"].delta > 0 > got["Veteran"].delta
    assert abs(got["Newcomer"].delta) > abs(got["Veteran"].delta)
    assert got["Newcomer"].mu_after - got["Newcomer"].mu_before > got["Veteran"].mu_before - got["Veteran"].mu_after
    assert ratings.provisional(got["Newcomer"].sigma_after) and not ratings.provisional(got["Veteran"].sigma_after)


def test_the_same_finished_room_written_again_changes_nothing(three, bank_puzzle):
    ada, grace, linus = three
    room = race(three, finish=[(ada, 60), (grace, 70), (linus, 80)])
    stored = {r.account_id: (r.mu, r.sigma, r.rooms) for r in Rating.objects.all()}
    seats = list(room.seats.all())
    record_results(room, seats, timezone.now())  # a retried final write
    ratings.rate_room(room, seats, timezone.now())
    assert RatingChange.objects.filter(room=room).count() == 3 and RoomRating.objects.count() == 1
    # A writer that never saw the room's RoomRating (a race) hits the unique (room, player) rows.
    RoomRating.objects.filter(room=room).delete()
    ratings.rate_room(room, seats, timezone.now())
    assert RatingChange.objects.filter(room=room).count() == 3
    assert {r.account_id: (r.mu, r.sigma, r.rooms) for r in Rating.objects.all()} == stored


def test_the_sixth_room_of_the_same_group_in_a_day_is_unrated(db, bank_puzzle):
    ada, grace = signed_in("Ada"), signed_in("Grace")
    rooms = [race([ada, grace], finish=[(ada, 60), (grace, 70)]) for _ in range(6)]
    decided = [RoomRating.objects.get(room=room) for room in rooms]
    assert [d.rated for d in decided] == [True] * 5 + [False]
    assert decided[-1].reason == RoomRating.Reason.GROUP_LIMIT
    assert not RatingChange.objects.filter(room=rooms[-1]).exists()
    assert Rating.objects.get(account=ada.account).rooms == 5
    # Another group (one more player) still rates that day.
    linus = signed_in("Linus")
    room = race([ada, grace, linus], finish=[(ada, 60), (grace, 70), (linus, 80)])
    assert RoomRating.objects.get(room=room).rated


def test_unrated_rooms_say_why(db, bank_puzzle, player):
    ada, grace = signed_in("Ada"), signed_in("Grace")
    anonymous = race([ada, player], finish=[(ada, 60), (player, 70)])
    custom_rules = A.SetRules("easy", A.parse_rules({"level": "easy", "preset": "custom", "hint_limit": 5}).rules)
    custom = race([ada, grace], finish=[(ada, 60), (grace, 70)], rules=custom_rules)
    standard = A.parse_rules({"level": "easy", "preset": "standard", "rating": "unrated"})
    off = race([ada, grace], finish=[(ada, 60), (grace, 70)], rules=standard)
    reasons = [RoomRating.objects.get(room=room).reason for room in (anonymous, custom, off)]
    assert reasons == ["anonymous", "custom", "host_off"]
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_recomputation_from_scratch_gives_the_same_numbers(db, bank_puzzle):
    ada, grace, linus = signed_in("Ada"), signed_in("Grace"), signed_in("Linus")
    long_ago = timezone.now() - dt.timedelta(days=90)
    race([ada, grace, linus], finish=[(ada, 60), (grace, 70), (linus, 80)], now=long_ago)
    race([linus, ada], finish=[(linus, 50), (ada, 60)], now=long_ago + dt.timedelta(hours=1))
    # Ninety days later: idle growth applies before this room.
    race([grace, ada], finish=[(grace, 50), (ada, 51)])
    grace_now = RatingChange.objects.filter(account=grace.account).last()
    assert grace_now.sigma_before > RatingChange.objects.filter(account=grace.account).first().sigma_after
    stored = list(RatingChange.objects.values_list("mu_after", "sigma_after", "before", "after"))
    ranked = {r.account_id: (r.mu, r.sigma, r.shown, r.rooms) for r in Rating.objects.all()}
    assert ratings.recompute() == 0
    assert list(RatingChange.objects.values_list("mu_after", "sigma_after", "before", "after")) == stored
    assert {r.account_id: (r.mu, r.sigma, r.shown, r.rooms) for r in Rating.objects.all()} == ranked
    # A damaged row is put right, by the command as by the function.
    RatingChange.objects.filter(pk=RatingChange.objects.first().pk).update(after=1)
    Rating.objects.filter(account=ada.account).update(shown=1)
    call_command("recompute_ratings")
    assert list(RatingChange.objects.values_list("mu_after", "sigma_after", "before", "after")) == stored
    assert Rating.objects.get(account=ada.account).shown == ranked[ada.account_id][2]


def test_idle_weeks_grow_the_uncertainty_after_the_grace(settings):
    now = timezone.now()
    assert ratings.idle_sigma(3.0, now - dt.timedelta(days=29), now) == 3.0
    grown = ratings.idle_sigma(3.0, now - dt.timedelta(days=30 + 7 * 4), now)
    assert grown == pytest.approx((9 + 4 * settings.RATING_IDLE_SIGMA_PER_WEEK**2) ** 0.5)
    assert ratings.idle_sigma(3.0, now - dt.timedelta(days=100 * 365), now) == ratings.SIGMA


def test_a_room_of_another_game_is_never_rated(db):
    assert ratings.rate_room(Room(pk=1, game="domino"), [], timezone.now()) is None


players = st.lists(st.floats(10, 40), min_size=2, max_size=5)


@settings(max_examples=200, deadline=None)
@given(players, st.floats(1.0, ratings.SIGMA), st.data())
def test_a_room_passes_mu_around_when_sigmas_are_equal(mus, sigma, data):
    ranks = data.draw(st.lists(st.integers(1, len(mus)), min_size=len(mus), max_size=len(mus)))
    after = ratings.update([(mu, sigma) for mu in mus], ranks)
    assert sum(mu for mu, _s in after) == pytest.approx(sum(mus), abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.floats(10, 40), st.floats(1.0, ratings.SIGMA)), min_size=2, max_size=5),
    st.data(),
)
def test_winning_never_lowers_the_shown_number(players, data):
    """limit_sigma is on: a room never raises sigma, and the winner's mu never falls."""
    ranks = [1] + data.draw(st.lists(st.integers(2, 5), min_size=len(players) - 1, max_size=len(players) - 1))
    after = ratings.update(players, ranks)
    assert ratings.shown(*after[0]) >= ratings.shown(*players[0])
    assert all(s1 <= s0 + 1e-12 for (_m0, s0), (_m1, s1) in zip(players, after, strict=True))


def test_signing_in_during_play_does_not_make_the_room_rated_nor_signing_out_unrated(db):
    """Issue 45 item 5: who is signed in is fixed as the countdown starts."""
    import datetime as dt

    from django.contrib.auth import get_user_model

    from games.models import Puzzle
    from players.models import Profile
    from rooms import actions as A
    from rooms.api import act, create_room
    from stats.models import RatingChange, RoomRating
    from tests.conftest import EMPTY, PUZZLE, SOLUTION
    from tests.stats.rated_rooms import signed_in

    def play(first_hook):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
        ada, grace = first_hook()
        room = create_room(ada, level="easy", preset="standard")
        act(room.code, grace, A.Join())
        act(room.code, grace, A.SetReady(True))
        started = act(room.code, ada, A.Start()).room
        return room, ada, grace, started.starts_at + dt.timedelta(seconds=1)

    # Anonymous at the countdown, signed in before the win: unrated.
    room, ada, grace, at = play(lambda: (Profile.objects.create(display_name="Ada"), signed_in("Grace")))
    ada.account = get_user_model().objects.create(username="ada", email="ada@example.com")
    ada.save()
    for cell in EMPTY:
        act(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    act(room.code, grace, A.Forfeit(), now=at + dt.timedelta(seconds=31))  # past the early-forfeit window
    assert RoomRating.objects.get(room_id=room.pk).rated is False
    assert not RatingChange.objects.filter(room_id=room.pk).exists()

    # Signed in at the countdown, signed out before the end: still rated, for the account.
    room, ada, grace, at = play(lambda: (signed_in("Ann"), signed_in("Bea")))
    account = ada.account_id
    Profile.objects.filter(pk=ada.pk).update(account=None)  # this browser signed out mid-race
    for cell in EMPTY:
        act(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    act(room.code, grace, A.Forfeit(), now=at + dt.timedelta(seconds=31))  # past the early-forfeit window
    assert RoomRating.objects.get(room_id=room.pk).rated is True
    assert RatingChange.objects.get(room_id=room.pk, profile=ada).account_id == account


def test_a_sybils_loss_moves_an_established_player_a_few_points_at_most(db, bank_puzzle):
    """Issue 45 item 4: a new account's first rooms move an established player little
    (OpenSkill weighs each change by the players' uncertainty)."""
    old, sybil = signed_in("Veteran"), signed_in("Sybil")
    Rating.objects.create(
        account=old.account, profile=old, mu=30.0, sigma=3.0, shown=ratings.shown(30, 3), rooms=40,
        last_room_at=timezone.now(),
    )  # fmt: skip
    got = changes(race([old, sybil], finish=[(old, 60), (sybil, 90)]))
    assert 0 < got["Veteran"].delta <= 10  # a few points for beating a newcomer
    assert Rating.objects.get(account=sybil.account).rivals == 1  # the veteran counts as a rival
    assert Rating.objects.get(account=old.account).rivals == 0  # a newcomer is nobody's rival


def test_a_forfeit_in_the_first_30_seconds_leaves_the_room_unrated(three, bank_puzzle):
    ada, grace, linus = three
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    room = create_room(ada, level="easy")
    now = timezone.now()
    for p in (grace, linus):
        act(room.code, p, A.Join(), now=now)
    for p in three:
        act(room.code, p, A.SetReady(True), now=now)
    act(room.code, ada, A.Start(), now=now)
    play = now + dt.timedelta(seconds=django_settings.COUNTDOWN_SECONDS)
    act(room.code, linus, A.Forfeit(), now=play + dt.timedelta(seconds=20))
    for who, seconds in ((ada, 60), (grace, 70)):
        for cell in EMPTY:
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=play + dt.timedelta(seconds=seconds))
    decision = RoomRating.objects.get(room_id=room.pk)
    assert not decision.rated and decision.reason == "early_forfeit"
    assert not RatingChange.objects.exists()

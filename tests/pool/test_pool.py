"""Race now (docs/rules.md 9) through the pool's service and views: asking, pairing into
public rooms, the 20 s start with two, the leave penalty, ratings among the signed-in, and
every refusal."""

import datetime as dt
import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.models import Puzzle
from games.sudoku.play import Enter
from players.models import Profile
from pool import service
from pool.models import PoolEntry
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, act
from rooms.gametypes import game_for
from rooms.models import Room
from stats.models import RatingChange, RoomRating
from tests.conftest import EMPTY, PUZZLE, SOLUTION, client_for, require_service
from tests.stats.rated_rooms import SHORT, blanks, signed_in

# an empty cache: each test's ticks take their turn at once
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def bank(n=3, level="easy", givens=PUZZLE):
    for _ in range(n):
        Puzzle.objects.create(
            level=level, givens=givens, solution=SOLUTION, clues=30, techniques=["naked single"], seed=1
        )


def people(*names):
    return [Profile.objects.create(display_name=name) for name in names]


def finish(room, player, at):
    room.refresh_from_db()
    for cell in blanks(room):
        act(room.code, player, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)


def test_three_asking_race_at_once_in_a_public_standard_room():
    bank()
    now = timezone.now()
    ada, grace, linus = people("Ada", "Grace", "Linus")
    service.ask(ada, "easy", now)
    service.ask(grace, "easy", now)
    assert not Room.objects.exists()  # two: they wait (20 s, or a third)
    service.ask(linus, "easy", now + dt.timedelta(seconds=1))
    room = Room.objects.get()
    assert room.public and room.host is None and room.level == "easy"
    assert room.state == Room.State.COUNTDOWN and game_for(room).preset(room) == "standard"
    assert {s.player_id for s in room.seats.all()} == {ada.pk, grace.pk, linus.pk}
    assert set(PoolEntry.objects.values_list("state", flat=True)) == {"seated"}
    entry = PoolEntry.objects.get(player=ada)
    assert entry.room == room and sorted(entry.last_opponents) == sorted([-grace.pk, -linus.pk])


def test_two_race_twenty_seconds_after_the_second_asked():
    bank()
    now = timezone.now()
    ada, grace = people("Ada", "Grace")
    service.ask(ada, "easy", now)
    service.ask(grace, "easy", now + dt.timedelta(seconds=4))
    PoolEntry.objects.update(seen_at=now + dt.timedelta(seconds=22))  # their pages still poll
    cache.clear()
    assert service.tick("easy", now + dt.timedelta(seconds=23)) == []
    view = service.waiting_view(PoolEntry.objects.get(player=ada), now + dt.timedelta(seconds=23))
    assert view.starts_in == 1  # 4 + 20 - 23
    cache.clear()
    [code] = service.tick("easy", now + dt.timedelta(seconds=24))
    assert Room.objects.get(code=code).seats.count() == 2


def test_the_same_two_do_not_race_twice_in_a_row_when_others_wait():
    bank(3)
    now = timezone.now()
    a, b, c, d, e, f, g = people("A", "B", "C", "D", "E", "F", "G")
    for p in (a, b, c):
        service.ask(p, "easy", now)
    first = Room.objects.get()
    for p in (a, b, c):
        act(first.code, p, A.Forfeit(), now=first.starts_at + dt.timedelta(seconds=1))
    # A and B wait again with four others, all with the same recent-results key: six make two
    # rooms of three, and without the rule A and B (the first two) would race again.
    later = timezone.now()
    for p in (a, b, d, e, f, g):
        last = PoolEntry.objects.filter(player=p, state="seated").values_list("last_opponents", flat=True).first()
        PoolEntry.objects.create(
            player=p, level="easy", band="open", key=1500, asked_at=later, seen_at=later, last_opponents=last or []
        )
    service.tick("easy", later, force=True)
    rooms = [{s.player_id for s in room.seats.all()} for room in Room.objects.exclude(pk=first.pk)]
    assert len(rooms) == 2 and all(len(seated) == 3 for seated in rooms)
    assert all(not {a.pk, b.pk} <= seated for seated in rooms)


def test_leaving_the_pool_is_free_and_a_closed_page_stops_waiting():
    now = timezone.now()
    ada, grace = people("Ada", "Grace")
    service.ask(ada, "easy", now)
    assert service.cancel(ada) and not service.cancel(ada)
    service.ask(ada, "easy", now)  # again at once: no penalty for leaving the pool
    service.ask(grace, "medium", now)
    cache.clear()
    service.tick("easy", now + dt.timedelta(seconds=service.SEEN_SECONDS + 1))
    assert PoolEntry.objects.filter(player=ada).latest("pk").state == "gone"  # its page never polled


def test_three_public_races_left_in_an_hour_keep_a_player_out_for_five_minutes():
    bank(3)
    now = timezone.now()
    ada = people("Ada")[0]
    for i in range(3):
        rivals = people(f"R{i}a", f"R{i}b")
        for p in (ada, *rivals):
            service.ask(p, "easy", now)
        room = Room.objects.get(seats__player=ada, seats__status="playing", state=Room.State.COUNTDOWN)
        act(room.code, ada, A.Leave())  # leaving after the countdown started: counts
    with pytest.raises(service.PoolRefused, match=r"left three public races.*race again in [45]:\d\d"):
        service.ask(ada, "easy")
    assert service.penalty_until(ada, timezone.now() + dt.timedelta(minutes=6)) is None


def test_one_wait_per_player_and_per_account_and_none_while_racing():
    bank()
    ada_here = signed_in("Ada")
    ada_there = Profile.objects.create(display_name="Ada", account=ada_here.account)
    service.ask(ada_here, "easy")
    with pytest.raises(service.PoolRefused, match="already waiting"):
        service.ask(ada_here, "hard")
    with pytest.raises(service.PoolRefused, match="already waiting"):
        service.ask(ada_there, "easy")  # the same account on a second browser
    assert PoolEntry.objects.filter(state="waiting").count() == 1
    grace, linus = people("Grace", "Linus")
    service.ask(grace, "easy")
    service.ask(linus, "easy")
    with pytest.raises(service.PoolRefused, match="already in a race"):
        service.ask(grace, "easy")
    with pytest.raises(service.PoolRefused, match="Pick a level"):
        service.ask(people("Ed")[0], "impossible")


def test_a_public_room_has_no_host_controls_no_joins_and_spectators_cannot_act():
    bank()
    ada, grace, linus, eve = people("Ada", "Grace", "Linus", "Eve")
    for p in (ada, grace, linus):
        service.ask(p, "easy")
    room = Room.objects.get()
    with pytest.raises(NotAllowed, match="no host"):
        act(room.code, ada, A.Kick(grace.pk))
    with pytest.raises(RoomError):
        act(room.code, eve, A.Join())
    with pytest.raises(NotAllowed):
        act(room.code, eve, A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]))), now=room.starts_at)
    room.refresh_from_db()
    assert room.seats.count() == 3 and room.version >= 1


def test_a_public_race_rates_its_signed_in_players_and_not_the_anonymous_one():
    bank(8, givens=SHORT)  # six rooms of three finishes: 12 blanks a finish, not 51
    ada, grace = signed_in("Ada"), signed_in("Grace")
    anon = people("Player 7220")[0]
    for i in range(6):  # six a day: the per-group cap (5) is not for the pool's groups
        at = timezone.now()
        for p in (ada, grace, anon):
            service.ask(p, "easy", at)
        room = Room.objects.get(state=Room.State.COUNTDOWN)
        play = room.starts_at + dt.timedelta(seconds=1)
        finish(room, anon, play)
        finish(room, grace, play + dt.timedelta(seconds=5))
        finish(room, ada, play + dt.timedelta(seconds=9))
        room.refresh_from_db()
        assert room.state == "finished"
        decision = RoomRating.objects.get(room_id=room.pk)
        assert decision.rated, decision.reason
        changes = {c.profile_id: c for c in RatingChange.objects.filter(room_id=room.pk)}
        assert set(changes) == {ada.pk, grace.pk}  # the anonymous winner is left out
        assert changes[grace.pk].after > changes[grace.pk].before or i > 0
        PoolEntry.objects.filter(state="waiting").update(state="gone")


def test_two_ticks_at_once_never_seat_anyone_twice(transactional_db):
    require_service(connection.vendor == "postgresql", "PostgreSQL (row locks)")
    bank(30)
    now = timezone.now()
    for i in range(40):
        p = Profile.objects.create(display_name=f"P{i}")
        PoolEntry.objects.create(player=p, level="easy", band="open", key=1500 + i, asked_at=now, seen_at=now)
    barrier = threading.Barrier(2)

    def run():
        try:
            barrier.wait()
            service.tick("easy", now, force=True)  # as two processes' ticks would, both at once
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seats = list(Room.objects.filter(public=True).values_list("seats__player_id", flat=True))
    assert len(seats) == len(set(seats)) == 40
    assert all(3 <= Room.objects.get(pk=r.pk).seats.count() <= 5 for r in Room.objects.filter(public=True))


# --- the views ----------------------------------------------------------------------------


def test_race_now_from_the_home_page_to_the_room(client):
    bank()
    ada, grace, linus = people("Ada", "Grace", "Linus")
    home = client_for(ada).get("/")
    assert "Race now" in home.content.decode()
    clients = [client_for(p) for p in (ada, grace)]
    for c in clients:
        assert c.post(reverse("race_ask"), {"level": "easy"}).url == reverse("race")
    page = clients[0].get(reverse("race"))
    assert page.status_code == 200 and "Finding you a race" in page.content.decode()
    assert "Grace" in page.content.decode()
    poll = clients[0].get(reverse("race_status"), HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and "HX-Redirect" not in poll
    client_for(linus).post(reverse("race_ask"), {"level": "easy"})
    room = Room.objects.get()
    poll = clients[0].get(reverse("race_status"), HTTP_HX_REQUEST="true")
    assert poll["HX-Redirect"] == reverse("room", args=[room.code])
    cache.clear()
    assert "1 waiting" not in client_for(ada).get("/").content.decode()


def test_race_now_refusals_are_clear_and_change_nothing():
    ada = people("Ada")[0]
    c = client_for(ada)
    bad = c.post(reverse("race_ask"), {"level": "nightmare"})
    assert bad.status_code == 400 and "Pick a level" in bad.content.decode()
    assert c.get(reverse("race_ask")).status_code == 405
    c.post(reverse("race_ask"), {"level": "easy"})
    again = c.post(reverse("race_ask"), {"level": "easy"})
    assert again.status_code == 409 and "already waiting" in again.content.decode()
    assert PoolEntry.objects.filter(state="waiting").count() == 1


def test_a_flood_of_asks_and_cancels_is_limited(settings):
    settings.CREATION_LIMITS = {**settings.CREATION_LIMITS, "pool": (4, 100)}
    c = client_for(people("Ada")[0])
    answers = []
    for _ in range(4):
        answers.append(c.post(reverse("race_ask"), {"level": "easy"}).status_code)
        answers.append(c.post(reverse("race_cancel")).status_code)
    assert answers[:4] == [302, 302, 302, 302] and 429 in answers
    assert PoolEntry.objects.filter(state="waiting").count() == 0


def test_race_again_after_a_public_race_goes_back_in_the_pool():
    bank()
    ada, grace, linus = people("Ada", "Grace", "Linus")
    for p in (ada, grace, linus):
        service.ask(p, "easy")
    room = Room.objects.get()
    play = room.starts_at + dt.timedelta(seconds=1)
    for p in (ada, grace, linus):
        finish(room, p, play)
    page = client_for(ada).get(reverse("room", args=[room.code])).content.decode()
    assert "Race again" in page and "Play again" not in page
    assert "Sign in to get a rating" in page
    assert client_for(ada).post(reverse("race_ask"), {"level": room.level}).status_code == 302
    assert PoolEntry.objects.get(player=ada, state="waiting").level == "easy"


def test_the_periodic_tick_pairs_without_polls_and_the_home_page_counts_from_the_cache(settings):
    from pool import counts
    from pool.tasks import tick_pools

    assert settings.CELERY_BEAT_SCHEDULE["tick-pools"]["task"] == "pool.tasks.tick_pools"
    bank()
    ada, grace, linus = people("Ada", "Grace", "Linus")
    then = timezone.now() - dt.timedelta(seconds=25)
    for p in (ada, grace):  # asked 25 s ago (their pages still open), nobody polled since
        PoolEntry.objects.create(player=p, level="easy", band="open", key=1500, asked_at=then, seen_at=timezone.now())
    service.ask(linus, "hard")
    assert tick_pools() == 1
    assert Room.objects.get(level="easy").seats.count() == 2
    assert counts.read() == (1, 2)  # Linus waits at Hard; Ada and Grace race
    home = client_for(linus).get("/").content.decode()
    assert "2 racing · 1 waiting" in home


def test_a_cancel_that_comes_after_the_seating_leads_to_the_race_and_orphans_start_once():
    bank(2)
    ada, grace, linus = people("Ada", "Grace", "Linus")
    for p in (ada, grace, linus):
        service.ask(p, "easy")
    room = Room.objects.get()
    answer = client_for(ada).post(reverse("race_cancel"))
    assert answer.url == reverse("room", args=[room.code])  # seated already: to the race
    # A room formed but never started (a crash between the two) starts on a later tick, once.
    from rooms.api import create_public_room

    orphan = create_public_room(people("Ed", "Fay"), "easy")
    cache.clear()
    service.tick("easy", timezone.now())  # too young: another tick's, starting now
    orphan.refresh_from_db()
    assert orphan.state == Room.State.LOBBY
    cache.clear()
    service.tick("easy", timezone.now() + dt.timedelta(seconds=service.ORPHAN_SECONDS + 1))
    orphan.refresh_from_db()
    assert orphan.state == Room.State.COUNTDOWN

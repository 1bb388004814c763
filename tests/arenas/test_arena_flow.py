"""An arena through its service (docs/rules.md 12): joining and its refusals, the tick pairing
the waiting into rooms through the rooms' write path, a room ending 60 s after its first
finisher, the room scored once, players back in the pool, the table and its order."""

import datetime as dt

import pytest
from django.utils import timezone

from arenas import service
from arenas.models import Arena, ArenaRoom, Entry
from arenas.table import table
from games.sudoku.play import Enter, Note
from rooms import actions as A
from rooms.api import act
from rooms.models import Room
from tests.conftest import EMPTY, SOLUTION
from tests.friends.people import browser_of, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena(make_arena):
    return make_arena(puzzles=6)


def solve(room, player, at):
    for cell in EMPTY:
        act(room.code, player, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)


def test_join_refusals(arena, client):
    ana = member("Ana")
    service.join(arena, ana)
    with pytest.raises(service.ArenaRefused, match="already"):
        service.join(arena, ana)
    anonymous = client.post(f"/arena/{arena.code}/join/")
    assert anonymous.status_code == 400 and "Sign in" in anonymous.content.decode()
    Entry.objects.filter(account=ana.account).update(state=Entry.State.WITHDRAWN)
    refused = browser_of(ana).post(f"/arena/{arena.code}/join/")
    assert refused.status_code == 400 and "withdrawn" in refused.content.decode()
    over = Arena.objects.create(
        level="easy",
        starts_at=timezone.now() - dt.timedelta(hours=2),
        minutes=30,
        ends_at=timezone.now() - dt.timedelta(hours=1),
    )
    refused = browser_of(member("Bo")).post(f"/arena/{over.code}/join/")
    assert refused.status_code == 400 and "finished" in refused.content.decode()
    assert browser_of(ana).get("/arena/NOPE/").status_code == 404


def test_five_players_race_a_room_that_ends_a_minute_after_its_first_finish(arena, settings):
    players = [member(name) for name in ("Ana", "Bo", "Cy", "Di", "Ed")]
    for p in players:
        service.join(arena, p)
    service.set_berserk(arena, players[0], True)
    (code,) = service.tick(arena, force=True)
    room = Room.objects.get(code=code)
    assert room.public and room.arena == arena.code and room.seats.count() == 5
    assert room.berserk == [players[0].pk]  # Ana's notes are off in this room
    assert set(Entry.objects.values_list("state", flat=True)) == {"racing"}
    with pytest.raises(service.ArenaRefused, match="before a room's countdown"):
        service.set_berserk(arena, players[1], True)
    # Ana's notes are refused; then she finishes first
    room.refresh_from_db()
    at = room.starts_at + dt.timedelta(seconds=5)
    with pytest.raises(Exception, match="otes"):
        act(code, players[0], A.GameMove(Note(EMPTY[0], 1)), now=at)
    solve(room, players[0], at + dt.timedelta(seconds=100))
    room.refresh_from_db()
    assert room.state == "playing" and room.ends_at == at + dt.timedelta(
        seconds=100 + settings.ARENA_FINISH_GRACE_SECONDS
    )
    solve(room, players[1], at + dt.timedelta(seconds=120))
    # Bo's move 61 s after Ana's finish finds the room over: the rest are ranked by the normal ranking
    act(code, players[2], A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]))), now=at + dt.timedelta(seconds=120))
    act(code, players[2], A.Sync(), now=at + dt.timedelta(seconds=161))
    room.refresh_from_db()
    assert room.state == "finished"
    assert service.score_room(ArenaRoom.objects.get(room=room).pk) is True
    assert service.score_room(ArenaRoom.objects.get(room=room).pk) is False  # once
    by_name = {e.player.display_name: e for e in Entry.objects.select_related("player")}
    assert by_name["Ana"].points == 4 + 1  # beat four, berserk win
    assert by_name["Bo"].points == 3
    assert by_name["Cy"].points == 2  # most cells of the three still solving
    assert by_name["Ana"].recent == [[5, False, True]] and by_name["Ana"].firsts == 1
    assert {e.state for e in by_name.values()} == {"waiting"}
    top, _around = table(arena, players[1].account_id)
    assert [r.name for r in top][:3] == ["Ana", "Bo", "Cy"] and top[1].mine


def test_the_tick_moves_on_a_room_that_did_not_start_or_end_by_itself(arena, monkeypatch):
    """Seen under load (bench/arena.py): a formed room whose start failed stayed in its lobby,
    and rooms whose owner's clock missed its moment stayed in their countdown or playing past
    their end; their players never came back to the pool. The tick moves each on once it is
    NUDGE_AFTER late, through the rooms' write path; a room on time is left alone."""
    for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        service.join(arena, member(name))
    # The tick makes its rooms in their countdown now (one trip each); a room left in its
    # lobby is one made the old way (a creation, then a start that failed): made so here.
    real_create = service.api.create_public_room
    monkeypatch.setattr(service.api, "create_public_room", lambda *a, start=None, **k: real_create(*a, **k))
    now = timezone.now()
    formed = service.tick(arena, now=now, force=True)
    assert len(formed) == 2 and set(Room.objects.values_list("state", flat=True)) == {"lobby"}  # 4 and 3, unstarted
    monkeypatch.setattr(service.api, "create_public_room", real_create)
    assert service.nudge(arena, now + dt.timedelta(seconds=1)) == 0  # not late yet: left alone
    ArenaRoom.objects.update(created_at=now - dt.timedelta(seconds=10))
    assert service.nudge(arena, now) == 2
    assert set(Room.objects.values_list("state", flat=True)) == {"countdown"}
    # A countdown whose end nobody applied, and a room playing past its end
    first, second = Room.objects.order_by("pk")
    late = first.starts_at + service.NUDGE_AFTER + dt.timedelta(seconds=1)
    assert service.nudge(arena, first.starts_at + dt.timedelta(seconds=1)) == 0
    assert service.nudge(arena, late) == 2
    assert set(Room.objects.values_list("state", flat=True)) == {"playing"}
    Room.objects.filter(pk=first.pk).update(ends_at=late)
    assert service.nudge(arena, late + service.NUDGE_AFTER + dt.timedelta(seconds=1)) == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.state == "finished" and second.state == "playing"
    service.tick(arena, now=late + service.NUDGE_AFTER + dt.timedelta(seconds=2), force=True)
    assert ArenaRoom.objects.get(room=first).scored  # its players are back in the pool
    assert set(Entry.objects.filter(room_code="").values_list("state", flat=True)) == {"waiting"}


def test_the_tick_makes_its_rooms_in_their_countdown_at_most_rooms_per_tick_longest_waiting_first(
    arena, monkeypatch, settings
):
    """An arena's round is made in the tick's transaction, each room already counting down
    (no start through the locked path after it: 400 of those at 2,000 players collapsed both
    processes, bench/arena.py), and at most ARENA_ROOMS_PER_TICK rooms a tick, the longest
    waiting first; the rest are seated by the next tick."""
    settings.ARENA_ROOMS_PER_TICK = 1
    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
    for name in names:
        service.join(arena, member(name))
    now = timezone.now()
    longest = now - dt.timedelta(seconds=9)
    Entry.objects.filter(player__display_name__in=("Ed", "Flo", "Gus")).update(waiting_since=longest)
    monkeypatch.setattr(service.api, "act", lambda *a, **k: (_ for _ in ()).throw(AssertionError("no locked start")))
    (first,) = service.tick(arena, now=now, force=True)
    room = Room.objects.get(code=first)
    assert room.state == "countdown" and room.version == 1 and room.puzzle_id is not None
    assert sorted(room.seats.values_list("player__display_name", flat=True)) == ["Ed", "Flo", "Gus"]
    assert set(room.seats.values_list("status", flat=True)) == {"playing"}
    assert Entry.objects.filter(state="waiting").count() == 4  # the others: next tick
    (second,) = service.tick(arena, now=now + dt.timedelta(seconds=1), force=True)
    assert Room.objects.get(code=second).seats.count() == 4
    assert Entry.objects.filter(state="racing").count() == 7


def test_a_room_formed_by_a_long_tick_counts_down_from_its_start_not_from_the_ticks_beginning(arena, settings):
    """Rooms scored during a long tick finished after the tick's `now`: a new room's countdown
    dated from that `now` began before its players' last room had finished (bench/arena.py
    counted them in two rooms at once). The start is dated when it happens."""
    for name in ("Ana", "Bo"):
        service.join(arena, member(name))
    before = timezone.now()
    (code,) = service.tick(arena, now=before - dt.timedelta(seconds=30), force=True)
    room = Room.objects.get(code=code)
    assert room.state == "countdown"
    assert room.starts_at >= before + dt.timedelta(seconds=settings.COUNTDOWN_SECONDS)


def test_the_page_tick_goes_on_after_the_end_until_every_room_is_scored(arena):
    """An arena's last rooms end with it: its open pages' tick (arenas/live.py) scores them
    after the end too, then stops; it used to stop at the end, leaving them unscored."""
    from arenas import live

    for name in ("Ana", "Bo"):
        service.join(arena, member(name))
    (code,) = service.tick(arena, force=True)
    over = timezone.now() - dt.timedelta(seconds=1)
    Arena.objects.filter(pk=arena.pk).update(ends_at=over)
    Room.objects.filter(code=code).update(state="finished", finished_at=over)
    assert live._tick(arena.code) is True
    assert ArenaRoom.objects.get(room__code=code).scored
    assert live._tick(arena.code) is False  # over, and nothing left to score


def test_no_new_room_in_the_last_two_minutes(arena):
    arena.ends_at = timezone.now() + dt.timedelta(seconds=100)
    arena.save()
    for name in ("Ana", "Bo"):
        service.join(arena, member(name))
    assert service.tick(arena, force=True) == []


def test_the_site_schedules_its_arenas_once():
    now = dt.datetime(2026, 12, 6, 10, 20, tzinfo=dt.UTC)
    made = service.schedule(now)
    assert made == service.schedule(now) + made  # a second run makes none
    hourly = Arena.objects.filter(schedule_key__startswith="hourly").order_by("starts_at")
    assert [(a.starts_at.hour, a.level, a.minutes) for a in hourly][:2] == [(10, "easy", 30), (11, "medium", 30)]
    daily = Arena.objects.get(schedule_key="daily-20261206")
    assert (daily.level, daily.minutes, daily.starts_at.hour) == ("hard", 90, 19)


def test_a_player_in_a_running_arena_cannot_ask_for_a_public_race(arena):
    from pool import service as pool

    ana = member("Ana")
    service.join(arena, ana)
    with pytest.raises(pool.PoolRefused, match="arena"):
        pool.ask(ana, "easy")
    service.pause(arena, ana)
    assert pool.ask(ana, "easy").state == "waiting"
    with pytest.raises(service.ArenaRefused, match="public race"):
        service.join(arena, ana)  # back from the pause: refused while waiting in the pool


def test_a_flood_of_joins_and_pauses_is_limited(arena, settings):
    settings.CREATION_LIMITS = {**settings.CREATION_LIMITS, "pool": (4, 100)}
    client = browser_of(member("Ana"))
    codes = [client.post(f"/arena/{arena.code}/{'join' if i % 2 == 0 else 'pause'}/").status_code for i in range(6)]
    assert codes[:4] == [302] * 4 and codes[4:] == [429, 429]


def test_a_private_arena_needs_a_signed_in_host_and_sane_choices(client):
    ana = browser_of(member("Ana"))
    start = (timezone.now() + dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    made = ana.post("/arenas/new/", {"level": "hard", "preset": "standard", "minutes": "60", "starts_at": start})
    arena = Arena.objects.get(private=True)
    assert made.status_code == 302 and made["Location"] == f"/arena/{arena.code}/"
    for bad in ({"minutes": "45"}, {"level": "insane"}, {"preset": "custom"}, {"starts_at": "yesterday"}):
        data = {"level": "hard", "preset": "standard", "minutes": "60", "starts_at": start, **bad}
        assert ana.post("/arenas/new/", data).status_code == 400
    assert client.post("/arenas/new/", {"level": "hard", "minutes": "60", "starts_at": start}).status_code == 400
    assert Arena.objects.filter(private=True).count() == 1
    # listed for its host only
    assert arena.code in ana.get("/arenas/").content.decode()
    assert arena.code not in browser_of(member("Bo")).get("/arenas/").content.decode()


def test_a_page_settles_its_own_finished_room_and_leaves_the_pairing_to_the_tick(arena, settings):
    """Where each process ticks the arenas its pages show (ARENA_PAGE_TICK_SECONDS > 0), the
    arena page's request scores the viewer's own finished room (its points show at once) and
    pairs nobody: a request that ticked whole waited for a round's rooms being made
    (bench/arena.py: GET /arena/ p99 28 s at 500 players). Without page ticks it ticks whole."""
    settings.ARENA_PAGE_TICK_SECONDS = 1.0
    players = [member(name) for name in ("Ana", "Bo", "Cy", "Di")]
    for p in players[:2]:
        service.join(arena, p)
    (code,) = service.tick(arena, force=True)
    for p in players[2:]:
        service.join(arena, p)  # Cy and Di wait: a whole tick would pair them
    Room.objects.filter(code=code).update(state="finished", finished_at=timezone.now())
    page = browser_of(players[0]).get(f"/arena/{arena.code}/")
    assert page.status_code == 200
    assert ArenaRoom.objects.get(room__code=code).scored  # Ana's room, scored for her page
    assert Room.objects.count() == 1  # nobody paired by the page
    assert set(Entry.objects.values_list("state", flat=True)) == {"waiting"}
    settings.ARENA_PAGE_TICK_SECONDS = 0
    browser_of(players[2]).get(f"/arena/{arena.code}/")
    assert Room.objects.count() == 2  # no page ticks: the request ticks


def test_one_tick_at_a_time_its_turn_held_until_it_is_done(arena):
    """Two processes' ticks at once split the waiting between them (each skips the other's
    locked rows): the turn is held for the whole tick, then free at once."""
    for name in ("Ana", "Bo"):
        service.join(arena, member(name))
    token = service._turn(arena)
    assert token is not None and service.tick(arena) == []  # another tick holds the turn
    service._end_turn(arena, token)
    assert len(service.tick(arena)) == 1
    assert service._turn(arena) is not None  # released when that tick was done


def test_the_tick_pairs_before_it_nudges_late_rooms(arena, monkeypatch):
    """A nudge waits for the rooms' owners (up to its budget): the waiting are paired first,
    so they never wait for it (it was half of a tick's time at 500 players, bench/arena.py)."""
    players = [member(name) for name in ("Ana", "Bo", "Cy", "Di")]
    for p in players[:2]:
        service.join(arena, p)
    (late,) = service.tick(arena, force=True)
    Room.objects.filter(code=late).update(starts_at=timezone.now() - dt.timedelta(seconds=30))  # its GO missed
    for p in players[2:]:
        service.join(arena, p)
    seen = []

    def act(code, *args, **kwargs):
        seen.append(Room.objects.count())
        raise service.api.RoomError("busy")

    monkeypatch.setattr(service.api, "act", act)
    service.tick(arena, force=True)
    assert seen == [2]  # the late room's nudge came once Cy and Di had their room

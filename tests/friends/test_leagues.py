"""Weekly leagues (docs/rules.md 11): the points with worked examples, placement in leagues of
up to 30 by tier, the week's close moving the top 5 up and the bottom 5 down (ties share the
better fate), and the close run twice changing nothing."""

import datetime as dt

import pytest
from django.utils import timezone

from games.daily.models import Daily
from games.models import SoloRun
from leagues import close, placement
from leagues.models import ClosedWeek, League, Member, Tier
from leagues.points import board_key, score, week_of
from tests.friends.people import browser_of, member

MONDAY = dt.date(2026, 11, 30)


def test_a_week_starts_on_monday():
    assert week_of(dt.date(2026, 12, 6)) == MONDAY  # a Sunday
    assert week_of(MONDAY) == MONDAY


def test_daily_points_are_one_plus_the_league_behind_capped_at_ten_and_races_count_opponents_beaten():
    league_of = {1: 7, 2: 7, 3: 7, 4: 8}
    finishes = [
        (100, 1, board_key(200.0, 0, 0, False)),  # Ana: fastest Classic
        (100, 2, board_key(300.0, 1, 0, False)),
        (100, 3, board_key(150.0, 0, 2, True)),  # Assisted: after every Classic finish
        (100, 4, board_key(100.0, 0, 0, False)),  # another league: not on this league's board
        (101, 2, board_key(500.0, 0, 0, False)),  # alone on a daily: 1 point
    ]
    races = [("ROOM1", 1, 3), ("ROOM1", 2, None), ("ROOM1", 3, 1), ("ROOM2", 1, 1), ("ROOM2", 1, 2)]
    points = score(league_of, finishes, races)
    # Ana 3 (daily) + 0 (third of three) + 0 (tied first: nobody beaten); Bo 2 + 1 + 0;
    # Cy 1 + 2 (first, ahead of an anonymous player and Ana); Di 1 (alone in league 8).
    assert points == {1: 3, 2: 3, 3: 3, 4: 1}
    many = {i: 1 for i in range(1, 15)}
    assert score(many, [(5, i, (0, float(i), 0, 0)) for i in range(1, 15)], [])[1] == 10  # 13 behind: capped


def test_fates_top_five_up_bottom_five_down_ties_share_the_better_fate(settings):
    points = {i: 100 - i for i in range(1, 13)}  # 12 players, all different
    points[6] = points[5]  # the 5th and 6th tie
    points[8] = points[7] = 1  # two tie near the bottom
    fates = close.fates(points)
    assert [a for a, (_p, f) in fates.items() if f == "up"] == [1, 2, 3, 4, 5, 6]
    assert fates[6] == (5, "up")  # tied 5th: shares the place and the better fate
    assert {a for a, (_p, f) in fates.items() if f == "down"} == {7, 8, 9, 10, 11, 12} - {9}
    assert fates[9][1] == "stay"


@pytest.mark.django_db
def test_placement_fills_leagues_of_the_size_by_tier(settings):
    settings.LEAGUE_SIZE = 3
    players = [member(f"P{i}", f"p{i}x") for i in range(5)]
    Tier.objects.create(account=players[4].account, tier=2)
    when = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)
    for p in players:
        placement.place(p.account_id, when)
    placement.place(players[0].account_id, when)  # twice: once
    leagues = {(lg.tier, lg.number): lg.members.count() for lg in League.objects.filter(week=MONDAY)}
    assert leagues == {(1, 1): 3, (1, 2): 1, (2, 1): 1}
    assert Member.objects.count() == 5


def finish(profile, daily, elapsed):
    return SoloRun.objects.create(
        player=profile, puzzle=daily.puzzle, level=daily.level, board={}, daily=daily, state="finished",
        elapsed=elapsed, mistakes=0, score=100, finished_at=dt.datetime.combine(daily.date, dt.time(12), tzinfo=dt.UTC),
    )  # fmt: skip


@pytest.mark.django_db
def test_the_week_closes_once_moving_players_between_tiers(settings, bank_puzzle):
    settings.LEAGUE_MOVES = 1  # three players: the first moves up, the last down
    ana, bo, cy = member("Ana"), member("Bo"), member("Cy")
    Tier.objects.create(account=cy.account, tier=3)
    Tier.objects.create(account=bo.account, tier=3)
    Tier.objects.create(account=ana.account, tier=3)
    daily = Daily.objects.create(date=MONDAY + dt.timedelta(days=2), level="easy", puzzle=bank_puzzle)
    for profile, elapsed in ((ana, 100.0), (bo, 200.0), (cy, 300.0)):
        finish(profile, daily, elapsed)  # nobody placed yet (no signal): the close places them
    assert close.close(MONDAY) == 3
    final = {m.account_id: (m.points, m.place, m.outcome) for m in Member.objects.filter(week=MONDAY)}
    assert final == {ana.account_id: (3, 1, "up"), bo.account_id: (2, 2, "stay"), cy.account_id: (1, 3, "down")}
    tiers = dict(Tier.objects.values_list("account_id", "tier"))
    assert tiers == {ana.account_id: 4, bo.account_id: 3, cy.account_id: 2}
    # run again (a redelivered task, a second beat): nothing changes
    assert close.close(MONDAY) is None
    assert dict(Tier.objects.values_list("account_id", "tier")) == tiers
    assert ClosedWeek.objects.get().players == 3


@pytest.mark.django_db
def test_close_ended_closes_last_week_only(bank_puzzle):
    ana = member("Ana")
    daily = Daily.objects.create(date=MONDAY, level="easy", puzzle=bank_puzzle)
    finish(ana, daily, 100.0)
    assert close.close_ended(dt.datetime(2026, 12, 3, tzinfo=dt.UTC)) == 0  # the week before: nobody played
    assert not ClosedWeek.objects.filter(week=MONDAY).exists()
    assert close.close_ended(dt.datetime(2026, 12, 7, 0, 30, tzinfo=dt.UTC)) == 1
    assert close.close_ended(dt.datetime(2026, 12, 7, 1, 30, tzinfo=dt.UTC)) is None


@pytest.mark.django_db
def test_the_league_page_shows_the_live_table_or_how_to_be_placed(bank_puzzle):
    ana, bo = member("Ana"), member("Bo")
    page = browser_of(ana).get("/league/").content.decode()
    assert "placed in this week's league when you finish" in page
    daily = Daily.objects.create(date=timezone.now().date(), level="easy", puzzle=bank_puzzle)
    for profile, elapsed in ((ana, 100.0), (bo, 200.0)):
        run = finish(profile, daily, elapsed)
        placement.run_finished(SoloRun, run)
    table = browser_of(bo).get("/league/").content.decode().split('class="league-table"')[1]
    assert table.index("Ana") < table.index("Bo") and 'aria-current="true"' in table

"""Issue 23, 5: the streak (current, longest, over the player's dates; on /daily/ and the
profile), the archive calendar (finished on the day, later, not played; practice from it),
and the spoiler-free share line."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.daily import play
from games.daily.models import Daily
from games.models import Puzzle, SoloRun
from tests.conftest import PUZZLE, SOLUTION


def today():
    return timezone.now().date()


def daily(date, level="easy"):
    found = Daily.objects.filter(date=date, level=level).first()
    if found:
        return found
    puzzle = Puzzle.objects.create(level=level, givens=PUZZLE, solution=SOLUTION, clues=30, seed=1, for_daily=True)
    return Daily.objects.create(date=date, level=level, puzzle=puzzle)


def finished(player, date, level="easy", practice=False, elapsed=300.0, **fields):
    d = daily(date, level)
    return SoloRun.objects.create(
        player=player,
        puzzle=d.puzzle,
        level=level,
        board={},
        daily=d,
        practice=practice,
        state="finished",
        elapsed=elapsed,
        finished_at=min(timezone.now(), dt.datetime.combine(date, dt.time(0, 30), dt.UTC)),  # on its day, as played
        **fields,
    )


def ago(n):
    return today() - dt.timedelta(days=n)


def test_the_streak_counts_days_in_a_row_with_a_daily_finished(player, player_client, dailies):
    for n in (1, 2, 3, 6, 7):
        finished(player, ago(n))
    finished(player, ago(4), practice=True)  # practice keeps no streak day
    finished(player, ago(5), review="voided")  # nor a voided finish
    assert play.streak(player, today()) == (3, 3)  # today still to play: the streak lives
    page = player_client.get(reverse("daily")).content.decode()
    assert "<strong>3</strong> days in a row" in page and "Longest: <strong>3</strong>" in page
    finished(player, today(), level="hard")
    assert play.streak(player, today()) == (4, 4)
    profile = player_client.get(reverse("profile")).content.decode()
    assert "<strong>4</strong> days in a row" in profile


def test_the_streak_follows_the_players_own_date(player, player_client, dailies):
    """In Kiritimati (UTC+14) it may already be tomorrow: yesterday's UTC finish is then two days back."""
    finished(player, today())
    tomorrow_there = today() + dt.timedelta(days=1)
    assert play.streak(player, tomorrow_there) == (1, 1)  # tomorrow's still to play
    assert play.streak(player, today() + dt.timedelta(days=2)) == (0, 1)


def test_the_share_line_is_spoiler_free(player, dailies):
    run = finished(player, today(), level="medium", elapsed=754.2, mistakes=2, assisted=True, hints=1)
    line = play.share_line(run, 5)
    assert line == f"Sudoku Showdown daily {today().isoformat()} · Medium · 12:34 Assisted · 2 mistakes · streak 5"
    assert not any(ch.isdigit() and len(part) == 81 for part in line.split() for ch in part)


def test_the_daily_page_shows_the_share_line_with_copy(player, player_client, dailies):
    finished(player, today(), elapsed=65)
    page = player_client.get(reverse("daily")).content.decode()
    assert f"Sudoku Showdown daily {today().isoformat()} · Easy · 1:05 Classic · 0 mistakes · streak 1" in page
    assert "data-copy" in page and "data-share-button" in page


def test_the_archive_marks_each_daily(player, player_client, dailies):
    closed = ago(2)  # closed everywhere: yesterday is still open in UTC-12 until 12:00 UTC
    for level in ("easy", "medium", "hard", "expert"):
        daily(closed, level)
    finished(player, closed, "easy")  # on the day (ranked)
    finished(player, closed, "hard", practice=True)  # later
    page = player_client.get(reverse("daily_archive"), {"month": closed.strftime("%Y-%m")}).content.decode()
    key = closed.isoformat()
    assert f'value="{key}/easy" data-daily-mark="day"' in page
    assert f'value="{key}/hard" data-daily-mark="later"' in page
    assert f'value="{key}/expert" data-daily-mark="none"' in page  # not played
    # Today's dailies are still open for ranked play: they link to /daily/, no practice button.
    if today().month == closed.month:
        assert f'value="{today().isoformat()}/easy"' not in page and "mark mark-open" in page


def test_practice_from_the_archive(player, player_client, dailies):
    closed = ago(3)
    daily(closed, "expert")
    response = player_client.post(reverse("daily_practice"), {"daily": f"{closed.isoformat()}/expert"})
    assert response.status_code == 302
    run = SoloRun.objects.get()
    assert run.practice and run.daily.date == closed and run.level == "expert"
    assert "Practice" in player_client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(
    ("month", "status", "says"),
    [("2026-13", 200, "That is not a month"), ("yesterday", 200, "That is not a month"), ("2999-01", 200, "")],
)
def test_archive_months(player_client, dailies, month, status, says):
    response = player_client.get(reverse("daily_archive"), {"month": month})
    assert response.status_code == status
    page = response.content.decode()
    assert says in page
    assert today().strftime("%B %Y") in page  # a future or unreadable month shows this one


@pytest.mark.parametrize("value", ["2026-12-03/nightmare", "not-a-date/easy", "", "2999-01-01/easy"])
def test_bad_practice_starts(player_client, dailies, value):
    response = player_client.post(reverse("daily_practice"), {"daily": value})
    assert response.status_code in (400, 409)
    assert not SoloRun.objects.exists()


def test_the_share_line_says_one_mistake_in_the_singular(player):
    from django.utils import translation

    run = SoloRun(daily=Daily(date=today(), level="easy"), elapsed=65, mistakes=1, assisted=False)
    assert "· 1 mistake · streak 2" in play.share_line(run, 2)
    with translation.override("nl"):
        assert "· 1 fout · reeks 2" in play.share_line(run, 2)

"""Issue 23, 3: a daily's board: Classic by time then mistakes, Assisted below by hints,
mistakes, time; equal results share a place; signed-in finishes only (an anonymous run is
shown to its own player where it would stand); top DAILY_BOARD_SIZE plus the viewer's place;
one query for the board (cached), one for the viewer's own place."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.daily import boards
from games.models import SoloRun
from players.models import Profile
from tests.conftest import client_for

N = 0


def finisher(daily, elapsed, mistakes=0, hints=0, assisted=False, signed_in=True, **fields):
    global N
    N += 1
    user = get_user_model().objects.create_user(username=f"p{N}", email=f"p{N}@example.com") if signed_in else None
    profile = Profile.objects.create(display_name=f"P{N}", account=user)
    run = SoloRun.objects.create(
        player=profile,
        puzzle=daily.puzzle,
        level=daily.level,
        board={},
        daily=daily,
        state="finished",
        elapsed=elapsed,
        mistakes=mistakes,
        hints=hints,
        assisted=assisted,
        finished_at=timezone.now(),
        **fields,
    )
    return profile, run


@pytest.fixture
def easy(dailies):
    return dailies[(timezone.now().date(), "easy")]


def test_the_boards_order_and_shared_places(easy):
    a = finisher(easy, 300, mistakes=2)[1]
    b = finisher(easy, 300, mistakes=1)[1]
    c = finisher(easy, 250, mistakes=5)[1]
    d = finisher(easy, 300, mistakes=1)[1]  # equal to b: the same place
    e = finisher(easy, 100, hints=1, assisted=True)[1]  # Assisted: below every Classic finish
    f = finisher(easy, 500, hints=0, mistakes=0, assisted=True)[1]  # fewer hints first
    g = finisher(easy, 90, hints=1, mistakes=1, assisted=True)[1]
    rows = boards.top(easy.pk)
    assert [(r.run_id, r.place) for r in rows] == [
        (c.pk, 1),
        (b.pk, 2),
        (d.pk, 2),
        (a.pk, 4),
        (f.pk, 5),
        (e.pk, 6),
        (g.pk, 7),
    ]
    for run, place in ((c, 1), (d, 2), (a, 4), (f, 5), (e, 6), (g, 7)):
        assert boards.own(run.player, easy.pk, []).place == place  # the own-place query agrees


def test_only_signed_in_finishes_are_listed(easy, player, player_client):
    finisher(easy, 200)
    anon, _anon_run = finisher(easy, 100, signed_in=False)
    finisher(easy, 300, review="held")
    finisher(easy, 301, review="voided")
    finisher(easy, 302, review="cleared")
    finisher(easy, 303, practice=True)
    mine = SoloRun.objects.create(
        player=player, puzzle=easy.puzzle, level="easy", board={}, daily=easy, state="finished", elapsed=250
    )
    assert [r.elapsed for r in boards.top(easy.pk)] == [200, 302]
    page = player_client.get(reverse("daily_board", args=[easy.date.isoformat(), "easy"])).content.decode()
    assert "sign in to take your place" in page and "You would be <strong>#2</strong>" in page
    assert f"<td>{anon.display_name}</td>" not in page  # another player's anonymous run is never shown
    assert page.count('class="is-mine"') == 1 and f"<td>{mine.elapsed:.0f}" not in page


def test_top_hundred_plus_the_viewers_own_place(easy, settings):
    settings.DAILY_BOARD_SIZE = 5
    runs = [finisher(easy, 100 + n) for n in range(8)]
    profile, _run = runs[6]
    client = client_for(profile)
    client.force_login(profile.account)
    page = client.get(reverse("daily_board", args=[easy.date.isoformat(), "easy"])).content.decode()
    assert page.count("<tr") == 1 + 5 + 2  # head, the top 5, the gap and the viewer's row
    assert "Your place: <strong>#7</strong>" in page and f"<td>{profile.display_name}</td>" in page


def test_one_query_for_the_board_and_one_for_the_viewers_place(
    easy, player, player_client, django_assert_max_num_queries
):
    for n in range(30):
        finisher(easy, 100 + n, assisted=n % 3 == 0, hints=n % 3)
    SoloRun.objects.create(
        player=player, puzzle=easy.puzzle, level="easy", board={}, daily=easy, state="finished", elapsed=115
    )
    url = reverse("daily_board", args=[easy.date.isoformat(), "easy"])
    player_client.get(url)  # the daily's row is kept by the process from now on
    from django.core.cache import cache

    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        assert player_client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as warm:
        player_client.get(url)
    assert len(cold) == 2  # the player's profile, the board with the viewer's place
    assert len(warm) == 2  # the board from the cache, the viewer's place


def test_signed_in_outside_the_top_three_queries_cold(easy, settings, django_assert_max_num_queries):
    """The bench's 4-query case: the session, the profile, and one statement for the board
    and the viewer's place; the place and the list as the separate queries give them."""
    settings.DAILY_BOARD_SIZE = 5
    for n in range(8):
        finisher(easy, 100 + n, assisted=n % 3 == 0, hints=n % 3)
    profile, run = finisher(easy, 150, mistakes=1)
    client = client_for(profile)
    client.force_login(profile.account)
    url = reverse("daily_board", args=[easy.date.isoformat(), "easy"])
    client.get(url)  # the daily's row is kept by the process from now on
    from django.core.cache import cache

    cache.clear()
    with django_assert_max_num_queries(3):
        response = client.get(url)
    mine, rows = response.context["mine"], response.context["rows"]
    assert (mine.run_id, mine.place, mine.mine, response.context["mine_listed"]) == (run.pk, 6, True, False)
    assert rows == boards._top(easy.pk)  # the list as its own query gives it
    assert mine.place == boards.own(profile, easy.pk, []).place == 6


def test_the_cached_board_lasts_a_few_seconds(easy, settings):
    finisher(easy, 100)
    assert len(boards.top(easy.pk)) == 1
    finisher(easy, 90)
    assert len(boards.top(easy.pk)) == 1  # cached
    from django.core.cache import cache

    cache.delete(f"daily-board-{easy.pk}")  # what the expiry does
    assert len(boards.top(easy.pk)) == 2


def test_a_ranked_finish_shows_at_once_on_a_cached_board(easy):
    """Issue 43 item 10: "No ranked finishes yet." showed above the player's own #1 row until
    the board's cache ran out."""
    import datetime as dt
    import zoneinfo

    from games.daily import play
    from games.sudoku import solo
    from tests.conftest import EMPTY, SOLUTION

    user = get_user_model().objects.create_user(username="ada", email="ada@example.com")
    ada = Profile.objects.create(display_name="Ada", account=user)
    url = reverse("daily_board", args=[easy.date.isoformat(), "easy"])
    assert "No ranked finishes yet." in client_for(ada).get(url).content.decode()  # the empty board, cached
    run, _started = play.start_ranked(ada, easy.date, "easy", zoneinfo.ZoneInfo("UTC"))
    for n, cell in enumerate(EMPTY):  # a person's pace (a script's is held for review)
        at = run.started_at + dt.timedelta(seconds=2 * (n + 1))
        solo.act(run.pk, ada, solo.SoloAction("enter", cell=cell, digit=int(SOLUTION[cell])), now=at)
    page = client_for(ada).get(url).content.decode()
    assert "No ranked finishes yet." not in page and [r.name for r in boards.top(easy.pk)] == ["Ada"]

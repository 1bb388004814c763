"""Issue 23, 2: the /daily/ page, ranked starts (one per player or account per daily, a second
start continues it, another signed-in device too), practice runs, the home tile, and the
bad input of the issue (each a clear answer and no change)."""

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.daily import days
from games.models import SoloRun
from players.models import Profile
from tests.conftest import EMPTY, SOLUTION, client_for

HX = {"HTTP_HX_REQUEST": "true"}


def start(client, date, level="easy", zone="UTC"):
    return client.post(reverse("daily_start"), {"zone": zone, "date": date.isoformat(), "level": level})


def run_of(response) -> SoloRun:
    assert response.status_code == 302, response.content.decode()[:500]
    return SoloRun.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def solve(client, run, gap=None):
    response = None
    for cell in EMPTY:
        response = client.post(reverse("solo_act", args=[run.pk]), {"cell": cell, "digit": SOLUTION[cell]}, **HX)
    return response


def today():
    return timezone.now().date()


def test_the_page_lists_todays_four_dailies_for_the_players_zone(player_client, dailies):
    page = player_client.get(reverse("daily")).content.decode()
    for level in ("Easy", "Medium", "Hard", "Expert"):
        assert f">{level}</span>" in page
    assert page.count("Not started") == 4 and today().strftime("%Y-%m-%d") in page
    # A zone where it is already tomorrow or still yesterday shows that date.
    far_east = days.local_date(timezone.now(), days.zone("Pacific/Kiritimati"))
    player_client.cookies["showdown_zone"] = "Pacific/Kiritimati"
    page = player_client.get(reverse("daily")).content.decode()
    assert 'data-zone="Pacific/Kiritimati"' in page
    assert f'name="date" value="{far_east.isoformat()}"' in page or "being prepared" in page


def test_a_ranked_start_makes_one_run_and_a_second_start_continues_it(player, player_client, dailies):
    first = run_of(start(player_client, today()))
    assert first.daily == dailies[(today(), "easy")] and not first.practice and first.log == []
    assert first.closes_at == days.closes_at(today()) and first.puzzle == first.daily.puzzle
    again = start(player_client, today())
    assert run_of(again).pk == first.pk
    page = player_client.get(again["Location"]).content.decode()
    assert "You started this daily before" in page and "Daily" in page
    assert SoloRun.objects.filter(daily__isnull=False).count() == 1


def test_two_tabs_starting_at_once_make_one_run(player, dailies, monkeypatch):
    """The second tab's INSERT meets the unique (daily, player) constraint: it continues the first."""
    from games.daily import play

    real = play.ranked_run
    calls = []

    def blind_once(p, daily_id):  # the second tab read before the first one's INSERT
        calls.append(1)
        return None if len(calls) == 2 else real(p, daily_id)

    tz = days.zone("UTC")
    first, started = play.start_ranked(player, today(), "easy", tz)
    monkeypatch.setattr(play, "ranked_run", blind_once)
    second, started_again = play.start_ranked(player, today(), "easy", tz)
    assert started and not started_again and second.pk == first.pk
    assert SoloRun.objects.filter(daily__isnull=False).count() == 1


def test_a_signed_in_player_continues_on_another_device(dailies):
    user = get_user_model().objects.create_user(username="ada", email="ada@example.com")
    phone = Profile.objects.create(display_name="Ada", account=user)
    laptop = Profile.objects.create(display_name="Ada", account=user)
    phone_client, laptop_client = client_for(phone), client_for(laptop)
    phone_client.force_login(user)
    laptop_client.force_login(user)
    run = run_of(start(phone_client, today()))
    phone_client.post(reverse("solo_act", args=[run.pk]), {"cell": EMPTY[0], "digit": SOLUTION[EMPTY[0]]}, **HX)
    continued = run_of(start(laptop_client, today()))
    assert continued.pk == run.pk and continued.player == laptop and continued.moves == 1
    solve(laptop_client, continued)
    assert SoloRun.objects.get(pk=run.pk).state == "finished"
    assert SoloRun.objects.filter(daily__isnull=False).count() == 1
    # The finished run reads on either device (the daily page's "Your run"), and stays where it is.
    assert phone_client.get(reverse("solo_run", args=[run.pk])).status_code == 200
    assert SoloRun.objects.get(pk=run.pk).player == laptop


def test_a_signed_in_player_opening_the_run_page_on_another_device_continues(dailies):
    user = get_user_model().objects.create_user(username="ada", email="ada@example.com")
    phone = Profile.objects.create(account=user)
    laptop = Profile.objects.create(account=user)
    phone_client, laptop_client = client_for(phone), client_for(laptop)
    phone_client.force_login(user)
    laptop_client.force_login(user)
    run = run_of(start(phone_client, today()))
    assert laptop_client.get(reverse("solo_run", args=[run.pk])).status_code == 200
    assert SoloRun.objects.get(pk=run.pk).player == laptop
    # the phone's next move is refused, nothing written
    refused = phone_client.post(reverse("solo_act", args=[run.pk]), {"cell": EMPTY[0], "digit": 1}, **HX)
    assert refused.status_code == 403 and SoloRun.objects.get(pk=run.pk).moves == 0


def test_practice_runs_of_past_dailies(player, player_client, dailies):
    yesterday = today() - dt.timedelta(days=1)
    with time_machine.travel(days.closes_at(yesterday) + dt.timedelta(minutes=1), tick=False):
        response = player_client.post(reverse("daily_practice"), {"date": yesterday.isoformat(), "level": "hard"})
        run = run_of(response)
        assert (
            run.practice and run.daily == dailies[(yesterday, "hard")] and run.closes_at is None and run.log == []
        )  # every run keeps its moves: its replay (issue 39); practice is never judged
        page = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
        assert "Practice" in page
        # A second practice run is another run; none is ranked.
        run_of(player_client.post(reverse("daily_practice"), {"date": yesterday.isoformat(), "level": "hard"}))
        assert SoloRun.objects.filter(practice=True).count() == 2
        assert not SoloRun.objects.filter(daily__isnull=False, practice=False).exists()
        finished = solve(player_client, run).content.decode()
        assert "not ranked" in finished and "streak" not in finished.lower().split("not ranked")[1][:10]
    from stats.leaderboards import solo_board

    assert solo_board(player, "hard", False).best is None  # a replay is never a Solo Run record


def test_practice_of_a_daily_still_open_needs_the_ranked_run_first(player_client, dailies):
    response = player_client.post(reverse("daily_practice"), {"date": today().isoformat(), "level": "easy"})
    assert response.status_code == 409 and b"still open" in response.content
    assert not SoloRun.objects.exists()


def test_the_home_pages_first_tile_is_todays_daily(player_client, dailies):
    page = player_client.get(reverse("home")).content.decode()
    tiles = page.find('class="cards tiles"')
    assert page.find("tile-daily", tiles) < page.find("tile-solo", tiles)
    assert page.count('action="/daily/start/"') == 1 and 'name="level" value="expert"' in page
    run = run_of(start(player_client, today()))
    solve(player_client, run)
    page = player_client.get(reverse("home")).content.decode()
    assert f"/daily/{today().isoformat()}/easy/" in page and "✓" in page


# --- bad input: a clear answer, nothing changed -------------------------------------------------


@pytest.mark.parametrize(
    ("data", "status", "says"),
    [
        ({"zone": "Mars/Olympus_Mons"}, 400, "is not one we know"),
        ({"zone": "../../etc/passwd"}, 400, "is not one we know"),
        ({"date": "tomorrow"}, 400, "is not a date"),
        ({"date": "2026-02-30"}, 400, "is not a date"),
        ({"level": "impossible"}, 400, "Pick Easy"),
        ({"date": "+1"}, 409, "has not begun for you yet"),  # a future date
        ({"date": "-1"}, 409, "is over for you"),  # yesterday in UTC: over for a UTC player
        ({"date": "-30"}, 409, "is over for you"),
    ],
)
def test_bad_starts(player_client, dailies, data, status, says):
    fields = {"zone": "UTC", "date": today().isoformat(), "level": "easy", **data}
    if fields["date"][0] in "+-" and fields["date"][1:].isdigit():
        fields["date"] = (today() + dt.timedelta(days=int(fields["date"]))).isoformat()
    response = player_client.post(reverse("daily_start"), fields)
    assert response.status_code == status
    assert says in response.content.decode()
    assert not SoloRun.objects.exists()


def test_a_date_outside_the_open_window_even_with_a_zone_that_says_so(player_client, dailies):
    """A forged zone cannot reopen a date: the window is checked against the server's clock."""
    yesterday = today() - dt.timedelta(days=1)
    with time_machine.travel(days.closes_at(yesterday) + dt.timedelta(seconds=1), tick=False):
        response = start(player_client, yesterday, zone="Etc/GMT+12")
    assert response.status_code == 409 and b"is over for you" in response.content
    assert not SoloRun.objects.exists()


def test_a_move_after_the_daily_closed_stays_a_dnf(player_client, dailies):
    run = run_of(start(player_client, today()))
    player_client.post(reverse("solo_act", args=[run.pk]), {"cell": EMPTY[0], "digit": SOLUTION[EMPTY[0]]}, **HX)
    with time_machine.travel(days.closes_at(today()) + dt.timedelta(seconds=1), tick=False):
        refused = player_client.post(
            reverse("solo_act", args=[run.pk]), {"cell": EMPTY[1], "digit": SOLUTION[EMPTY[1]]}, **HX
        )
        assert refused.status_code == 409 and b"did not finish" in refused.content
        assert b"This daily has closed" in player_client.get(reverse("solo_run", args=[run.pk])).content
    stored = SoloRun.objects.get(pk=run.pk)
    assert stored.moves == 1 and stored.state == "playing" and len(stored.log) == 1


def test_a_daily_that_does_not_exist(player_client, dailies):
    """An open date whose daily was never chosen (a forged or too early request)."""
    dailies[(today(), "easy")].delete()
    response = start(player_client, today())
    assert response.status_code == 409 and b"no daily of that date and level" in response.content
    assert not SoloRun.objects.exists()
    assert player_client.get(f"/daily/{today().isoformat()}/easy/").status_code == 404
    assert player_client.get("/daily/2026-13-01/easy/").status_code == 404
    assert player_client.get(f"/daily/{today().isoformat()}/nightmare/").status_code == 404
    tomorrow = today() + dt.timedelta(days=2)
    assert player_client.get(f"/daily/{tomorrow.isoformat()}/hard/").status_code == 404


def test_a_forged_run_id_is_refused(player_client, other_player, dailies):
    other = run_of(start(client_for(other_player), today()))
    response = player_client.post(reverse("solo_act", args=[other.pk]), {"cell": EMPTY[0], "digit": 1}, **HX)
    assert response.status_code == 403 and SoloRun.objects.get(pk=other.pk).moves == 0
    assert player_client.get(reverse("solo_run", args=[other.pk])).status_code == 403

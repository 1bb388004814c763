"""Issue 43, item 3: no page may log a JavaScript error. home.js threw a TypeError on every
load of the home page (it took the daily card's hidden input for the schedule form's time
zone select), so the form stayed in UTC. Every page a player reaches, in both languages, is
loaded with a listener for console errors and uncaught exceptions; none may appear."""

import datetime as dt

import pytest
from django.utils import timezone

from games.daily.models import Daily
from games.models import Puzzle, SoloRun
from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION
from tests.browser.race_setup import running_room

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = [
    "/",
    "/how-to-play/",
    "/cardoku/",
    "/domino/",
    "/daily/",
    "/daily/archive/",
    "/leaderboards/",
    "/rankings/",
    "/profile/",
    "/accounts/login/",
    "/accounts/signup/",
]


def dailies_around_today() -> None:
    """Dailies for yesterday, today and tomorrow (UTC), so every zone's today has its cards: the
    home page shows them, and their hidden zone inputs are what home.js took for the select."""
    today = timezone.now().date()
    for level in ("easy", "medium", "hard", "expert"):
        for days in (-1, 0, 1):
            puzzle = Puzzle.objects.create(
                level=level, givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=2, for_daily=True
            )
            Daily.objects.create(date=today + dt.timedelta(days=days), level=level, puzzle=puzzle)


def watched(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


@pytest.mark.parametrize("language", ["en", "nl"])
def test_no_page_logs_a_javascript_error(browser, daphne_server, language):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    dailies_around_today()
    room, (ada, _grace) = running_room()
    # Today's easy daily finished: the daily page's Share (it fetches the card) and the shared page
    daily = Daily.objects.get(date=timezone.now().date(), level="easy")
    run = SoloRun.objects.create(
        player=ada, puzzle=daily.puzzle, level="easy", board={}, daily=daily, state="finished", elapsed=300
    )
    page = new_page(browser, daphne_server, ada, width=1280, height=800)
    page.set_extra_http_headers({"Accept-Language": language})
    errors = watched(page)
    seen = {}
    for path in [*PAGES, f"/r/{room.code}/", f"/daily/shared/{run.pk}/"]:
        page.goto(path)
        page.wait_for_load_state("load")
        seen[path] = list(errors)
        errors.clear()
    # a game page reached through its form: a Solo Run started from the home page
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button").first.click()
    page.wait_for_selector("[data-board]")
    page.wait_for_load_state("load")
    seen["a Solo Run"] = list(errors)
    assert {path: found for path, found in seen.items() if found} == {}


def test_the_schedule_form_takes_the_browsers_time_zone(browser, live_server):
    dailies_around_today()
    context = browser.new_context(base_url=live_server.url, timezone_id="Europe/Amsterdam", bypass_csp=True)
    page = context.new_page()
    errors = watched(page)
    page.goto("/")
    page.wait_for_load_state("load")
    assert page.locator("select[name=timezone]").input_value() == "Europe/Amsterdam"
    assert errors == []


SIGNED_IN_PAGES = ["/", "/friends/", "/u/ana/", "/notifications/", "/league/", "/arenas/", "/race/"]


def test_no_signed_in_page_logs_a_javascript_error(browser, daphne_server):
    """The signed-in pages, each with the player's own socket (friends/consumers.py): the
    friends pages, the league, the arenas and an arena, the home page's friends panel."""
    from arenas.models import Arena
    from tests.browser.test_friends_browser import member_page

    now = timezone.now()
    arena = Arena.objects.create(
        level="easy", starts_at=now + dt.timedelta(hours=1), minutes=30, ends_at=now + dt.timedelta(hours=2)
    )
    page, _ana = member_page(browser, daphne_server, "Ana")
    errors = watched(page)
    seen = {}
    for path in [*SIGNED_IN_PAGES, f"/arena/{arena.code}/"]:
        page.goto(path)
        page.wait_for_load_state("load")
        page.wait_for_selector("#bell")
        seen[path] = list(errors)
        errors.clear()
    assert {path: found for path, found in seen.items() if found} == {}

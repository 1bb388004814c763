"""Issue 41's "Done when", in Chromium over real sockets (daphne): five players join a short
arena, are paired into a room, race it (Ana berserk, first), are paired again at once and race
again; the table then shows Ana on fire with her berserk room marked, the others tied behind."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from arenas.models import Arena, Entry
from games.models import Puzzle
from tests.browser.test_friends_browser import member_page
from tests.browser.test_ratings_browser import solve
from tests.conftest import PUZZLE, SOLUTION

pytestmark = pytest.mark.django_db(transaction=True)
ROOM = re.compile(r"/r/([A-Za-z0-9]{6})/$")


@pytest.fixture(autouse=True)
def _short_arena(monkeypatch):
    """daphne reads these at its start: a room ends 2 s after its first finish, and the same
    five race again after 1 s (nobody else is there)."""
    monkeypatch.setenv("ARENA_FINISH_GRACE_SECONDS", "2")
    monkeypatch.setenv("ARENA_REMATCH_SECONDS", "1")


def test_five_join_race_twice_and_the_table_shows_fire_and_berserk(browser, daphne_server):
    for _ in range(4):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    soon = timezone.now() + dt.timedelta(hours=1)
    arena = Arena.objects.create(level="easy", starts_at=soon, minutes=30, ends_at=soon + dt.timedelta(minutes=30))
    names = ("Ana", "Bo", "Cy", "Di", "Ed")
    pages = [member_page(browser, daphne_server, name, width=1280 if name == "Ana" else 375)[0] for name in names]
    ana = pages[0]
    for page in pages:
        page.goto(f"/arena/{arena.code}/")
        page.locator("[data-join-arena]").click()
        expect(page.locator("[data-entry-state=waiting]")).to_be_visible()
    ana.locator("[data-berserk]").click()
    expect(ana.locator("[data-berserk]")).to_have_attribute("aria-pressed", "true")
    # The arena starts: the waiting pages' polls pair all five into one room
    now = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(starts_at=now, ends_at=now + dt.timedelta(minutes=30))
    codes = set()
    for page in pages:
        expect(page).to_have_url(ROOM, timeout=20_000)
        codes.add(ROOM.search(page.url).group(1))
    assert len(codes) == 1
    first = codes.pop()

    for round_code in (first, None):
        ana.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=20_000)
        solve(ana)
        for page in pages:  # 2 s after Ana's finish the room ends; the others as they stand
            page.wait_for_selector("#room-body[data-state=finished]", timeout=20_000)
        if round_code is None:
            break
        for page in pages:
            page.locator("[data-back-to-arena]").click()
        seconds = set()
        for page in pages:
            expect(page).to_have_url(ROOM, timeout=20_000)
            seconds.add(ROOM.search(page.url).group(1))
        assert len(seconds) == 1 and first not in seconds  # a new room, the same five

    ana.locator("[data-back-to-arena]").click()
    row = ana.locator("#arena-table [data-arena-row=Ana]")
    expect(row.locator("[data-fire]")).to_be_visible()  # two wins in a row: on fire
    expect(row.locator("[data-recent]")).to_have_text(re.compile(r"^\s*5B\s+4\s*$"))  # berserk win, then a win
    expect(row).to_contain_text("9")
    for name in names[1:]:
        expect(ana.locator(f"#arena-table [data-arena-row={name}] td").first).to_have_text("2")  # tied behind
    assert Entry.objects.get(player__display_name="Ana").points == 9
    for page in pages:
        page.context.close()

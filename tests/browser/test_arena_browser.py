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
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION
from tests.browser.test_friends_browser import member_page
from tests.browser.test_ratings_browser import solve

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
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
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
    # The others' pages close (their players stay joined, waiting): Ana's open page alone keeps
    # daphne ticking the arena from here (arenas/live.py), which pairs everyone waiting and pushes
    # her room to her page; four fewer pages racing keep the test's load to one player's (under
    # a loaded CI a cell's click once took > 10 s).
    for page in pages[1:]:
        page.context.close()
    now = timezone.now()
    Arena.objects.filter(pk=arena.pk).update(starts_at=now, ends_at=now + dt.timedelta(minutes=30))
    rooms = []
    for _round in range(2):
        expect(ana).to_have_url(ROOM, timeout=20_000)
        code = ROOM.search(ana.url).group(1)
        assert set(Entry.objects.values_list("room_code", flat=True)) == {code}  # all five, one room
        rooms.append(code)
        ana.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=20_000)
        solve(ana)
        ana.wait_for_selector("#room-body[data-state=finished]", timeout=20_000)  # 2 s after her finish
        if _round == 0:
            ana.locator("[data-back-to-arena]").click()  # the arena pairs the same five again
    assert rooms[0] != rooms[1]

    # The arena's last 2 minutes: no new room, so the table stays on screen to be read.
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() + dt.timedelta(seconds=100))
    ana.locator("[data-back-to-arena]").click()
    row = ana.locator("#arena-table [data-arena-row=Ana]")
    expect(row.locator("[data-fire]")).to_be_visible()  # two wins in a row: on fire
    expect(row.locator("[data-recent]")).to_have_text(re.compile(r"^\s*5B\s+4\s*$"))  # berserk win, then a win
    expect(row).to_contain_text("9")
    for name in names[1:]:
        expect(ana.locator(f"#arena-table [data-arena-row={name}] td").first).to_have_text("2")  # tied behind
    assert Entry.objects.get(player__display_name="Ana").points == 9
    ana.context.close()

"""Issue 24's "Done when": three players sign up in three browsers (codes read from a real
SMTP server, aiosmtpd, that the daphne process mails to), race a Standard room through
the real board over WebSockets, and the finish screen shows three rating changes in the
right directions; the profile's chart has its first point; /rankings/ shows each of them
their provisional rating, outside the top 100 (which holds an established player)."""

import os
import re
import socket

import pytest
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import Puzzle, SoloRun
from games.sudoku.bests import refresh_best
from players.models import Profile
from rooms.models import Room
from stats.models import Rating, RatingChange
from tests.accounts.conftest import Inbox
from tests.browser.conftest import new_page, wait_for_first_push
from tests.browser.puzzle import CLUES, EMPTY, PUZZLE, SOLUTION
from tests.stats.rated_rooms import signed_in

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("Ada", "Grace", "Linus")


@pytest.fixture
def mail_server(monkeypatch):
    """aiosmtpd on a free port, and EMAIL_URL pointing there for the daphne process (set
    before daphne_server starts it: this fixture comes first in the test's arguments)."""
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setenv("EMAIL_URL", f"smtp://127.0.0.1:{port}")
    yield inbox
    controller.stop()


def sign_up(page, inbox, address):
    page.goto("/accounts/signup/")
    page.fill("input[name=email]", address)
    page.fill("input[name=display_name]", address.split("@")[0].capitalize())
    page.fill("input[name=handle]", address.split("@")[0])
    page.click("main form button[type=submit]")
    page.wait_for_selector("input[name=code]")
    page.fill("input[name=code]", inbox.last_code(address))
    with page.expect_navigation():
        page.press("input[name=code]", "Enter")


def enter(page, index):
    """Select a cell on the real board (its click, dispatched on the cell: on main the race
    board is squeezed to a few pixels beside the floated share box at every width, so a
    click by position hits another cell) and type its digit."""
    for attempt in range(3):  # the socket's first full state may redraw the board over a click
        page.locator(f'[data-cell="{index}"]').dispatch_event("click")
        try:
            page.locator(f'[data-cell="{index}"][aria-selected="true"]').wait_for(timeout=4_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    page.keyboard.press(SOLUTION[index])
    page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()


def solve(page):
    for index in EMPTY:
        enter(page, index)


def shot(page, name):
    folder = os.environ.get("RATING_SHOTS")  # set it to look at the pages (375 and 1280 px)
    if folder:
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{folder}/{name}-{width}.png", full_page=True)
        page.set_viewport_size({"width": 1500, "height": 900})


def changes_on(page) -> dict[str, int]:
    """Each player's change as the finish screen says it ('+14, now 1514?')."""
    page.wait_for_selector("[data-rating] li[data-rating-change]", timeout=15_000)
    found = {}
    for item in page.locator("[data-rating] li").all():
        line = item.inner_text().replace("\n", " ")
        found_line = re.match(r"(\w+).*?([+\u2212\u00b1])(\d+), now \d+\?", line)
        assert found_line, line
        name, sign, number = found_line.groups()
        found[name] = -int(number) if sign == "\u2212" else int(number)
    return found


@pytest.fixture
def early_forfeits_rated(monkeypatch):
    """Linus forfeits a few seconds in: this test is about a forfeit's last place, not the rule
    that a forfeit in the first 30 s leaves a room unrated (tests/stats/test_ratings.py). Set
    before daphne starts: its environment is copied from this process's."""
    monkeypatch.setenv("RATING_EARLY_FORFEIT_SECONDS", "0")


def test_three_signed_in_players_race_and_see_their_ratings(browser, mail_server, early_forfeits_rated, daphne_server):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    veteran = signed_in("Veteran")  # an established player: the top 100's one entry
    Rating.objects.create(
        account=veteran.account, profile=veteran, mu=30.0, sigma=3.0, shown=1560, rooms=25,
        last_room_at=timezone.now(), rivals=12,
    )  # fmt: skip
    pages = {}
    for name in NAMES:
        profile = Profile.objects.create(display_name=name)  # the browser's name, kept at sign-up
        pages[name] = new_page(browser, daphne_server, profile, width=1500)
        sign_up(pages[name], mail_server, f"{name.lower()}@example.com")
        assert Profile.objects.get(pk=profile.pk).account.email == f"{name.lower()}@example.com"
    ada, grace, linus = (pages[name] for name in NAMES)

    ada.goto("/")
    ada.get_by_label("Difficulty").select_option("easy")
    ada.get_by_label("Rules").select_option("standard")
    ada.get_by_role("button", name="Create room").click()
    ada.wait_for_selector("#room-body[data-state=lobby]")
    assert ada.locator('input[name="rating"][value="rated"]').is_checked()  # the host's toggle
    shot(ada, "lobby")
    code = Room.objects.get().code
    for guest in (grace, linus):
        guest.goto("/")
        guest.get_by_label("Room code").fill(code)
        guest.get_by_role("button", name="Join room").click()
        guest.wait_for_selector("#room-body[data-state=lobby]")
        assert "Rated" in guest.locator(".rule-summary").inner_text()
        # the socket's first push (the full state) redraws the lobby: a click before it can
        # land on the button it replaces, and the ready was never sent (seen once in a run)
        wait_for_first_push(guest)
        guest.get_by_role("button", name="I'm ready").click()
    ada.locator(".player.is-ready", has_text="Linus").wait_for()
    ada.locator(".player.is-ready", has_text="Grace").wait_for()
    ada.get_by_role("button", name="Start showdown").click()
    for page in pages.values():
        page.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=15_000)

    # Linus fills three cells and forfeits (he ranks last); Ada solves first, then Grace.
    for index in EMPTY[:3]:
        enter(linus, index)
    linus.locator("details.forfeit summary").click()
    linus.get_by_role("button", name="Yes, forfeit").click()
    for page in (ada, grace):  # the forfeit reached them (the standings are redrawn): then play on
        page.locator(".standing", has_text="Linus").get_by_text(re.compile("left", re.IGNORECASE)).first.wait_for()
    solve(ada)
    solve(grace)
    for page in (ada, grace):
        page.wait_for_selector("#room-body[data-state=finished]", timeout=15_000)
    linus.goto(f"/r/{code}/")  # the forfeit took him out of the room's page: he comes back to look

    stored = {c.profile.display_name: c.delta for c in RatingChange.objects.select_related("profile")}
    assert stored["Ada"] > 0 > stored["Linus"] and stored["Ada"] > stored["Grace"] > stored["Linus"]
    for page in pages.values():  # every page says the same three changes, pushed live
        assert changes_on(page) == stored
    assert ada.locator("[data-rating] li.is-me").inner_text().startswith("Ada")
    shot(grace, "finish")

    # The profile: the rating with its "?", one rated room, the chart's first point.
    ada.goto("/profile/")
    after = RatingChange.objects.get(profile__display_name="Ada").after
    assert ada.locator("[data-rating-panel] .rating-number").inner_text() == f"{after}?"
    assert "1 rated room" in ada.locator("[data-rating-panel]").inner_text()
    assert ada.locator("[data-rating-panel] .chart-dot").count() == 1
    shot(ada, "profile")

    # The rankings: each sees their own provisional rating; the top 100 holds the veteran only.
    for name, page in pages.items():
        page.goto("/rankings/")
        mine = page.locator("[data-my-place]").inner_text()
        own = RatingChange.objects.get(profile__display_name=name).after
        assert f"rating {own}?" in mine and "Not ranked yet: 9 more rated rooms to go." in mine
        rows = page.locator(".ranking-table tbody tr").all_inner_texts()
        assert len(rows) == 1 and "Veteran" in rows[0] and name not in rows[0]
    shot(linus, "rankings")

    # The Solo Run rankings across accounts: each account's best on its board, with places.
    puzzle = Puzzle.objects.get()
    for name, seconds in (("Ada", 200.0), ("Grace", 250.0), ("Grace", 150.0)):
        profile = Profile.objects.get(display_name=name)
        SoloRun.objects.create(
            player=profile, puzzle=puzzle, level="easy", board={}, score=100,
            state=SoloRun.State.FINISHED, elapsed=seconds, finished_at=timezone.now(),
        )  # fmt: skip
        refresh_best(profile.account_id, "easy", False)  # what a finish does
    ada.goto("/rankings/")
    ada.get_by_role("link", name="Solo Run").click()
    ada.wait_for_url("**/rankings/solo/easy/classic/")
    assert "on different puzzles of the same grade" in ada.inner_text("main")
    rows = ada.locator(".ranking-table tbody tr").all_inner_texts()
    assert [r.split("\t")[:3] for r in rows] == [["1", "Grace", "2:30"], ["2", "Ada", "3:20"]]
    assert "place #2, best 3:20" in ada.locator("[data-my-place]").inner_text()
    linus.goto("/rankings/solo/easy/classic/")
    assert "You have no finish on this board yet." in linus.locator("[data-my-place]").inner_text()
    shot(ada, "rankings-solo")
    for page in pages.values():
        page.context.close()

"""Issue 27, teach then tell, in real Chromium: Cardoku and Sudoku Domino open with a first-play
walkthrough of four steps, each ringing a part of the real game; Skip, Escape or the last
step ends it, and this browser never shows it again for that game."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.cardoku import solo as cardoku
from games.domino import solo as domino
from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser

CARDOKU = ["#ck-current", "#ck-board", ".ck-discard", ".ck-toggles"]
DOMINO = ["#dm-hand", ".domino-table", ".domino-hud", ".jokers"]


@pytest.mark.parametrize("width", [375, 1280])
def test_cardoku_walkthrough_steps_through_the_real_board_once(browser, live_server, player, width):
    game = cardoku.start_game(player, {"layout": "default"})
    page = new_page(browser, live_server.url, player, width=width, height=812)
    page.goto(f"/cardoku/{game.pk}/")
    tour = page.get_by_role("dialog")
    expect(tour).to_be_visible()
    next_button = tour.get_by_role("button", name="Next")
    expect(next_button).to_be_focused()
    for number, target in enumerate(CARDOKU, start=1):
        expect(tour).to_contain_text(f"Step {number} of 4")
        expect(page.locator(".tour-target")).to_have_count(1)
        assert page.locator(target).evaluate("el => el.classList.contains('tour-target')")
        if number < 4:
            next_button.click()
    # The game stays playable under it (and the ring finds its target again after the swap).
    page.get_by_role("button", name="Discard").click()
    expect(page.locator("#ck-game")).to_have_attribute("data-step", "1")
    expect(page.locator(".ck-toggles.tour-target")).to_have_count(1)
    tour.get_by_role("button", name="Got it").click()
    expect(tour).to_be_hidden()
    expect(page.locator(".tour-target")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('tour-cardoku')") == "done"
    page.reload()
    page.wait_for_selector("#ck-board")
    # reload returns at the load event, after the deferred tour.js ran its start(): a tour it
    # would show again is showing by now. The walkthrough is in the page, and stays hidden.
    expect(page.locator(".tour[data-tour=cardoku]")).to_be_attached()
    expect(page.get_by_role("dialog")).to_be_hidden()
    page.context.close()


def test_domino_walkthrough_is_skipped_with_escape_and_not_shown_again(browser, live_server, player, bank_puzzle):
    game = domino.start_game(player, "easy")
    page = new_page(browser, live_server.url, player, width=375, height=812)
    page.goto(f"/domino/{game.pk}/")
    tour = page.get_by_role("dialog")
    expect(tour).to_contain_text("Step 1 of 4")
    expect(tour).to_contain_text("Your 10 minutes start when this walkthrough ends")
    # The first game's clock waits for the walkthrough (issue 43, 18): it stands at 10:00.
    expect(page.locator("#dm-clock [data-clock-waiting]")).to_be_visible()
    expect(page.locator("#dm-clock .clock")).to_have_attribute("data-running", "0")
    for number, target in enumerate(DOMINO, start=1):
        assert page.locator(target).evaluate("el => el.classList.contains('tour-target')")
        if number < 3:
            tour.get_by_role("button", name="Next").click()
            continue
        break
    page.keyboard.press("Escape")
    expect(tour).to_be_hidden()
    assert page.evaluate("localStorage.getItem('tour-domino')") == "done"
    # Skipped: the clock starts now, on the server too.
    expect(page.locator("#dm-clock [data-clock-waiting]")).to_have_count(0)
    expect(page.locator("#dm-clock .clock")).to_have_attribute("data-running", "1")
    game.refresh_from_db()
    assert (game.deadline - game.started_at).total_seconds() == 600 and game.started_at <= timezone.now()
    # Not a first game any more: a new game starts its clock at once, with no walkthrough.
    other = domino.start_game(player, "easy")
    page.goto(f"/domino/{other.pk}/")
    page.wait_for_selector("[data-domino-board]")
    expect(page.locator(".tour[data-tour=domino]")).to_have_count(0)
    expect(page.locator("#dm-clock .clock")).to_have_attribute("data-running", "1")
    # Cardoku keeps its own: still shown there.
    game = cardoku.start_game(player, {"layout": "default"})
    page.goto(f"/cardoku/{game.pk}/")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.context.close()


def test_walkthrough_in_dutch_and_skipped(browser, live_server, player):
    game = cardoku.start_game(player, {"layout": "default"})
    page = new_page(browser, live_server.url, player, width=1280, height=800)
    page.context.set_extra_http_headers({"Accept-Language": "nl"})
    page.goto(f"/cardoku/{game.pk}/")
    tour = page.get_by_role("dialog")
    expect(tour).to_contain_text("Stap 1 van 4")
    expect(tour).to_contain_text("Dit is je kaart.")
    tour.get_by_role("button", name="Volgende").click()
    expect(tour).to_contain_text("Stap 2 van 4")
    tour.get_by_role("button", name="Overslaan").click()
    expect(tour).to_be_hidden()
    assert page.evaluate("localStorage.getItem('tour-cardoku')") == "done"
    page.context.close()

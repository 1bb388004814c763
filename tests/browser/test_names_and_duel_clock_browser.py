"""Issue 43 in real Chromium: the phone header never cuts "Pick your name" (6); a Domino duel's
lobby walks a player new to Domino through it before the countdown, and the duel shows one
clock, the time left (18)."""

import pytest
from playwright.sync_api import expect

from games.models import Puzzle
from players.models import Profile
from rooms import actions as A
from rooms.api import create_room
from tests.browser.conftest import act, new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", ["Player 7220", "Ada"])
def test_the_phone_header_shows_the_whole_name_prompt_or_the_name(browser, live_server, name):
    player = Profile.objects.create(display_name=name)
    page = new_page(browser, live_server.url, player, width=375, height=812)
    page.goto("/")
    who = page.locator(".site-header .who")
    expect(who).to_be_visible()
    if name == "Ada":
        expect(who).not_to_contain_text("Pick your name")
        expect(who).to_contain_text("Ada")
    else:
        expect(who).to_have_text("Pick your name")
    fits = who.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert fits, "the header's name link is clipped"
    page.context.close()


def test_a_new_players_duel_lobby_walkthrough_gives_way_to_one_clock(browser, daphne_server):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada, grace = Profile.objects.create(display_name="Ada"), Profile.objects.create(display_name="Grace")
    room = create_room(ada, "domino", "easy")
    act(room.code, grace, A.Join())
    act(room.code, grace, A.SetReady(True))
    page = new_page(browser, daphne_server, ada, width=375, height=812)
    page.goto(f"/r/{room.code}/")
    tour = page.get_by_role("dialog")
    expect(tour).to_contain_text("New to Sudoku Domino?")
    expect(tour).to_contain_text("Step 1 of 3")
    tour.get_by_role("button", name="Next").click()
    expect(tour).to_contain_text("Step 2 of 3")
    # The card leaves the lobby's controls free (a click on a covered button fails). The host
    # starts: the walkthrough gives way to the board, and one clock shows, the time left.
    page.get_by_role("button", name="Start duel").click()
    page.wait_for_selector("#room-body[data-state=playing] [data-domino-board]", timeout=15_000)
    expect(tour).to_be_hidden()
    expect(page.locator(".race-clock")).to_have_count(1)
    expect(page.locator(".race-clock")).to_have_attribute("data-label", "Time left")
    expect(page.locator("#dm-clock")).to_have_count(0)
    page.context.close()

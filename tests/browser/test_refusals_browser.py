"""Issue 27, defect 1, in real Chromium: every refusal of an htmx form or button lands in the
game's message line, never as the page.

The cause of Solo Run's whole-page "Pick a cell on the board first.": with DEBUG on (what
`make run` serves) `{% htmx_script %}` added django-htmx's debug script, which replaces the
document with any 400/403/404 answer, and those answers are our refusals. The tests that
saw nothing ran with DEBUG off; these run with it on, as a player of `make run` does."""

import re

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from games.cardoku import solo as cardoku_solo
from games.domino import solo as domino_solo
from games.domino.models import DominoGame
from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser


@pytest.fixture
def debug_page(browser, live_server, player, settings, request):
    """A page of a DEBUG server (as `make run` serves), at 1280 px with a mouse or 375 px with touch."""
    settings.DEBUG = True
    width, touch = getattr(request, "param", (1280, False))
    page = new_page(browser, live_server.url, player, width=width, height=800)
    if touch:
        cookies = page.context.cookies()
        page.context.close()
        context = browser.new_context(
            viewport={"width": width, "height": 800},
            base_url=live_server.url,
            bypass_csp=True,
            has_touch=True,
            is_mobile=True,
        )
        context.add_cookies(cookies)
        page = context.new_page()
        page.set_default_timeout(10_000)
    yield page
    page.context.close()


def still_the_game(page):
    expect(page.locator(".site-header")).to_have_count(1)
    expect(page.locator("[data-board], [data-domino-board], #ck-board").first).to_be_visible()


def digit(page, number, touch):
    button = page.locator(f'.pad [data-digit="{number}"]')
    button.tap() if touch else button.click()


@pytest.mark.parametrize("debug_page", [(1280, False), (375, True)], indirect=True, ids=["desktop", "phone"])
def test_solo_digit_before_a_cell_is_refused_in_the_message_line(debug_page, bank_puzzle):
    page = debug_page
    touch = page.viewport_size["width"] < 800
    assert django_settings.DEBUG
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    message = page.locator("#game-message")

    # A fresh page: no cell picked yet.
    digit(page, 5, touch)
    expect(message).to_have_text("Pick a cell on the board first.")
    expect(message).to_have_class("message is-error")
    still_the_game(page)

    # After a pause and resume, still no cell picked.
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").click()
    page.wait_for_selector("[data-board]:not(.locked)")
    digit(page, 3, touch)
    expect(message).to_have_text("Pick a cell on the board first.")
    still_the_game(page)


def test_a_whole_page_answer_lands_in_the_message_line(debug_page, player, bank_puzzle):
    """What the server cannot answer with the message line itself (a CSRF page when the
    token cookie is gone, a 404 page for a game deleted meanwhile, a server error, no
    connection) still shows in the game's own message line, and the game stays."""
    page = debug_page
    game = cardoku_solo.start_game(player, {"layout": "default"})
    page.goto(f"/cardoku/{game.pk}/")
    message = page.locator("#ck-message")

    # The CSRF token cookie is gone (cleared site data, an expired session): Django's 403 page.
    cookies = [c for c in page.context.cookies() if c["name"] != django_settings.CSRF_COOKIE_NAME]
    page.context.clear_cookies()
    page.context.add_cookies(cookies)
    page.get_by_role("button", name="Discard").click()
    expect(message).to_contain_text("Reload the page and try again")
    expect(message).to_have_class(re.compile(r"\bis-error\b"))
    still_the_game(page)

    # A server error, then no connection at all.
    page.goto(f"/cardoku/{game.pk}/")
    page.route("**/act/", lambda route: route.fulfill(status=500, body="boom"))
    page.get_by_role("button", name="Discard").click()
    expect(message).to_have_text("That did not work. Reload the page and try again.")
    page.unroute("**/act/")
    page.route("**/act/", lambda route: route.abort())
    page.get_by_role("button", name="Discard").click()
    expect(message).to_have_text("No connection: nothing was sent. Try again.")
    still_the_game(page)

    # Domino: the game is gone when the push arrives (a 404 page).
    page.unroute("**/act/")
    domino = domino_solo.start_game(player, "easy")
    page.goto(f"/domino/{domino.pk}/")
    DominoGame.objects.filter(pk=domino.pk).delete()
    page.locator("[data-marker]").first.click()
    expect(page.locator("#dm-message")).to_have_text("That game is not yours.")  # the refusal sent to #flash
    expect(page.locator("#dm-message")).to_have_class(re.compile(r"\bis-error\b"))
    still_the_game(page)

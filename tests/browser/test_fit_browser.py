"""Issue 43 in real Chromium, the layout half: the phone header (8), a Solo Run's finish on a
phone (9), the room's toasts (12), the phone's standings (13), How to Play's quick screens (19)
and the phone's and the desktop's sizes (20)."""

import pytest
from playwright.sync_api import expect

from games.sudoku.play import Enter
from rooms import actions as A
from rooms.models import Seat
from tests.browser.conftest import act, new_page
from tests.browser.puzzle import EMPTY, SOLUTION
from tests.browser.race_setup import running_room
from tests.browser.test_solo_browser import start_easy

pytestmark = pytest.mark.browser


def enter(page, index):
    page.locator(f'[data-cell="{index}"]').click()
    page.keyboard.press(SOLUTION[index])
    page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()


# --- 8: the phone header -----------------------------------------------------------------------

# Each link of the header's nav that is not wholly on screen, or cut inside its own box.
CUT_LINKS = """() => Array.from(document.querySelectorAll(".site-header nav a")).filter((a) => {
  const r = a.getBoundingClientRect();
  return r.width === 0 || r.left < 0 || r.right > innerWidth + 0.5 || a.scrollWidth > a.clientWidth + 1;
}).map((a) => a.textContent.trim())"""


@pytest.mark.parametrize(("language", "sign_in"), [("en", "Sign in"), ("nl", "Inloggen")])
def test_the_phone_header_shows_every_link_and_sign_in(browser, live_server, player, language, sign_in):
    page = new_page(browser, live_server.url, player, width=375, height=812, touch=True)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/")
    link = page.locator(".site-header").get_by_role("link", name=sign_in, exact=True)
    expect(link).to_be_visible()
    assert link.get_attribute("href") == "/accounts/login/"
    assert page.locator(".site-header nav a").count() >= 5
    assert page.evaluate(CUT_LINKS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing widens the page
    page.context.close()


# --- 9: a Solo Run's finish on a phone ---------------------------------------------------------


def test_a_solo_finish_on_a_phone_brings_the_result_into_view(browser, live_server, player, bank_puzzle):
    # A phone's screen less its browser bars: the page is taller than it, scrolled down to the pad.
    page = new_page(browser, live_server.url, player, width=375, height=600, touch=True)
    start_easy(page)
    for index in EMPTY[:-1]:
        enter(page, index)
    last = EMPTY[-1]
    page.locator(f'[data-cell="{last}"]').click()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    page.locator(f'.pad [data-digit="{SOLUTION[last]}"]').click()
    heading = page.get_by_role("heading", name="Solved!")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport(ratio=1)
    expect(page.locator(".finish-time strong")).to_be_in_viewport(ratio=1)
    page.context.close()


# --- 12: the room's toasts ---------------------------------------------------------------------

# Every toast's overlap with the room's code, its clock and the board, the page scrolled to the
# top, the middle and the bottom (each placement settled: two frames after the scroll).
TOASTS_OVER = """async () => {
  const keep = { code: ".room-head h1", clock: ".race-clock", board: "#game [data-board]" };
  const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const max = document.documentElement.scrollHeight - innerHeight;
  const found = [];
  for (const y of [0, Math.round(max / 2), max]) {
    window.scrollTo(0, y);
    await frames();
    for (const toast of document.querySelectorAll("#toasts .toast")) {
      const t = toast.getBoundingClientRect();
      for (const [what, selector] of Object.entries(keep)) {
        const r = document.querySelector(selector).getBoundingClientRect();
        const across = Math.min(t.right, r.right) > Math.max(t.left, r.left);
        if (across && Math.min(t.bottom, r.bottom) > Math.max(t.top, r.top))
          found.push(`${toast.textContent.slice(0, 20)} over the ${what} at scrollY ${y}`);
      }
    }
  }
  return found;
}"""


def test_race_toasts_cover_neither_the_code_the_clock_nor_the_board(browser, daphne_server):
    room, (ada, grace) = running_room("showdown")
    for index in EMPTY[:-1]:  # Grace is one cell from the finish
        act(room.code, grace, A.GameMove(Enter(index, int(SOLUTION[index]))))
    sizes = [(375, 812), (375, 667), (1280, 800), (1920, 1080)]
    pages = [new_page(browser, daphne_server, ada, width=w, height=h) for w, h in sizes]
    grace_page = new_page(browser, daphne_server, grace)
    for page in [*pages, grace_page]:
        page.goto(f"/r/{room.code}/")
        page.wait_for_selector("#room-body[data-state=playing] #standings")
    # Grace finishes: Ada hears it, and that she is the last one racing, two toasts at once.
    grace_page.locator(f'[data-cell="{EMPTY[-1]}"]').click()
    grace_page.keyboard.press(SOLUTION[EMPTY[-1]])
    for page, size in zip(pages, sizes, strict=True):
        expect(page.locator("#toasts .toast")).to_have_count(2)
        assert page.evaluate(TOASTS_OVER) == [], size
        page.context.close()


# --- 13: the phone's standings -----------------------------------------------------------------

# Each standings text cut inside its box, or reaching out of its card.
CUT_STANDINGS = """() => Array.from(document.querySelectorAll(".standing :is(.name, .line)")).filter((el) => {
  const card = el.closest(".standing").getBoundingClientRect(), r = el.getBoundingClientRect();
  return el.scrollWidth > el.clientWidth + 1 || r.right > card.right + 0.5;
}).map((el) => el.textContent)"""


@pytest.mark.parametrize("language", ["en", "nl"])
def test_phone_standings_wrap_their_text_instead_of_cutting_it(browser, daphne_server, language):
    room, players = running_room("showdown", names=("Ada Lovelace", "Grace Hopper", "Edsger Dijkstra"))
    for seat in Seat.objects.filter(room=room):  # long lines as a race makes them
        seat.score, seat.mistakes, seat.state = 1085, 12, {**seat.state, "hints": 3}
        seat.save()
    Seat.objects.filter(room=room, player=players[1]).update(status="finished", finish_seconds=754)
    page = new_page(browser, daphne_server, players[0], width=375, height=812, touch=True)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/r/{room.code}/")
    page.wait_for_selector("#room-body[data-state=playing] .standing")
    expect(page.locator(".standing")).to_have_count(3)
    assert page.evaluate(CUT_STANDINGS) == []
    page.context.close()


# --- 19: How to Play's quick screens -----------------------------------------------------------

# Each demo pad key whose digit and count overlap (the digit's own box: its text node's).
PAD_OVERLAPS = """() => Array.from(document.querySelectorAll(".guide-shot .pad .digit")).filter((key) => {
  const range = document.createRange();
  range.selectNodeContents(key.firstChild);
  const d = range.getBoundingClientRect(), c = key.querySelector("small").getBoundingClientRect();
  const across = Math.min(d.right, c.right) > Math.max(d.left, c.left);
  return c.height === 0 || (across && Math.min(d.bottom, c.bottom) > Math.max(d.top, c.top));
}).map((key) => key.dataset.digit)"""


@pytest.mark.parametrize("width", [375, 1280])
def test_how_to_play_has_a_quick_screen_per_way_to_play_and_a_clear_demo_pad(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/how-to-play/")
    assert page.locator(".guide-shot .pad .digit").count() == 9
    assert page.evaluate(PAD_OVERLAPS) == []
    guides = page.locator(".guide h2").all_inner_texts()
    for name in ("Solo Run", "Daily puzzles", "Showdown", "Tournament", "Cardoku", "Sudoku Domino"):
        assert any(title.startswith(name) for title in guides), (name, guides)
    for anchor in ("#play-daily", "#play-tournament"):  # the guides' own list leads to them
        expect(page.locator(f'.guide-nav a[href="{anchor}"]')).to_have_count(1)


# --- 20: phone ergonomics and the desktop's board ----------------------------------------------


def test_a_phone_hides_the_keyboard_tip_and_gives_every_key_a_fingers_room(browser, live_server, player, bank_puzzle):
    # A phone-sized window without touch emulation too (some phones report a fine pointer).
    for touch in (False, True):
        page = new_page(browser, live_server.url, player, width=375, height=812, touch=touch)
        start_easy(page)
        expect(page.locator(".keyboard-tip")).to_be_hidden()
        expect(page.locator(".sound-toggle")).to_be_visible()  # sound.js shows it
        small = page.evaluate("""() => Array.from(document.querySelectorAll(
            ".pad .digit, .tools .tool:not([hidden]), .language-switch button, .sound-toggle"), (el) => {
              const r = el.getBoundingClientRect();
              return [el.textContent.trim() || el.className, Math.round(r.width), Math.round(r.height)];
            }).filter(([, w, h]) => w < 44 || h < 44)""")
        assert small == [], (touch, small)
        page.context.close()


# The board's size and whether it stands wholly on screen, the page unscrolled.
BOARD = """() => { window.scrollTo(0, 0); const r = document.querySelector("[data-board]").getBoundingClientRect();
  return [Math.round(r.width), r.right, r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          document.documentElement.scrollWidth <= innerWidth]; }"""


def test_the_desktop_board_grows_with_the_window(browser, daphne_server):
    room, (ada, _grace) = running_room("showdown")
    for width, height, at_least in ((1280, 800, 520), (1920, 1080, 780), (2560, 1440, 1100)):
        page = new_page(browser, daphne_server, ada, width=width, height=height)
        page.goto(f"/r/{room.code}/")
        page.wait_for_selector("#room-body[data-state=playing] #game [data-board]")
        size, right, on_screen, no_sideways = page.evaluate(BOARD)
        assert at_least <= size <= 72 * 16 and on_screen and no_sideways, (width, size, on_screen, no_sideways)
        # The pad and the standings keep their places beside it.
        # (Read in one call: the socket's first full state may redraw the room between two.)
        pad, standings = page.evaluate("""() => ['.pad', '#standings'].map((s) => {
            const r = document.querySelector(s).getBoundingClientRect();
            return {x: r.x, width: r.width};
        })""")
        assert pad["x"] > right and standings["x"] > pad["x"] + pad["width"], (right, pad, standings)
        page.context.close()

"""Issue 44 in real Chromium, the display half: the colour-blind-safe palette keeps right and
wrong, finished and out, and the players' colours apart under simulated protanopia and
deuteranopia (CDP's Emulation.setEmulatedVisionDeficiency, measured on screenshots), with a
shape cue beside each colour; the digit pad's order and side; the settings page applying a
change at once; nothing wider than the window at 200% text size or zoom."""

import math
import struct
import zlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.engines import race
from games.sudoku import play
from games.sudoku.play import Enter
from players.models import Profile
from rooms import actions as A
from rooms.api import create_room
from rooms.models import Room, Seat
from tests.browser.conftest import act, new_page, wait_for_first_push
from tests.browser.puzzle import EMPTY, SOLUTION
from tests.browser.race_setup import running_room
from tests.browser.test_solo_browser import start_easy

pytestmark = pytest.mark.browser
DEFICIENCIES = ("protanopia", "deuteranopia")
DISTINCT = 20  # CIE76 colour difference: two states this far apart are told apart at a glance


# --- colours from screenshots -------------------------------------------------------------------


def pixels(png: bytes) -> list[tuple[int, int, int]]:
    """The RGB pixels of a Playwright screenshot (8-bit RGB or RGBA, not interlaced)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    raw, stride, rows, previous = zlib.decompress(data), width * channels, [], bytearray(width * channels)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return [(row[x * channels], row[x * channels + 1], row[x * channels + 2]) for row in rows for x in range(width)]


def lab(rgb) -> tuple[float, float, float]:
    def linear(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(one, other) -> float:
    return math.dist(lab(one), lab(other))


def ink(png: bytes) -> tuple[int, int, int]:
    """The colour an element draws on its background: the mean of its pixels farthest from its
    commonest colour (the digit, the ring, the text)."""
    found = pixels(png)
    background = max(set(found), key=found.count)
    far = max(math.dist(p, background) for p in found)
    strong = [p for p in found if math.dist(p, background) >= 0.6 * far]
    red, green, blue = (round(sum(p[i] for p in strong) / len(strong)) for i in range(3))
    return red, green, blue


def fill(png: bytes) -> tuple[int, int, int]:
    """The commonest colour of a screenshot (a stripe, a background)."""
    found = pixels(png)
    return max(set(found), key=found.count)


def emulate(page, deficiency: str) -> None:
    page.context.new_cdp_session(page).send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def set_display(profile, **settings) -> None:
    Profile.objects.filter(pk=profile.pk).update(display=settings)


# --- the board ---------------------------------------------------------------------------------


def test_right_and_wrong_on_the_board_stay_apart_with_colour_blindness(browser, live_server, player, bank_puzzle):
    page = new_page(browser, live_server.url, player, width=1280, height=900)
    start_easy(page)
    right_cell, wrong_cell = EMPTY[0], EMPTY[1]  # row 1, columns 3 and 4
    page.locator(f'[data-cell="{right_cell}"]').click()
    page.keyboard.press(SOLUTION[right_cell])
    page.locator(f'[data-cell="{right_cell}"][data-value="{SOLUTION[right_cell]}"]').wait_for()
    page.locator(f'[data-cell="{wrong_cell}"]').click()
    page.keyboard.press(str(int(SOLUTION[wrong_cell]) % 9 + 1))
    wrong = page.locator(f'[data-cell="{wrong_cell}"].wrong')
    wrong.wait_for()
    expect(wrong.locator(".value")).to_have_count(0)  # the refused digit has faded: the cell stays marked
    page.locator(f'[data-cell="{EMPTY[-1]}"]').click()  # the selection far from both (row 9)
    right = page.locator(f'[data-cell="{right_cell}"]')

    # Not colour alone: the wrong cell has its cross; a refused digit is struck through.
    assert "\u00d7" in wrong.evaluate("(cell) => getComputedStyle(cell, '::before').content")
    struck = wrong.evaluate("""(cell) => { const s = document.createElement("span"); s.className = "value";
      cell.append(s); const line = getComputedStyle(s).textDecorationLine; s.remove(); return line; }""")
    assert "line-through" in struck
    assert right.evaluate("(cell) => getComputedStyle(cell, '::before').content") in ("none", "normal")

    emulate(page, "achromatopsia")  # the emulation reaches the screenshots: no colour left at all
    grey = ink(right.screenshot())
    assert max(grey) - min(grey) <= 12, grey
    for deficiency in DEFICIENCIES:
        emulate(page, deficiency)
        apart = distance(ink(right.screenshot()), ink(wrong.screenshot()))
        assert apart > DISTINCT, (deficiency, apart)
        backgrounds = distance(fill(right.screenshot()), fill(wrong.screenshot()))
        assert backgrounds > 3, (deficiency, backgrounds)  # the wrong cell's tint shows too
    page.context.close()


# --- the standings -----------------------------------------------------------------------------


def stripe(page, row) -> bytes:
    """The coloured strip at the left edge of a standings row (the player's colour)."""
    box = row.bounding_box()
    return page.screenshot(clip={"x": box["x"] + 0.5, "y": box["y"] + 12, "width": 2, "height": box["height"] - 24})


def test_finished_out_and_each_players_colour_stay_apart_in_the_standings(browser, daphne_server):
    room, (ada, grace, linus) = running_room("showdown", names=("Ada", "Grace", "Linus"))
    Seat.objects.filter(room=room, player=grace).update(status="finished", finish_seconds=754)
    Seat.objects.filter(room=room, player=linus).update(status="eliminated")
    page = new_page(browser, daphne_server, ada, width=1280, height=900)
    page.goto(f"/r/{room.code}/")
    page.wait_for_selector("#room-body[data-state=playing] .standing")
    wait_for_first_push(page)  # the socket's full state redraws the standings: screenshots after it
    expect(page.locator(".standing")).to_have_count(3)
    finished = page.locator(".standing.status-finished .state")
    out = page.locator(".standing.status-eliminated .state")
    assert finished.inner_text().startswith("finished") and out.inner_text() == "eliminated"  # said in words too
    rows = [page.locator(".standing", has_text=name) for name in ("Ada", "Grace", "Linus")]
    for deficiency in DEFICIENCIES:
        emulate(page, deficiency)
        apart = distance(ink(shot(finished)), ink(shot(out)))
        assert apart > DISTINCT, (deficiency, "finished/out", apart)
        colours = [fill(stripe(page, row)) for row in rows]
        for i in range(3):
            for j in range(i + 1, 3):
                apart = distance(colours[i], colours[j])
                assert apart > DISTINCT, (deficiency, "players", i, j, colours, apart)
    page.context.close()


# --- the Tournament review ---------------------------------------------------------------------


def finished_tournament():
    """A finished Tournament room: Ada all right, Linus out with one wrong cell."""
    import datetime as dt

    from django.utils import timezone

    from games.models import Puzzle
    from tests.browser.puzzle import CLUES, PUZZLE

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada, linus = (Profile.objects.create(display_name=n) for n in ("Ada", "Linus"))
    room = create_room(ada, "showdown", "easy")
    act(room.code, linus, A.Join())
    act(room.code, ada, A.SetRules("easy", race.TOURNAMENT))
    for p in (ada, linus):
        act(room.code, p, A.SetReady(True))
    start = timezone.now() - dt.timedelta(seconds=60)
    act(room.code, ada, A.Start(), now=start)

    def at(seconds):
        return start + dt.timedelta(seconds=5 + seconds)

    for cell in EMPTY[1:]:
        act(room.code, linus, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at(1))
    wrongs = [d for d in range(1, 10) if d != int(SOLUTION[EMPTY[0]])][:3]
    for n, digit in enumerate(wrongs):  # a changed, still wrong, grid each time: out after three
        act(room.code, linus, A.GameMove(Enter(EMPTY[0], digit)), now=at(2 + n))
        act(room.code, linus, A.GameMove(play.Submit()), now=at(2 + n))
    for cell in EMPTY:
        act(room.code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at(10))
    act(room.code, ada, A.GameMove(play.Submit()), now=at(11))
    room = Room.objects.get(pk=room.pk)
    assert room.state == "finished", room.state
    return room, ada


def shot(locator) -> bytes:
    """The element's screenshot, taken again if a socket redraw detached it meanwhile."""
    for attempt in range(3):
        try:
            return locator.screenshot()
        except PlaywrightError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def test_the_tournament_review_keeps_right_wrong_and_mine_apart(browser, daphne_server):
    room, ada = finished_tournament()
    page = new_page(browser, daphne_server, ada, width=1280, height=900)
    page.goto(f"/r/{room.code}/")
    page.wait_for_selector("#review .review-board")
    mine, theirs = page.locator(".review-board.is-me"), page.locator(".review-board:not(.is-me)")
    wrong = theirs.locator(".review-grid .wrong").first
    right = theirs.locator(".review-grid .right").first
    # Read in one call: the socket's first full state may redraw the review between two calls,
    # and a detached element's computed style is empty.
    styles = page.evaluate("""() => {
        const q = (s) => getComputedStyle(document.querySelector(s));
        const theirs = ".review-board:not(.is-me)";
        return {
            wrong: q(theirs + " .review-grid .wrong").textDecorationLine,
            right: q(theirs + " .review-grid .right").textDecorationLine,
            rule: getComputedStyle(document.querySelector(".review-board.is-me h3"), "::after").borderBottomWidth,
            mine: q(".review-board.is-me h3").fontWeight,
            theirs: q(theirs + " h3").fontWeight,
        };
    }""")
    assert styles["wrong"] == "line-through" and styles["right"] == "none"  # the shape cue
    # Mine: a heavier heading with a rule after it, not only a colour.
    assert styles["rule"] == "3px"
    assert int(styles["mine"]) > int(styles["theirs"])
    for deficiency in DEFICIENCIES:
        emulate(page, deficiency)
        apart = distance(ink(shot(right)), ink(shot(wrong)))
        assert apart > DISTINCT, (deficiency, "right/wrong", apart)
        apart = distance(ink(shot(mine.locator("h3"))), ink(shot(theirs.locator("h3"))))
        assert apart > DISTINCT / 2, (deficiency, "mine/theirs", apart)
    page.context.close()


# --- the digit pad's order and side --------------------------------------------------------------


def boxes(page, selector):
    return page.eval_on_selector_all(selector, "(els) => els.map((el) => el.getBoundingClientRect().toJSON())")


def digit_box(page, digit):
    return page.locator(f'.pad [data-digit="{digit}"]').bounding_box()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_pad_follows_its_order_and_side(browser, live_server, player, bank_puzzle, width):
    page = new_page(browser, live_server.url, player, width=width, height=900, touch=width == 375)
    start_easy(page)
    url = page.url

    def load(**settings):
        set_display(player, **settings)
        page.goto(url)
        page.wait_for_selector("[data-board] .cell")
        return {d: digit_box(page, d) for d in "123456789"}

    phone = load()  # the default: 1 2 3 on top, the pad right of the board (or of the tools)
    assert phone["1"]["y"] < phone["4"]["y"] < phone["7"]["y"]
    assert phone["1"]["x"] < phone["2"]["x"] < phone["3"]["x"]
    board = page.locator("[data-board]").bounding_box()
    pad = page.locator(".pad").bounding_box()
    tools = page.locator(".tools").bounding_box()
    if width == 1280:
        assert pad["x"] >= board["x"] + board["width"]
    else:
        assert pad["x"] > tools["x"]

    numpad = load(pad="numpad")
    assert numpad["7"]["y"] < numpad["4"]["y"] < numpad["1"]["y"]
    assert numpad["7"]["x"] < numpad["8"]["x"] < numpad["9"]["x"]
    assert numpad["9"]["y"] == numpad["7"]["y"] and numpad["3"]["y"] == numpad["1"]["y"]

    row = load(pad="row")
    assert len({round(b["y"]) for b in row.values()}) == 1  # one row, 1 to 9 from the left
    assert [row[d]["x"] for d in "123456789"] == sorted(row[d]["x"] for d in "123456789")
    board = page.locator("[data-board]").bounding_box()
    assert row["1"]["y"] >= board["y"] + board["height"]  # under the board
    assert min(b["width"] for b in row.values()) >= 30  # still a finger's target

    load(pad_side="left")
    board = page.locator("[data-board]").bounding_box()
    pad = page.locator(".pad").bounding_box()
    tools = page.locator(".tools").bounding_box()
    if width == 1280:
        assert pad["x"] + pad["width"] <= board["x"]  # the pad's column left of the board
    else:
        assert pad["x"] + pad["width"] <= tools["x"]  # the pad left of the tools, under the thumb
    # The pad still works where it is.
    page.locator(f'[data-cell="{EMPTY[0]}"]').click()
    page.locator(f'.pad [data-digit="{SOLUTION[EMPTY[0]]}"]').click()
    page.locator(f'[data-cell="{EMPTY[0]}"][data-value="{SOLUTION[EMPTY[0]]}"]').wait_for()
    page.context.close()


def test_the_settings_page_applies_a_change_at_once_and_saves_it(browser, live_server, player):
    page = new_page(browser, live_server.url, player, width=1280, height=900)
    page.goto("/settings/")
    html = page.locator("html")
    expect(html).to_have_attribute("data-pad", "phone")
    page.get_by_role("group", name="Digit pad").get_by_label("Keyboard numpad: 7 8 9 on top").check()
    expect(html).to_have_attribute("data-pad", "numpad")
    page.get_by_text("Saved.").wait_for()
    page.get_by_role("group", name="Contrast").get_by_label("High contrast").check()
    expect(html).to_have_attribute("data-contrast", "high")
    page.get_by_text("Saved.").wait_for()
    player.refresh_from_db()
    assert player.display == {"pad": "numpad", "contrast": "high"}
    # The preview's pad follows at once.
    assert digit_box(page, "7")["y"] < digit_box(page, "1")["y"]
    page.reload()
    expect(html).to_have_attribute("data-contrast", "high")
    page.context.close()


# --- the board's size on a large screen ----------------------------------------------------------


@pytest.mark.parametrize("pad", ["phone", "row"])
def test_a_large_window_grows_the_board_with_the_pad_on_screen(browser, live_server, player, bank_puzzle, pad):
    set_display(player, pad=pad)
    page = new_page(browser, live_server.url, player, width=1280, height=800)
    start_easy(page)
    sizes = {}
    for width, height in ((1280, 800), (1920, 1080), (2560, 1440)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        board, digits = page.locator("[data-board]").bounding_box(), page.locator(".pad").bounding_box()
        sizes[width] = board["width"]
        bottoms = board["y"] + board["height"], digits["y"] + digits["height"]
        assert max(bottoms) <= height, (width, board, digits)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    # 560 px at 1280x800 (as before; 512 with the pad's row under it), then with the height.
    assert sizes[1280] >= (500 if pad == "row" else 550), sizes
    assert sizes[1920] >= sizes[1280] + 200 and sizes[2560] >= sizes[1920] + 250, sizes
    page.context.close()


# --- 200% text and zoom ------------------------------------------------------------------------

# What sticks out of the window, but for what scrolls inside a box of its own (a wide data table).
OVERFLOW = """() => {
  const wide = document.documentElement.scrollWidth > innerWidth + 1;
  const scrolls = (el) => {
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(box).overflowX)) return true;
    }
    return false;
  };
  const out = Array.from(document.querySelectorAll("main *")).filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1) && !el.closest(".visually-hidden") && !scrolls(el);
  }).slice(0, 5).map((el) => el.className || el.tagName);
  return { wide, out };
}"""


@pytest.mark.parametrize(("width", "text", "pad"), [(1280, 32, "phone"), (640, 16, "row"), (375, 32, "phone")])
def test_nothing_overflows_at_200_percent_text_or_zoom(browser, live_server, player, bank_puzzle, width, text, pad):
    """Text at 200% (the browser's default font size doubled, CDP Page.setFontSizes) and a 200%
    zoom of a 1280 px window (640 CSS px at device scale 2): the page never scrolls sideways."""
    set_display(player, pad=pad)
    page = new_page(browser, live_server.url, player, width=width, height=900)
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": text, "fixed": text}})
    start_easy(page)
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") == text
    board = page.locator("[data-board]").bounding_box()
    assert board["width"] >= min(width - 40, 16 * text) * 0.9  # the board grew with the text
    for path in (page.url, "/settings/", "/how-to-play/"):
        page.goto(path)
        assert page.evaluate(OVERFLOW) == {"wide": False, "out": []}, path
    page.context.close()

"""Screen-reader mode (issue 44) in real Chromium, read through the accessibility tree: ARIA
snapshots of each state of a cell, the live region's words for each reading key and for a wrong
digit, a whole Solo Run played by keyboard alone finding its cells by their accessible names,
a 3-player race by keyboard with the rivals' news queued, and the reads of Cardoku and Domino.
The mode is switched on as the player's setting does it: data-reader="on" on <html>."""

import itertools
import random
import re

import pytest
from playwright.sync_api import expect

from games.models import SoloRun
from tests.browser.conftest import new_page
from tests.browser.race_setup import running_room
from tests.browser.reader import fill_in, focused, focused_cell, heard, reader_page, tab_onto_board, walk
from tests.browser.test_keyboard_showdown import tab_to
from tests.conftest import PUZZLE, SOLUTION

pytestmark = pytest.mark.browser


def test_solo_run_states_reads_and_a_whole_run_by_keyboard_alone(page, full_bank_puzzle):
    reader_page(page).goto("/")
    tab_to(page, page.locator("form.level-picker").first.get_by_role("button", name="Easy"))
    page.keyboard.press("Enter")
    page.get_by_role("grid", name="Sudoku board").wait_for()
    assert SoloRun.objects.get().puzzle.solution == SOLUTION  # the test's known puzzle
    tab_onto_board(page)

    # Each state of a cell, as a screen reader gets it.
    grid = page.get_by_role("grid", name="Sudoku board")
    expect(grid.get_by_role("gridcell").first).to_match_aria_snapshot('- gridcell "Row 1, column 1, 5, given": "5"')
    walk(page, 1, 3)
    assert focused(page) == '- gridcell "Row 1, column 3, empty" [selected]'
    page.keyboard.press("n")  # notes
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 1, column 3, notes 1 2" [selected]')
    page.keyboard.press("Backspace")
    page.keyboard.press("n")
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 1, column 3, empty" [selected]')
    # Wrong: a 5 where row 1 has a given 5. The cell stays empty, the reason is read.
    page.keyboard.press("5")
    heard(page).to_have_text("5 is already in row 1.")
    expect(page.get_by_role("status").filter(has_text="not right")).to_have_text("5 is not right at row 1, column 3.")
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 1, column 3, empty" [selected]')
    # A wrong digit with no duplicate in sight: only the server's word (no solution is guessed).
    page.keyboard.press("1")
    expect(page.locator("[data-mistakes]")).to_contain_text("2")
    heard(page).to_have_text("5 is already in row 1.")  # nothing new: the message line says it
    # Entered.
    page.keyboard.press(SOLUTION[2])
    expect(page.locator(":focus")).to_match_aria_snapshot(f'- gridcell "Row 1, column 3, {SOLUTION[2]}" [selected]')

    # The reading keys.
    page.keyboard.press("Shift+R")
    heard(page).to_have_text("Row 1: 5, 3, 4, empty, 7, empty, empty, empty, empty")
    page.keyboard.press("Shift+C")
    heard(page).to_have_text("Column 3: 4, empty, 8, empty, empty, empty, empty, empty, empty")
    page.keyboard.press("Shift+B")
    heard(page).to_have_text("Box 1: 5, 3, 4, 6, empty, empty, empty, 9, 8")
    page.keyboard.press("Shift+N")
    fours = 9 - PUZZLE.count("4") - 1
    heard(page).to_have_text(f"4: {fours} left")
    assert page.locator("[data-notes-toggle]").get_attribute("aria-pressed") == "false"  # Shift+N is no Notes
    page.keyboard.press("Shift+T")
    heard(page).to_have_text(re.compile(r"^Time 0:\d\d$"))
    page.keyboard.press("Shift+I")
    heard(page).to_have_text(re.compile(r"Score: \d+, Mistakes: 2, Hints: 0 / \d"))
    page.keyboard.press("Shift+L")
    heard(page).to_have_text(f"{SOLUTION[2]} is correct.")
    page.keyboard.press("Shift+S")
    heard(page).to_have_text("Nothing to read here.")
    # "?" opens the keys' help and takes focus; Escape closes it and focus comes back.
    page.keyboard.press("?")
    help_region = page.get_by_role("region", name="Screen-reader mode keys")
    expect(help_region).to_be_focused()
    expect(help_region).to_contain_text("read the row of the cell you are on")
    page.keyboard.press("Escape")
    expect(help_region).to_be_hidden()
    assert focused_cell(page) == (1, 3)

    # The rest of the run by keyboard alone: the empty cells from the grid's snapshot, the
    # arrows to reach each, its digit typed, its new name awaited.
    fill_in(page)
    expect(page.get_by_role("heading", name="Solved!")).to_be_visible()
    run = SoloRun.objects.get()
    assert run.state == "finished" and run.mistakes == 2


def test_a_three_player_race_by_keyboard_with_rivals_news_queued(browser, daphne_server):
    room, (ada, grace, linus) = running_room(names=("Ada", "Grace", "Linus"))
    pages = {}
    for profile in (ada, grace, linus):
        p = new_page(browser, daphne_server, profile)
        reader_page(p).goto(f"/r/{room.code}")
        p.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=15_000)
        pages[profile.display_name] = p
    a = pages["Ada"]
    expect(a.locator("#toasts")).to_have_attribute("aria-live", "off")  # the queue speaks instead
    # Every announcement of rivals' news, with when it came.
    a.evaluate(
        """() => { window.__news = []; new MutationObserver(() => {
             const text = document.getElementById('reader-events').textContent;
             if (text) window.__news.push({t: performance.now(), text});
           }).observe(document.getElementById('reader-events'), {childList: true, subtree: true}); }"""
    )

    tab_onto_board(a)
    a.keyboard.press("Shift+S")
    blanks = room.puzzle.givens.count("0")  # tests/browser/puzzle.py's 20 (race_setup's bank)
    row = rf"Place \d, (?:Ada|Grace|Linus), .*?, (?:Ada|Grace|Linus): \d+ of {blanks} cells filled"
    heard(a).to_have_text(re.compile(rf"^{row}\. {row}\. {row}$"))
    a.keyboard.press("Shift+T")
    heard(a).to_have_text(re.compile(r"^Time \d+:\d\d$"))

    # Linus forfeits by keyboard; Grace finishes by keyboard (a given race's keys alone).
    lin = pages["Linus"]
    tab_to(lin, lin.get_by_text("Forfeit and leave"))
    lin.keyboard.press("Enter")
    tab_to(lin, lin.get_by_role("button", name="Yes, forfeit"))
    lin.keyboard.press("Enter")
    g = pages["Grace"]
    tab_onto_board(g)
    fill_in(g)
    g.get_by_text("You finished").first.wait_for()

    # Ada hears both, in turn, a few seconds apart (or joined in one announcement).
    a.wait_for_function(
        "() => { const all = window.__news.map(n => n.text).join(' | ');"
        " return all.includes('Linus left') && /Grace finished/.test(all); }",
        timeout=20_000,
    )
    news = a.evaluate("window.__news")
    times = [n["t"] for n in news]
    assert all(later - earlier >= 3900 for earlier, later in itertools.pairwise(times)), news
    # Ada plays her own board and ends the race.
    fill_in(a)
    a.wait_for_selector("#room-body[data-state=finished]", timeout=15_000)
    for p in pages.values():
        p.context.close()


def test_cardoku_reads_its_board_and_hand(page, player):
    from games.cardoku import solo

    game = solo.start_game(player, {"layout": "default"}, rng=random.Random(0))
    reader_page(page).goto(f"/cardoku/{game.pk}/")
    state = game.engine_state()
    square = page.get_by_role("gridcell", name="Row 9, column 9, 9 of spades")
    square.focus()
    page.keyboard.press("Shift+R")
    heard(page).to_have_text(re.compile(r"^Row 9: .*9 of spades"))
    assert "empty" in page.locator("#reader-live").inner_text()
    page.keyboard.press("Shift+C")
    heard(page).to_have_text(re.compile(r"^Column 9: .*9 of spades"))
    page.keyboard.press("Shift+H")
    heard(page).to_have_text(re.compile(rf"{re.escape(state.current_card.name)}.*cards? left"))
    page.keyboard.press("Shift+R")  # not Cardoku's R (placement restrictions)
    expect(page.get_by_role("switch", name="Show placement restrictions")).to_have_attribute("aria-checked", "false")


def test_domino_reads_its_board_hand_and_clock(page, player, bank_puzzle):
    reader_page(page).goto("/")
    page.get_by_role("button", name="Domino Easy").click()
    page.get_by_role("grid", name="Sudoku Domino board").wait_for()
    page.wait_for_load_state()  # the page's scripts (the keys) have run
    marker = page.locator("[data-marker]").first
    line, edge = marker.get_attribute("data-line"), marker.get_attribute("data-edge")
    marker.focus()
    page.keyboard.press("Shift+R")  # the marker's line: a row from the left or right, else a column
    unit = "Row" if edge in ("left", "right") else "Column"
    heard(page).to_have_text(re.compile(rf"^{unit} {line}: (\d|empty|unreachable)"))
    page.keyboard.press("Shift+H")
    heard(page).to_have_text(re.compile(r"Current stone: \d"))
    page.keyboard.press("Shift+T")
    heard(page).to_have_text(re.compile(r"^Time left,? \d+:\d\d"))
    page.keyboard.press("Shift+I")
    heard(page).to_have_text(re.compile(r"Score"))

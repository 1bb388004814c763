"""Screen-reader mode (issue 44) for the daily, Cardoku and Domino, in real Chromium: each played
to its end by keyboard alone, every piece found through the accessibility tree only (the cells'
and buttons' accessible names, Cardoku's possible moves by their accessible description), with
ARIA snapshots of the states a screen reader meets on the way. The mode is on as the player's
setting puts it: data-reader="on" on <html> (tests/browser/reader.py)."""

import re

import pytest
from playwright.sync_api import expect

from games.cardoku.models import CardokuGame
from games.domino import solo as domino_solo
from games.domino.models import DominoGame
from games.engines import cardoku as ck
from games.models import Puzzle, SoloRun
from tests.browser.puzzle import SOLUTION
from tests.browser.reader import (
    cells,
    close_walkthrough,
    described_cells,
    fill_in,
    focused,
    focused_cell,
    heard,
    reader_page,
    tab_onto_board,
    walk,
)
from tests.browser.test_daily_browser import ZONE, signed_in_page, todays_dailies  # noqa: F401 (a fixture)
from tests.browser.test_keyboard_showdown import tab_to

pytestmark = pytest.mark.browser


# --- the daily ---------------------------------------------------------------------------------


def test_a_daily_by_keyboard_alone(browser, live_server, todays_dailies, settings):  # noqa: F811
    # The fair-play review's pace checks are off: keys pressed at a machine's pace would be held
    # (tests/browser/test_daily_browser.py says why, and tests/daily/test_review.py keeps them).
    settings.DAILY_FAST_GAP_MS, settings.DAILY_FLOOR_SECONDS_PER_CELL, settings.DAILY_RUN_GAP_MS = 0, {}, 0
    page, ada = signed_in_page(browser, live_server, "ada")
    reader_page(page).goto("/daily/")
    page.wait_for_selector(f'[data-zone="{ZONE}"]')  # the page came back in the browser's own zone
    easy = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name="Easy"))
    expect(easy).to_match_aria_snapshot(
        '- heading "Easy" [level=2]\n- paragraph: Not started\n- button "Play"\n- link "Leaderboard"'
    )
    tab_to(page, easy.get_by_role("button", name="Play"))
    page.keyboard.press("Enter")
    grid = page.get_by_role("grid", name="Sudoku board")
    grid.wait_for()
    run = SoloRun.objects.get(player=ada)
    assert run.daily.date == todays_dailies and run.daily.level == "easy" and not run.practice
    expect(page.get_by_role("link", name=re.compile(r"^Daily \d+ \w+\.?$"))).to_be_visible()

    tab_onto_board(page)
    expect(grid.get_by_role("gridcell").first).to_match_aria_snapshot('- gridcell "Row 1, column 1, 5, given": "5"')
    walk(page, 1, 3)
    assert focused(page) == '- gridcell "Row 1, column 3, empty" [selected]'
    page.keyboard.press("5")  # a 5 where row 1 has one: refused, and why is read
    heard(page).to_have_text("5 is already in row 1.")
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 1, column 3, empty" [selected]')
    page.keyboard.press(SOLUTION[2])
    expect(page.locator(":focus")).to_match_aria_snapshot(f'- gridcell "Row 1, column 3, {SOLUTION[2]}" [selected]')
    page.keyboard.press("Shift+I")
    heard(page).to_have_text(re.compile(r"Mistakes: 1"))
    page.keyboard.press("Shift+T")
    heard(page).to_have_text(re.compile(r"^Time \d+:\d\d$"))

    fill_in(page)
    expect(page.get_by_role("heading", name="Solved!")).to_be_visible()
    finish = page.get_by_role("region", name="Finished")
    expect(finish).to_match_aria_snapshot(
        """
        - heading "Solved!" [level=2]
        - term: Mistakes
        - definition: "1"
        - paragraph:
          - text: "Your place on the board:"
          - strong: "#1"
        - paragraph:
          - strong: "1"
          - text: /^day in a row/
        - paragraph: /^Sudoku Showdown daily .* streak 1$/
        - button "Copy"
        - link "Leaderboard"
        - link "Today's dailies"
        - link "Watch the replay"
        """
    )
    run.refresh_from_db()
    assert run.state == "finished" and run.mistakes == 1 and run.review == ""
    page.context.close()


# --- Cardoku -----------------------------------------------------------------------------------


def test_a_whole_cardoku_game_by_keyboard_alone(page, player):
    code = ck.deal_code(7)
    reader_page(page).goto("/cardoku/")
    tab_to(page, page.get_by_label(re.compile("Replay a deal")))
    page.keyboard.type(code)
    tab_to(page, page.get_by_role("button", name="Shuffle & Deal"))
    page.keyboard.press("Enter")
    board = page.get_by_role("grid", name="Cardoku board")
    board.wait_for()
    close_walkthrough(page)
    game = CardokuGame.objects.get(player=player)
    assert game.deal_code == code

    # The start: the staircase of spades, an empty board above it, the card to play.
    said = {(r, c): what for r, c, what in cells(page, "Cardoku board")}
    assert said[7, 1] == "Ace of spades" and said[8, 5] == "5 of spades" and said[9, 9] == "9 of spades"
    assert [what for what in said.values()].count("empty") == 81 - 9
    first = game.engine_state().current_card.name
    expect(page.locator("#ck-current")).to_match_aria_snapshot(f'- text: Your card\n- img "{first}"')

    # Possible moves on (M), then back onto the board: the squares that take the card say so.
    tab_onto_board(page)
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 5, column 5, empty"')
    page.keyboard.press("m")
    switch = page.get_by_role("switch", name="Show possible moves")
    expect(switch).to_be_focused()
    expect(switch).to_match_aria_snapshot('- switch "Show possible moves" [checked]')
    tab_onto_board(page, "Shift+Tab")
    expect(page.locator(":focus")).to_have_accessible_description("")  # (5, 5) touches no card

    # A square that does not take the card: refused, the reason read again with Shift+L.
    page.keyboard.press("Enter")
    expect(page.locator("#ck-message")).to_have_class(re.compile("is-error"))
    page.keyboard.press("Shift+L")
    heard(page).to_have_text(re.compile(r"next to|no card", re.I))
    expect(page.locator(":focus")).to_match_aria_snapshot('- gridcell "Row 5, column 5, empty"')

    placed = discarded = 0
    finished = page.get_by_role("heading", name="The deck is done!")
    while not finished.count():
        step = int(page.locator("#ck-game").get_attribute("data-step"))
        card = page.locator("#ck-current").get_by_role("img").get_attribute("aria-label")
        possible = [square for square, description in described_cells(page).items() if description == "possible move"]
        if possible:
            here = focused_cell(page)
            row, col = min(possible, key=lambda sq: abs(sq[0] - here[0]) + abs(sq[1] - here[1]))
            walk(page, row, col)
            page.keyboard.press("Enter")
            if not placed:  # the first placement, as the square now says it
                expect(page.locator(":focus")).to_match_aria_snapshot(f'- gridcell "Row {row}, column {col}, {card}"')
            placed += 1
        else:  # no square takes it: discarded (D)
            page.keyboard.press("d")
            discarded += 1
        expect(page.locator("#ck-game")).to_have_attribute("data-step", str(step + 1))
        if not finished.count():
            tab_onto_board(page)  # (a discard's answer gives focus back to the board, or Tab does)
        assert placed + discarded <= 45

    game = CardokuGame.objects.get(pk=game.pk)
    assert game.status == "finished" and placed + discarded == 45 and game.engine_state().discards == discarded
    expect(page.get_by_role("region", name="The deck is done!")).to_match_aria_snapshot(
        f'- heading "The deck is done!" [level=2]\n- paragraph:\n  - strong: "{game.score}"\n  - text: points'
    )
    squares = cells(page, "Cardoku board")
    assert sum(what != "empty" for _r, _c, what in squares) == 9 + placed


# --- Domino ------------------------------------------------------------------------------------

MARKER = re.compile(
    r'button "Push from the (top|bottom|left|right) into (?:row|column) (\d) \(stops at row (\d), column (\d)\)"'
)
TOWARDS = {"top": "ArrowUp", "bottom": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def markers(page) -> dict[tuple[str, int], tuple[int, int]]:
    """The entry markers on offer and where each push stops, from their accessible names."""
    snapshot = page.get_by_role("region", name="Sudoku Domino game").aria_snapshot()
    return {(edge, int(line)): (int(r), int(c)) for edge, line, r, c in MARKER.findall(snapshot)}


def walk_marker(page, edge: str, line: int):
    """Arrow keys from the focused marker to (edge, line): along its edge towards the line, or
    towards the other edge (round the corner, or across), reading where focus is from its name."""
    for _ in range(40):
        here = MARKER.search(focused(page))
        assert here, f"focus is not on a marker: {focused(page)}"
        at = (here[1], int(here[2]))
        if at == (edge, line):
            return
        if at[0] == edge:
            forward = "ArrowRight" if edge in ("top", "bottom") else "ArrowDown"
            backward = "ArrowLeft" if edge in ("top", "bottom") else "ArrowUp"
            page.keyboard.press(forward if line > at[1] else backward)
        else:
            page.keyboard.press(TOWARDS[edge])
        assert focused(page) != here.string, "the arrow did not move"
    raise AssertionError(f"never reached the {edge} marker of line {line}")


def current_stone(page) -> int:
    name = page.get_by_role("img", name=re.compile(r"^Current stone: \d$")).get_attribute("aria-label")
    return int(name.rsplit(" ", 1)[1])


def test_a_whole_domino_game_by_keyboard_alone(page, player, monkeypatch):
    # A near-finished Easy puzzle: only row 1 and column 9 are empty (17 stones), so the pushes
    # come from the top edge and the right one.
    blank = {i for i in range(81) if i < 9 or i % 9 == 8}
    givens = "".join("0" if i in blank else SOLUTION[i] for i in range(81))
    Puzzle.objects.create(level="easy", givens=givens, solution=SOLUTION, clues=81 - len(blank), seed=1)
    monkeypatch.setattr(domino_solo.secrets, "randbits", lambda bits: 11)  # a known stone order
    reader_page(page).goto("/")
    tab_to(page, page.get_by_role("button", name="Domino Easy"))
    page.keyboard.press("Enter")
    page.get_by_role("grid", name="Sudoku Domino board").wait_for()
    close_walkthrough(page)  # its end starts the clock: the game is drawn again
    expect(page.get_by_text("Starts after the walkthrough or your first move")).to_have_count(0)

    said = {(r, c): what for r, c, what in cells(page, "Sudoku Domino board")}
    assert said[1, 1] == "empty" and said[2, 9] == "empty" and said[2, 1] == SOLUTION[9]
    assert list(said.values()).count("empty") == 17
    stone = current_stone(page)
    expect(page.get_by_role("group", name="Stones")).to_match_aria_snapshot(
        f"""
        - 'img "Current stone: {stone}"'
        - 'img /Next stone: \\d/'
        - paragraph:
          - strong: "17"
          - text: stones to place
        """
    )
    offered = markers(page)
    assert {edge for edge, _line in offered} == {"top", "right"} and len(offered) == 16

    # Onto the markers by Tab; Shift+H reads the hand.
    for _ in range(80):
        if MARKER.search(focused(page)):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Shift+H")
    heard(page).to_have_text(re.compile(rf"Current stone: {stone}"))

    # A wrong push: a life lost, the reason said, the cell still empty, the same stone in hand.
    (edge, line), (row, col) = next(
        (entry, cell) for entry, cell in offered.items() if SOLUTION[(cell[0] - 1) * 9 + cell[1] - 1] != str(stone)
    )
    walk_marker(page, edge, line)
    page.keyboard.press("Enter")
    expect(page.get_by_role("img", name="2 of 3 lives left")).to_be_visible()
    expect(page.locator("[data-message]")).to_contain_text(f"Wrong: the {stone}")
    expect(page.get_by_role("gridcell", name=f"Row {row}, column {col}, empty", exact=True)).to_be_visible()
    assert current_stone(page) == stone
    assert MARKER.search(focused(page)), "focus stays on the markers"

    # A gold joker by keyboard (J): focus goes to the empty cells' buttons, Enter places it.
    page.keyboard.press("j")
    pick = re.compile(r'button "Place the gold joker on row (\d), column (\d)"')
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset.pick !== undefined")
    joker = pick.search(focused(page))
    assert joker, focused(page)
    page.keyboard.press("Enter")
    expect(
        page.get_by_role("gridcell", name=f"Row {joker[1]}, column {joker[2]}, gold joker", exact=True)
    ).to_be_visible()
    expect(page.get_by_role("button", name="Gold joker, 1 left")).to_be_visible()

    # Every other stone pushed where it belongs (the player knows the solution).
    pushes = 0
    ended = page.get_by_role("region", name="Game over")
    while not ended.count():
        version = page.locator("#game").get_attribute("data-version")
        stone = current_stone(page)
        if not MARKER.search(focused(page)):
            page.keyboard.press("ArrowRight")  # an arrow from the page brings focus back to a marker
        right = [
            (entry, cell)
            for entry, cell in markers(page).items()
            if SOLUTION[(cell[0] - 1) * 9 + cell[1] - 1] == str(stone)
        ]
        assert right, f"no marker takes the {stone}"
        (edge, line), (row, col) = right[0]
        walk_marker(page, edge, line)
        page.keyboard.press("Enter")
        expect(page.locator("#game")).not_to_have_attribute("data-version", version)
        expect(page.get_by_role("gridcell", name=f"Row {row}, column {col}, {stone}", exact=True)).to_be_visible()
        pushes += 1
        assert pushes <= 16

    expect(ended).to_match_aria_snapshot('- heading "Grid complete!" [level=2]\n- paragraph: /The grid is full/')
    game = DominoGame.objects.get(player=player)
    state = game.engine_state()
    assert game.status == "finished" and state.lives == 2 and state.jokers_left["gold"] == 1
    expect(ended.locator("[data-final-score]")).to_have_text(str(state.score))
    assert "empty" not in {what for _r, _c, what in cells(page, "Sudoku Domino board")}

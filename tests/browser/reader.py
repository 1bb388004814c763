"""Screen-reader mode in tests (issue 44): the mode switched on as the player's setting does it,
and a keyboard player's moves found only through the accessibility tree: the focused element's
ARIA snapshot, the cells' accessible names (and, for Cardoku's possible moves, descriptions).
Shared by tests/browser/test_reader_browser.py and test_reader_games_browser.py."""

import re

from playwright.sync_api import expect

from tests.browser.puzzle import SOLUTION

# Set before the page's deferred scripts run (readyState "interactive" comes first).
READER_ON = "document.addEventListener('readystatechange', () => { document.documentElement.dataset.reader = 'on'; });"
CELL_NAME = re.compile(r'gridcell "Row (\d), column (\d), ([^"]+)"')


def reader_page(page):
    page.add_init_script(READER_ON)
    return page


def focused(page) -> str:
    """The focused element as the accessibility tree has it ("- gridcell "Row 1, column 3, empty" [selected]")."""
    here = page.locator(":focus")
    return here.aria_snapshot() if here.count() else ""


def focused_cell(page) -> tuple[int, int]:
    found = CELL_NAME.search(focused(page))
    assert found, f"focus is not on a cell: {focused(page)}"
    return int(found[1]), int(found[2])


def cells(page, grid: str) -> list[tuple[int, int, str]]:
    """Every cell of the named grid, (row, column, what it holds), from its ARIA snapshot alone."""
    snapshot = page.get_by_role("grid", name=grid).aria_snapshot()
    return [(int(r), int(c), said) for r, c, said in CELL_NAME.findall(snapshot)]


def empty_cells(page, grid: str = "Sudoku board") -> list[tuple[int, int]]:
    """The empty cells, in reading order."""
    return [(r, c) for r, c, said in cells(page, grid) if said == "empty"]


def tab_onto_board(page, key: str = "Tab"):
    """Tab (or Shift+Tab) until a board's cell has focus."""
    for _ in range(60):
        if "gridcell" in focused(page):
            return
        page.keyboard.press(key)
    raise AssertionError("Tab never reached the board")


def walk(page, row: int, col: int):
    """Arrow keys from the focused cell to (row, col), reading where focus is from its name."""
    r, c = focused_cell(page)
    for _ in range(abs(row - r)):
        page.keyboard.press("ArrowDown" if row > r else "ArrowUp")
    for _ in range(abs(col - c)):
        page.keyboard.press("ArrowRight" if col > c else "ArrowLeft")
    assert focused_cell(page) == (row, col)


def fill_in(page, grid: str = "Sudoku board"):
    """The rest of a Sudoku by keyboard alone: the empty cells from the grid's snapshot, the
    arrows to reach each, its digit typed (the player knows the solution), its new name awaited."""
    board = page.get_by_role("grid", name=grid)
    for row, col in empty_cells(page, grid):
        walk(page, row, col)
        digit = SOLUTION[(row - 1) * 9 + col - 1]
        page.keyboard.press(digit)
        expect(board.get_by_role("gridcell", name=f"Row {row}, column {col}, {digit}", exact=True)).to_be_visible()


def heard(page):
    """What the reader's own live region says."""
    return expect(page.locator("#reader-live"))


def close_walkthrough(page):
    """A first game's walkthrough takes focus on its Next button: Escape closes it, as a keyboard
    player would."""
    tour = page.get_by_role("dialog")
    expect(tour).to_be_visible()
    expect(tour.get_by_role("button", name="Next")).to_be_focused()
    page.keyboard.press("Escape")
    expect(tour).to_be_hidden()


def described_cells(page) -> dict[tuple[int, int], str]:
    """Each gridcell's accessible description, as Chromium's accessibility tree gives it to a
    screen reader (CDP Accessibility.getFullAXTree; ARIA snapshots leave descriptions out)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    out = {}
    for node in nodes:
        if node.get("role", {}).get("value") != "gridcell":
            continue
        found = re.match(r"Row (\d), column (\d)", node.get("name", {}).get("value", ""))
        if found:
            out[int(found[1]), int(found[2])] = node.get("description", {}).get("value", "")
    return out

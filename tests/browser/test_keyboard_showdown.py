"""A whole showdown played by keyboard alone: two players on a real daphne process create
and join the room, get ready, start, fill the board with arrows and digit keys and take
notes with N. Every action is a key press (Tab to reach a control, Enter, typing); the
page is only read to know where focus and the selection are. The solution comes from the
database, never from the page."""

from playwright.sync_api import expect

from games.models import Puzzle
from players.models import Profile
from rooms.models import Room, Seat
from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION

FOCUSED = "document.activeElement"


def tab_to(page, locator, limit=80):
    """Press Tab until ``locator`` has keyboard focus (as a keyboard user would)."""
    for _ in range(limit):
        if locator.count() and locator.evaluate(f"el => el === {FOCUSED}"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {locator}")


def focused_cell(page) -> int:
    return page.evaluate(f"{FOCUSED}.dataset.cell === undefined ? -1 : Number({FOCUSED}.dataset.cell)")


def walk_to(page, target: int):
    """Arrow keys from the focused cell to ``target``."""
    here = focused_cell(page)
    assert here >= 0, "keyboard focus is not on the board"
    dr, dc = target // 9 - here // 9, target % 9 - here % 9
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    assert focused_cell(page) == target


def enter_board(page):
    """Tab into the board: it is one tab stop (roving tabindex), focus lands on a cell."""
    tab_to(page, page.locator("[data-board] [data-cell][tabindex='0']"))
    assert focused_cell(page) >= 0


def solve(page, solution: str, empty: list[int], ends_showdown: bool = False):
    for index in empty:
        walk_to(page, index)
        page.keyboard.press(solution[index])
        expect(page.locator(f'[data-cell="{index}"]')).to_have_attribute("data-value", solution[index])
        if ends_showdown and index == empty[-1]:
            # The last entry ends the race: the final standings replace the board and
            # keyboard focus moves on to their next step.
            expect(page.get_by_role("button", name="Play again")).to_be_focused()
            return
        # Focus comes back to the board after the live update, on the same cell.
        page.wait_for_function(f"{FOCUSED}.dataset.cell === '{index}'")


def test_a_showdown_played_by_keyboard_alone(browser, daphne_server):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    host = new_page(browser, daphne_server, ada)
    guest = new_page(browser, daphne_server, grace)

    # The host creates an Easy room from the home page.
    host.goto("/")
    tab_to(host, host.get_by_label("Difficulty"))
    host.keyboard.type("Ea")  # a closed select picks the option typed
    expect(host.get_by_label("Difficulty")).to_have_value("easy")
    tab_to(host, host.get_by_role("button", name="Create room"))
    host.keyboard.press("Enter")
    host.wait_for_selector("#room-body[data-state=lobby]")
    room = Room.objects.get()

    # The guest types the code into the join form.
    guest.goto("/")
    tab_to(guest, guest.get_by_label("Room code"))
    guest.keyboard.type(room.code.lower())
    guest.keyboard.press("Enter")
    guest.wait_for_selector("#room-body[data-state=lobby]")
    host.locator(".players .name", has_text="Grace").wait_for()

    # The guest gets ready (Space), the host starts (Enter, below): Start is the host's ready.
    tab_to(guest, guest.get_by_role("button", name="I'm ready"))
    guest.keyboard.press("Space")
    host.locator(".player.is-ready", has_text="Grace").wait_for()
    host.locator(".player.is-ready", has_text="Ada").wait_for()
    tab_to(host, host.get_by_role("button", name="Start showdown"))
    host.keyboard.press("Enter")
    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=15_000)

    stored = Room.objects.select_related("puzzle").get().puzzle
    solution = stored.solution  # from the database, never the page
    empty = [i for i, ch in enumerate(stored.givens) if ch == "0"]

    # Ada: a note first (N toggles notes mode, digits become pencil marks), then N back.
    enter_board(host)
    note_cell = empty[0]
    walk_to(host, note_cell)
    host.keyboard.press("n")
    expect(host.locator("[data-notes-toggle]")).to_have_attribute("aria-pressed", "true")
    host.keyboard.press("3")
    host.keyboard.press("7")
    expect(
        host.get_by_role("gridcell", name=f"Row {note_cell // 9 + 1}, column {note_cell % 9 + 1}, notes 3 7")
    ).to_be_visible()
    host.wait_for_function(f"{FOCUSED}.dataset.cell === '{note_cell}'")
    expect(host.locator("[data-notes-toggle]")).to_have_attribute("aria-pressed", "true")
    host.keyboard.press("n")
    expect(host.locator("[data-notes-toggle]")).to_have_attribute("aria-pressed", "false")

    # A wrong digit by keyboard: refused, counted, focus stays on the board.
    wrong = str(int(solution[note_cell]) % 9 + 1)
    host.keyboard.press(wrong)
    expect(host.locator("[data-mistakes]")).to_contain_text("1")
    expect(host.locator("#room-message")).to_have_class("message is-error")
    host.wait_for_function(f"{FOCUSED}.dataset.cell === '{note_cell}'")

    # Ada fills the whole board with arrows and digits; Grace follows.
    solve(host, solution, empty)
    host.locator(".standing", has_text="Ada").get_by_text("finished").wait_for()
    enter_board(guest)
    solve(guest, solution, empty, ends_showdown=True)

    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=finished]", timeout=15_000)
    assert Seat.objects.get(player=ada).place == 1 and Seat.objects.get(player=grace).place == 2
    assert Seat.objects.get(player=ada).mistakes == 1 and Seat.objects.get(player=grace).mistakes == 0
    for page in (host, guest):
        page.context.close()

"""Issue 27, input as in the best apps, in real Chromium: the digit-first mode (pick a digit,
then tap cells; a switch remembered in this browser) in Solo Run and in the race, notes
cleared with Backspace and changes to notes undone, and a buzz on a wrong entry where the
Vibration API exists, under the game screen's one sound and vibration switch."""

import time

import pytest
from playwright.sync_api import expect

from games.engines import race
from games.models import SoloRun
from rooms.models import Seat
from tests.browser.conftest import new_page
from tests.browser.puzzle import EMPTY, SOLUTION
from tests.browser.race_setup import running_room
from tests.browser.test_solo_browser import start_easy

pytestmark = pytest.mark.browser


def cell(page, index):
    return page.locator(f'[data-board] [data-cell="{index}"]')


def pad(page, digit):
    return page.locator(f'.pad [data-digit="{digit}"]')


def same_digit_cells(digit):
    """Empty cells whose answer is `digit`."""
    return [i for i in EMPTY if SOLUTION[i] == str(digit)]


def test_digit_first_in_solo_run(browser, live_server, player, bank_puzzle):
    page = new_page(browser, live_server.url, player, width=375, height=812)
    start_easy(page)
    digit = SOLUTION[EMPTY[0]]
    first, second = same_digit_cells(digit)[:2]
    switch = page.get_by_role("button", name="Digit first")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")

    # A tap on the pad picks the digit: nothing is sent, its cells light up.
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    pad(page, digit).click()
    expect(pad(page, digit)).to_have_attribute("aria-pressed", "true")
    assert SoloRun.objects.get().moves == 0
    expect(page.locator("#game-message")).not_to_have_class("message is-error")
    # Each tap on an empty cell then enters it.
    cell(page, first).click()
    expect(cell(page, first)).to_have_attribute("data-value", digit)
    # The page's requests are seen in the order it sends them: anything the pad tap had sent
    # would be seen before this first cell's move, now answered.
    assert len(sent) == 1, sent
    assert SoloRun.objects.get().moves == 1
    cell(page, second).click()
    expect(cell(page, second)).to_have_attribute("data-value", digit)
    expect(pad(page, digit)).to_have_attribute("aria-pressed", "true")  # still picked after the answers
    run = SoloRun.objects.get()
    assert run.moves == 2 and run.get_board().cells[first] == int(digit) and run.mistakes == 0

    # In notes mode the tap notes the picked digit instead.
    page.get_by_role("button", name="Notes").click()
    target = next(i for i in EMPTY if SOLUTION[i] != digit)
    cell(page, target).click()
    expect(cell(page, target)).to_have_attribute(
        "aria-label", f"Row {target // 9 + 1}, column {target % 9 + 1}, notes {digit}"
    )

    # Remembered in this browser.
    page.reload()
    expect(page.get_by_role("button", name="Digit first")).to_have_attribute("aria-pressed", "true")
    # Off again: a digit goes straight into the selected cell.
    page.get_by_role("button", name="Digit first").click()
    third = next(i for i in EMPTY if i not in (first, second, target))
    cell(page, third).click()
    pad(page, SOLUTION[third]).click()
    expect(cell(page, third)).to_have_attribute("data-value", SOLUTION[third])
    expect(pad(page, SOLUTION[third])).not_to_have_attribute("aria-pressed", "true")
    page.context.close()


def test_digit_first_in_the_race(browser, daphne_server):
    room, (ada, _grace) = running_room()
    page = new_page(browser, daphne_server, ada, width=1280, height=800)
    page.goto(f"/r/{room.code}/")
    page.wait_for_selector("#room-body[data-state=playing] #game")
    page.evaluate("localStorage.setItem('digit-first', '1')")  # switched on in an earlier game
    page.reload()
    page.wait_for_selector("#room-body[data-state=playing] #game")
    expect(page.get_by_role("button", name="Digit first")).to_have_attribute("aria-pressed", "true")
    digit = SOLUTION[EMPTY[0]]
    first, second = same_digit_cells(digit)[:2]
    pad(page, digit).click()
    cell(page, first).click()
    expect(cell(page, first)).to_have_attribute("data-value", digit)
    cell(page, second).click()
    expect(cell(page, second)).to_have_attribute("data-value", digit)
    deadline = time.monotonic() + 10  # the live room writes its rows behind the answers
    while True:
        board = race.Board.from_dict(Seat.objects.get(room=room, player=ada).state)
        if board.cells[second] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert board.cells[first] == board.cells[second] == int(digit) and board.mistakes == 0
    page.context.close()


def test_backspace_clears_a_cells_notes_and_undo_brings_them_back(page, bank_puzzle):
    start_easy(page)
    target = EMPTY[1]
    label = f"Row {target // 9 + 1}, column {target % 9 + 1}"
    cell(page, target).click()
    page.keyboard.press("n")
    for typed in ("1", "1 5", "1 5 8"):
        page.keyboard.press(typed[-1])
        expect(cell(page, target)).to_have_attribute("aria-label", f"{label}, notes {typed}")
    page.keyboard.press("Backspace")
    expect(cell(page, target)).to_have_attribute("aria-label", f"{label}, empty")
    assert SoloRun.objects.get().get_board().notes_at(target) == []
    # Undo note (the button, then U) takes back each change to notes, newest first.
    undo = page.get_by_role("button", name="Undo note")
    undo.click()
    expect(cell(page, target)).to_have_attribute("aria-label", f"{label}, notes 1 5 8")
    page.keyboard.press("u")
    expect(cell(page, target)).to_have_attribute("aria-label", f"{label}, notes 1 5")
    assert SoloRun.objects.get().get_board().notes_at(target) == [1, 5]
    page.keyboard.press("Delete")
    expect(cell(page, target)).to_have_attribute("aria-label", f"{label}, empty")
    # Nothing on the board itself was touched: no entry, no mistake.
    run = SoloRun.objects.get()
    assert (run.mistakes, run.score, run.get_board().cells[target]) == (0, 0, 0)


VIBRATE_SPY = "window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"


def test_a_wrong_entry_buzzes_unless_sound_and_vibration_are_off(page, bank_puzzle):
    page.add_init_script(VIBRATE_SPY)  # a phone's Vibration API (Android)
    start_easy(page)
    switch = page.locator("#game").get_by_role("button", name="Mute sound and vibration")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "false")
    wrong = [str(int(SOLUTION[i]) % 9 + 1) for i in EMPTY]

    cell(page, EMPTY[0]).click()
    page.keyboard.press(wrong[0])
    page.wait_for_selector("#game-message.is-error")
    expect(page.locator("html")).to_have_attribute("data-last-sound", "wrong")
    assert page.evaluate("window.__buzz.length") == 1

    # One switch, in the game screen: off silences the buzz too, and the footer's agrees.
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(page.locator("footer [data-sound-toggle]")).to_have_attribute("aria-pressed", "true")
    cell(page, EMPTY[1]).click()
    page.keyboard.press(wrong[1])
    expect(page.locator("#game-message")).to_contain_text(wrong[1])
    # sound.js marks the wrong cell data-cued as it cues it (or, muted, does not): after that.
    expect(cell(page, EMPTY[1])).to_have_attribute("data-cued", "")
    assert page.evaluate("window.__buzz.length") == 1
    # Still off after the game is redrawn (pause and resume swap the whole game).
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#game").get_by_role("button", name="Mute sound and vibration")).to_have_attribute(
        "aria-pressed", "true"
    )

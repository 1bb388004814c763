"""Solo Run in real Chromium: play to the finish, pause, hints and the Assisted board."""

import datetime as dt

from games.models import SoloRun
from tests.browser.puzzle import EMPTY, SOLUTION


def start_easy(page):
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")


def test_solo_run_played_to_the_finish_by_keyboard_and_pad(page, bank_puzzle):
    start_easy(page)
    run = SoloRun.objects.get()
    solution = run.puzzle.solution  # the test reads the solution from the database, never the page
    assert solution not in page.content()
    # A wrong digit first: refused with a message, removed from the board.
    cell = page.get_by_role("gridcell", name="Row 1, column 3")
    cell.click()
    wrong = str(int(solution[2]) % 9 + 1)
    page.get_by_role("button", name=wrong, exact=True).click()
    page.wait_for_selector("#game-message.is-error")
    assert "not right" in page.locator("#game-message").inner_text()
    for i, index in enumerate(EMPTY):
        r, c = index // 9 + 1, index % 9 + 1
        page.get_by_role("gridcell", name=f"Row {r}, column {c}, empty", exact=True).click()
        if i % 2:
            page.keyboard.press(solution[index])
        else:
            page.get_by_role("button", name=solution[index], exact=True).click()
        page.get_by_role("gridcell", name=f"Row {r}, column {c}, {solution[index]}").wait_for()
    page.get_by_role("heading", name="Solved!").wait_for()
    run.refresh_from_db()
    assert run.state == "finished" and run.mistakes == 1 and not run.assisted
    finish = page.get_by_role("region", name="Finished").inner_text()
    assert str(run.score) in finish and "Classic" in finish


def test_pause_removes_the_board_from_the_page(page, bank_puzzle):
    start_easy(page)
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").wait_for()
    assert page.locator("[role=grid]").count() == 0 and page.locator("[data-cell]").count() == 0
    page.reload()
    assert page.locator("[role=grid]").count() == 0
    page.get_by_role("button", name="Resume").click()
    page.wait_for_selector("[data-board]")


def test_hint_makes_the_run_assisted_and_the_finish_lands_on_the_assisted_board(page, bank_puzzle):
    start_easy(page)
    page.get_by_role("gridcell", name="Row 1, column 3").click()
    page.get_by_role("button", name="Hint").click()
    page.get_by_role("gridcell", name=f"Row 1, column 3, {SOLUTION[2]}").wait_for()
    assert "assisted" in page.locator(".badges").inner_text().lower()
    for index in EMPTY[1:]:
        page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}, empty", exact=True).click()
        page.keyboard.press(SOLUTION[index])
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
    page.get_by_role("heading", name="Solved!").wait_for()
    page.goto("/leaderboards/")
    assisted = page.locator('[data-board-kind="easy-assisted"]').inner_text()
    classic = page.locator('[data-board-kind="easy-classic"]').inner_text()
    assert "Completed 1" in assisted.replace("\n", " ") and "No classic finishes yet" in classic


# Records, in the page, every overlay digit the board script draws (pending or refused).
RECORDER = """() => {
  window.__overlays = [];
  const bad = () => {  // the stylesheet's "bad" colour, resolved
    const probe = document.createElement("span");
    probe.style.color = "var(--bad)";
    document.body.appendChild(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  };
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.matches("span[aria-hidden=true].value") && n.parentElement && n.parentElement.matches("[data-cell]")) {
        window.__overlays.push({cell: n.parentElement.dataset.cell, text: n.textContent,
                                pending: "pending" in n.dataset,
                                red: getComputedStyle(n).color === bad(),
                                moving: n.parentElement.getAnimations().some(
                                  (a) => a instanceof CSSAnimation && a.effect.getTiming().duration > 50),
                                label: n.parentElement.getAttribute("aria-label")});
      }
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def test_a_typed_digit_is_pending_at_once_and_a_wrong_one_shakes_red_before_it_goes(page, bank_puzzle):
    start_easy(page)
    page.evaluate(RECORDER)
    wrong = str(int(SOLUTION[2]) % 9 + 1)
    page.get_by_role("gridcell", name="Row 1, column 3").click()
    page.keyboard.press(wrong)
    page.wait_for_selector("#game-message.is-error")
    page.locator("#cell-2[data-wrong-shown]").wait_for()
    pending, refused = page.evaluate("window.__overlays")[:2]
    assert pending == {
        "cell": "2",
        "text": wrong,
        "pending": True,
        "red": False,
        "moving": False,
        "label": "Row 1, column 3, empty",
    }
    assert refused["cell"] == "2" and refused["text"] == wrong and not refused["pending"]
    assert refused["red"] and refused["moving"]  # red, and the cell shakes
    assert refused["label"] == "Row 1, column 3, empty"  # never named with the refused digit
    page.locator("#cell-2 span[aria-hidden=true].value").wait_for(state="detached")  # then it goes
    assert page.locator("#cell-2").get_attribute("data-value") == ""
    page.keyboard.press(SOLUTION[2])
    page.get_by_role("gridcell", name=f"Row 1, column 3, {SOLUTION[2]}").wait_for()
    assert page.evaluate("window.__overlays")[2] == {
        "cell": "2",
        "text": SOLUTION[2],
        "pending": True,
        "red": False,
        "moving": False,
        "label": "Row 1, column 3, empty",
    }
    assert page.locator("#cell-2 [data-pending]").count() == 0  # the answer replaced it


def test_reduced_motion_shows_a_wrong_digit_without_the_shake(page, bank_puzzle):
    page.emulate_media(reduced_motion="reduce")
    start_easy(page)
    page.evaluate(RECORDER)
    page.get_by_role("gridcell", name="Row 1, column 3").click()
    page.keyboard.press(str(int(SOLUTION[2]) % 9 + 1))
    page.locator("#cell-2[data-wrong-shown]").wait_for()
    refused = page.evaluate("window.__overlays")[1]
    assert refused["red"] and not refused["moving"]


def test_tap_to_swapped_cell_latency(page, full_bank_puzzle):
    """Measures (does not time-box) tap -> the server's cell in the page, over a whole
    Easy puzzle played with the pad (the unit tests' 51 blanks, not tests/browser/puzzle.py's
    fewer: a sample of 50 taps). Issue 15's target is p95 <= 50 ms on a quiet
    machine; the bound asserted here is generous, the figure is printed for the README."""
    from tests import conftest as full
    from tests.browser import latency

    start_easy(page)
    latency.install(page)
    waits = []
    for index in full.EMPTY[:-1]:  # the last entry answers with the whole finish screen
        page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}, empty", exact=True).click()
        tap = latency.clicks(page)
        page.get_by_role("button", name=SOLUTION[index], exact=True).click()
        page.locator(f'#cell-{index}:not(.pending)[data-value="{SOLUTION[index]}"]').wait_for()
        waits.append((tap, f"cell-{index}"))
    _, p95 = latency.summary("Solo Run", latency.delays(page, waits))
    assert p95 < 500


def test_a_closed_tab_is_not_a_pause_and_the_run_plays_on(page, bank_puzzle, browser, live_server, player):
    # Issue 43, item 4: leaving the page paused the run, and a return more than 10 s later
    # (another tab, another device) made it Assisted. Leaving is no pause now: the clock
    # runs on and the next page carries on, Classic still.
    from tests.browser.conftest import new_page

    start_easy(page)
    run = SoloRun.objects.get()
    index = EMPTY[0]
    enter(page, index)
    page.reload()  # the same tab comes back: the run carries on
    page.wait_for_selector("#game[data-state=playing] [data-board]")
    page.close(run_before_unload=True)
    again = new_page(browser, live_server.url, player)
    again.goto(f"/solo/{run.pk}/")
    again.wait_for_selector("#game[data-state=playing] [data-board]")  # the board, no Resume
    assert again.get_by_role("button", name="Resume").count() == 0
    run.refresh_from_db()
    assert run.state == "playing" and run.active_since is not None and not run.assisted


def test_the_pause_rule_is_said_the_moment_it_applies(page, bank_puzzle):
    # Issue 43, item 4: the paused screen says when the pause makes the run Assisted (a live
    # region), and the resume and the finish say it too. The page's clock is Playwright's,
    # moved on; the server's pause is moved back the same 11 s.
    from django.db.models import F

    page.clock.install()
    start_easy(page)
    run = SoloRun.objects.get()
    index = EMPTY[0]
    enter(page, index)
    page.get_by_role("button", name="Pause").click()
    rule = page.get_by_role("status").filter(has_text="Resume within 10 seconds to keep this run Classic.")
    rule.wait_for()
    assert "classic" in page.locator("#run-kind").get_attribute("class")
    SoloRun.objects.filter(pk=run.pk).update(
        paused_at=F("paused_at") - dt.timedelta(seconds=11), revision=F("revision") + 1
    )
    page.clock.fast_forward(11_000)
    said = page.locator("[data-pause-rule].is-warn")
    said.wait_for()
    assert said.inner_text() == "Paused over 10 s: this run is now Assisted." and said.get_attribute("role") == "status"
    assert "assisted" in page.locator("#run-kind").get_attribute("class")
    page.get_by_role("button", name="Resume").click()
    page.locator("#game-message.is-warn", has_text="Paused over 10 s: this run is now Assisted.").wait_for()
    page.wait_for_selector("#game[data-state=playing] [data-board]")
    run.refresh_from_db()
    assert run.assisted and run.assisted_by == "pause"
    for cell in EMPTY[1:]:
        enter(page, cell)
    finish = page.get_by_role("region", name="Finished")
    finish.wait_for()
    assert "Assisted because the run was paused for more than 10 seconds." in finish.inner_text()


def test_fill_notes_appears_once_the_run_is_assisted_and_fills_the_notes(page, full_bank_puzzle):
    # Issue 43, "Beyond the fixes": auto-candidates in Assisted play only. The unit tests'
    # puzzle, whose row 1, column 4 has the candidates 2 and 6 (fewer givens, more candidates).
    from tests.conftest import EMPTY

    start_easy(page)
    fill = page.get_by_role("button", name="Fill notes")
    assert fill.count() == 0  # hidden while the run is Classic
    page.locator(f'[data-board] [data-cell="{EMPTY[0]}"]').click()
    page.get_by_role("button", name="Hint").click()
    page.locator(f'#cell-{EMPTY[0]}[data-value="{SOLUTION[EMPTY[0]]}"]').wait_for()
    fill.click()  # there with the Assisted badge, no reload
    page.locator("#game-message", has_text="Notes filled: every empty cell shows its candidates.").wait_for()
    notes = page.locator(f"#cell-{EMPTY[1]} .notes")  # row 1, column 4: 2 and 6
    notes.wait_for()
    assert notes.inner_text().split() == ["2", "6"]
    run = SoloRun.objects.get()
    assert run.get_board().notes_at(EMPTY[1]) == [2, 6] and run.hints == 1


def enter(page, index):
    """The right digit at `index` by the pad, once the server has it."""
    page.locator(f'[data-board] [data-cell="{index}"]').click()
    page.get_by_role("button", name=SOLUTION[index], exact=True).click()
    page.locator(f'#cell-{index}:not(.pending)[data-value="{SOLUTION[index]}"]').wait_for()


def slow_connection(page, latency_ms=400):
    """Every request of the page is answered `latency_ms` later (Chromium's own throttling)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def test_digits_typed_ahead_of_a_slow_answer_are_all_entered(page, bank_puzzle):
    """On a slow connection the pad waits for each answer (its buttons disabled for the
    request): keys typed meanwhile were dropped. Now each is kept with the cell selected as
    it was typed and sent once the answer before it has settled."""
    start_easy(page)
    run = SoloRun.objects.get()
    slow_connection(page)
    page.locator('[data-cell="5"]').click()  # row 1: cells 5, 6 and 7 are empty
    for index in (5, 6, 7):  # typed well inside one answer's time, moving on by arrow key
        page.keyboard.press(SOLUTION[index])
        page.keyboard.press("ArrowRight")
    for index in (5, 6, 7):
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
    run.refresh_from_db()
    assert run.mistakes == 0  # each digit went to the cell it was typed on


def test_a_player_who_moves_on_while_an_answer_travels_stays_where_they_went(page, bank_puzzle):
    """A slow answer marks the cell its move was on as selected: the selection jumped back
    there from where the player had arrowed on to, and a key typed after that answer (while
    the next typed-ahead one was on its way) went to the cell just sent, was refused as a
    filled cell and was lost (one CI run of the test above). The player's own selection
    wins now, also after a typed-ahead key is sent for them."""
    from playwright.sync_api import expect

    start_easy(page)
    run = SoloRun.objects.get()
    slow_connection(page)
    page.locator('[data-cell="5"]').click()  # row 1: cells 5, 6 and 7 are empty
    page.keyboard.press(SOLUTION[5])
    page.keyboard.press("ArrowRight")
    page.keyboard.press(SOLUTION[6])  # kept until cell 5's answer is in
    page.keyboard.press("ArrowRight")
    page.locator(f'[data-cell="5"][data-value="{SOLUTION[5]}"]').wait_for()  # cell 6's digit now sent
    expect(page.locator('[data-board] [aria-selected="true"]')).to_have_attribute("data-cell", "7")
    page.keyboard.press(SOLUTION[7])
    for index in (6, 7):
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
    expect(page.locator('[data-board] [aria-selected="true"]')).to_have_attribute("data-cell", "7")
    run.refresh_from_db()
    assert run.mistakes == 0 and run.get_board().cells[5:8] == tuple(int(SOLUTION[i]) for i in (5, 6, 7))

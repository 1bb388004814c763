"""Solo Run in real Chromium: play to the finish, pause, hints and the Assisted board."""

import datetime as dt

from games.models import SoloRun
from tests.conftest import EMPTY, SOLUTION


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
        page.get_by_role("gridcell", name=f"Row {r}, column {c}", exact=True).click()
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
        page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}", exact=True).click()
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
        "label": "Row 1, column 3",
    }
    assert refused["cell"] == "2" and refused["text"] == wrong and not refused["pending"]
    assert refused["red"] and refused["moving"]  # red, and the cell shakes
    assert refused["label"] == "Row 1, column 3"  # never named with the refused digit
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
        "label": "Row 1, column 3",
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


def test_tap_to_swapped_cell_latency(page, bank_puzzle):
    """Measures (does not time-box) tap -> the server's cell in the page, over a whole
    Easy puzzle played with the pad. Issue 15's target is p95 <= 50 ms on a quiet
    machine; the bound asserted here is generous, the figure is printed for the README."""
    from tests.browser import latency

    start_easy(page)
    latency.install(page)
    waits = []
    for index in EMPTY[:-1]:  # the last entry answers with the whole finish screen
        page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}", exact=True).click()
        tap = latency.clicks(page)
        page.get_by_role("button", name=SOLUTION[index], exact=True).click()
        page.locator(f'#cell-{index}:not(.pending)[data-value="{SOLUTION[index]}"]').wait_for()
        waits.append((tap, f"cell-{index}"))
    _, p95 = latency.summary("Solo Run", latency.delays(page, waits))
    assert p95 < 500


def test_a_closed_tab_pauses_the_run_and_a_reload_keeps_it_going(page, bank_puzzle, browser, live_server, player):
    import time

    from tests.browser.conftest import new_page

    start_easy(page)
    run = SoloRun.objects.get()
    index = EMPTY[0]
    page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}", exact=True).click()
    page.get_by_role("button", name=SOLUTION[index], exact=True).click()
    page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}, {SOLUTION[index]}").wait_for()

    def state_within(wanted, seconds=5):
        for _ in range(int(seconds * 10)):
            run.refresh_from_db()
            if run.state == wanted:
                return True
            time.sleep(0.1)
        return False

    page.reload()  # the same tab comes back: the run carries on
    page.wait_for_selector("#game[data-state=playing] [data-board]")
    assert state_within("playing")
    page.close(run_before_unload=True)  # the tab is closed: the run pauses, its clock stops
    assert state_within("paused") and run.active_since is None and run.paused_at is not None
    # after the pause's first PAUSE_GRACE seconds (issue 28, item 7)
    later = run.paused_at + dt.timedelta(minutes=5)
    assert run.play_seconds(later) == run.elapsed_before + SoloRun.PAUSE_GRACE
    again = new_page(browser, live_server.url, player)
    again.goto(f"/solo/{run.pk}/")
    again.get_by_role("button", name="Resume").wait_for()  # a new tab shows the pause, not the board
    assert again.locator("[data-board]").count() == 0


def test_a_move_right_after_a_reload_survives_the_reload_s_late_pause(page, bank_puzzle, player):
    # The tab's leaving pause is a beacon, not ordered with the reload: it can land after
    # the new page. The move typed then is refused as "paused"; the page resumes the run
    # and sends the move again, so the player loses nothing.
    from games import solo

    start_easy(page)
    run = SoloRun.objects.get()
    page.reload()
    page.wait_for_selector("#game[data-state=playing] [data-board]")
    solo.act(run.pk, player, solo.SoloAction("pause"))  # the late beacon
    index = EMPTY[0]
    page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}", exact=True).click()
    page.keyboard.press(str(int(SOLUTION[index]) % 9 + 1))
    page.locator(f"#cell-{index}[data-wrong-shown]").wait_for()
    run.refresh_from_db()
    assert run.state == "playing" and run.mistakes == 1


def test_digits_typed_ahead_of_a_slow_answer_are_all_entered(page, bank_puzzle):
    """On a slow connection the pad waits for each answer (its buttons disabled for the
    request): keys typed meanwhile were dropped. Now each is kept with the cell selected as
    it was typed and sent once the answer before it has settled."""
    start_easy(page)
    run = SoloRun.objects.get()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    page.locator('[data-cell="5"]').click()  # row 1: cells 5, 6 and 7 are empty
    for index in (5, 6, 7):  # typed well inside one answer's time, moving on by arrow key
        page.keyboard.press(SOLUTION[index])
        page.keyboard.press("ArrowRight")
    for index in (5, 6, 7):
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
    run.refresh_from_db()
    assert run.mistakes == 0  # each digit went to the cell it was typed on

"""Solo Run in real Chromium: play to the finish, pause, hints and the Assisted board."""

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
        page.wait_for_function(f"document.querySelector('[data-cell=\"{index}\"]')?.dataset.value === '{SOLUTION[index]}'")
    page.get_by_role("heading", name="Solved!").wait_for()
    page.goto("/leaderboards/")
    assisted = page.locator('[data-board-kind="easy-assisted"]').inner_text()
    classic = page.locator('[data-board-kind="easy-classic"]').inner_text()
    assert "Completed 1" in assisted.replace("\n", " ") and "No classic finishes yet" in classic

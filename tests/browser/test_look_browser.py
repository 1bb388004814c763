"""Issue 14 in real Chromium: a completed row lights up, the Solo Run finish celebrates
(still under reduced motion) with its chart, the sound cues and the mute control."""

from playwright.sync_api import expect

from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, EMPTY, SOLUTION
from tests.browser.test_accessibility import Audit

# Records every cell that gets `unit-done`, and the cues sound.js plays.
RECORDER = """() => {
  window.__lit = new Set();
  new MutationObserver((records) => {
    for (const r of records)
      if (r.target.classList && r.target.classList.contains("unit-done")) window.__lit.add(r.target.dataset.cell);
  }).observe(document.body, {attributes: true, attributeFilter: ["class"], subtree: true});
}"""


def start_easy(page):
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")


def enter(page, index, digit=None):
    digit = digit or SOLUTION[index]
    page.get_by_role("gridcell", name=f"Row {index // 9 + 1}, column {index % 9 + 1}, empty", exact=True).click()
    page.keyboard.press(str(digit))


def enter_right(page, index):
    enter(page, index)
    page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()


def test_a_completed_row_lights_up_once(page, bank_puzzle):
    start_easy(page)
    page.evaluate(RECORDER)
    row = [i for i in EMPTY if i < 9]
    for index in row[:-1]:
        enter_right(page, index)
    assert page.evaluate("window.__lit.size") == 0  # an unfinished row stays dark
    enter_right(page, row[-1])
    page.wait_for_function("window.__lit.size > 0")
    lit = set(map(int, page.evaluate("Array.from(window.__lit)")))
    assert set(range(9)) <= lit  # the whole first row (and its column or box if those completed too)
    page.wait_for_function("!document.querySelector('.unit-done')")  # briefly: then it goes


def test_the_finish_celebrates_plays_its_cue_and_charts_the_latest_runs(browser, live_server, player, bank_puzzle):
    from games.models import Puzzle, SoloRun

    Puzzle.objects.create(level="easy", givens=bank_puzzle.givens, solution=SOLUTION, clues=CLUES, seed=2)
    page = new_page(browser, live_server.url, player)
    start_easy(page)  # a first finish, for the chart to have two runs
    for index in EMPTY:
        enter_right(page, index)
    page.get_by_role("heading", name="Solved!").wait_for()
    expect(page.locator("html")).to_have_attribute("data-last-sound", "finish")
    start_easy(page)
    enter(page, EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)
    page.locator(f"#cell-{EMPTY[0]}[data-wrong-shown]").wait_for()
    assert page.locator("html").get_attribute("data-last-sound") == "wrong"
    for index in EMPTY:
        enter_right(page, index)
    finish = page.get_by_role("region", name="Finished")
    finish.wait_for()
    # The cue plays once the answer has settled, a moment after the region is in the page.
    expect(page.locator("html")).to_have_attribute("data-last-sound", "finish")
    assert page.locator(".confetti i").first.is_visible()
    assert finish.locator(".finish.celebrate, .confetti").count() >= 1
    assert page.locator(".chart svg circle.chart-dot").count() == 2 and page.locator(".chart-dot.last").count() == 1
    text = finish.inner_text()
    run = SoloRun.objects.filter(state="finished").order_by("-finished_at").first()
    assert str(run.score) in text and "Finish bonus" in text and "Personal best before" in text
    audit = Audit(1100)  # in the light and the dark scheme
    audit.check(page, "Solo Run: just finished, with chart")
    audit.assert_clean()
    page.reload()  # the finish again: still and silent
    page.evaluate("document.documentElement.removeAttribute('data-last-sound')")
    assert page.locator(".confetti").count() == 0
    # Nothing more comes to cue it: the page is loaded and no request is left in flight (a
    # cue plays on the load's own scan or on an answer swapped in, never on a timer).
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("data-last-sound") is None
    page.context.close()


def test_reduced_motion_finish_draws_no_confetti(browser, live_server, player, bank_puzzle):
    page = new_page(browser, live_server.url, player)
    page.emulate_media(reduced_motion="reduce")
    start_easy(page)
    for index in EMPTY:
        enter_right(page, index)
    page.get_by_role("region", name="Finished").wait_for()
    assert page.locator(".confetti").count() == 1 and not page.locator(".confetti").is_visible()
    page.context.close()


def test_mute_is_remembered_and_silences_the_cues(page, bank_puzzle):
    start_easy(page)
    toggle = page.get_by_role("button", name="Mute sounds")
    assert toggle.is_visible() and toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    toggle = page.get_by_role("button", name="Mute sounds")
    assert toggle.get_attribute("aria-pressed") == "true"  # remembered by this browser
    enter(page, EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)
    page.locator(f"#cell-{EMPTY[0]}[data-wrong-shown]").wait_for()
    assert page.locator("html").get_attribute("data-last-sound") is None
    toggle.click()
    assert page.evaluate("localStorage.getItem('sound-muted')") is None
    enter(page, EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1)
    page.wait_for_function("document.documentElement.dataset.lastSound === 'wrong'")


def test_no_cue_while_the_page_is_hidden(page, bank_puzzle):
    start_easy(page)
    page.get_by_role("gridcell", name="Row 1, column 3").click()  # the first interaction
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.keyboard.press(str(int(SOLUTION[2]) % 9 + 1))
    page.locator("#cell-2[data-wrong-shown]").wait_for()
    assert page.locator("html").get_attribute("data-last-sound") is None


# The sound files' size and type: tests/games/test_solo_finish.py (no browser needed).

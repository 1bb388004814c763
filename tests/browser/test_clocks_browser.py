"""Clocks never show a wrong time: sampled every 20 ms while the board is swapped."""

import itertools

from tests.conftest import EMPTY, SOLUTION

# Every 20 ms: the clock's seconds and how long the page has been open (the run started
# just before the page loaded, so the clock can never be ahead of that).
SAMPLER = """() => {
  window.__samples = [];
  const toSeconds = (t) => t.split(":").reduce((a, b) => a * 60 + Number(b), 0);
  setInterval(() => {
    const clock = document.querySelector("[data-clock]");
    if (clock) window.__samples.push([toSeconds(clock.textContent.trim()), performance.now() / 1000]);
  }, 20);
}"""


def test_solo_clock_is_never_ahead_of_the_page_after_moves(page, bank_puzzle):
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    page.evaluate(SAMPLER)
    page.wait_for_timeout(2500)  # a clock counting from the page load would now read double
    for index in EMPTY[:15]:
        page.locator(f'[data-cell="{index}"]').click()
        page.keyboard.press(SOLUTION[index])
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
        page.wait_for_timeout(60)
    samples = page.evaluate("window.__samples")
    assert len(samples) > 100
    wrong = [(shown, round(open_for, 2)) for shown, open_for in samples if shown > open_for + 1]
    assert not wrong, f"clock ahead of the page's age: {wrong[:5]}"
    shown = [s for s, _ in samples]
    assert all(b >= a - 1 for a, b in itertools.pairwise(shown)), "the clock went backwards"

"""Clocks never show a wrong time: sampled every 20 ms while the board is swapped."""

import datetime as dt
import itertools

from games.models import SoloRun
from tests.browser.puzzle import EMPTY, SOLUTION

# Every 20 ms: the clock's seconds, how long the page has been open (the run started just
# before the page loaded, so the clock can never be ahead of that), the wall time, and
# whether a move was on its way (or answered under half a second ago): the clock holds
# still while a move travels, so on a loaded machine it may then trail by the trip.
SAMPLER = """() => {
  window.__samples = [];
  let sending = false, answeredAt = -1e9;
  document.addEventListener("board:sending", () => { sending = true; });
  document.addEventListener("board:answered", () => { sending = false; answeredAt = performance.now(); });
  const toSeconds = (t) => t.split(":").reduce((a, b) => a * 60 + Number(b), 0);
  setInterval(() => {
    const clock = document.querySelector("[data-clock]");
    const shown = clock && toSeconds(clock.textContent.trim());
    const held = sending || performance.now() - answeredAt < 500;
    if (clock) window.__samples.push([shown, performance.now() / 1000, Date.now() / 1000, held]);
  }, 20);
}"""


def test_solo_clock_is_never_ahead_of_the_page_after_moves(page, bank_puzzle):
    page.goto("/")
    page.locator("form.level-picker").first.get_by_role("button", name="Easy").click()
    page.wait_for_selector("[data-board]")
    page.evaluate(SAMPLER)
    # Kept: the page must have been open long enough that a clock counting from the page load
    # would now read double. That is time passing, which no event of the page marks (the
    # clock under test is the only thing in the page that counts it).
    page.wait_for_timeout(2500)
    for index in EMPTY[:15]:
        page.locator(f'[data-cell="{index}"]').click()
        page.keyboard.press(SOLUTION[index])
        page.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
        # The sampler reads the swapped-in clock a few times before the next move swaps it.
        taken = page.evaluate("window.__samples.length")
        page.wait_for_function("n => window.__samples.length >= n", arg=taken + 3)
    samples = page.evaluate("window.__samples")
    assert len(samples) > 100
    wrong = [(shown, round(open_for, 2)) for shown, open_for, *_ in samples if shown > open_for + 1]
    assert not wrong, f"clock ahead of the page's age: {wrong[:5]}"
    # Nor behind or ahead of the server's own play time at that moment (the run never paused);
    # while a move travels the clock holds (at most 5 s), so it may trail by that much then.
    run = SoloRun.objects.get()
    assert run.state == "playing"
    truth = [
        (shown, run.play_seconds(dt.datetime.fromtimestamp(at, dt.UTC)), 6 if held else 2)
        for shown, _, at, held in samples
    ]
    wrong = [(shown, round(real, 2)) for shown, real, behind in truth if not real - behind <= shown <= real + 1]
    assert not wrong, f"clock off the server's play time: {wrong[:5]}"
    shown = [s for s, *_ in samples]
    assert all(b >= a - 1 for a, b in itertools.pairwise(shown)), "the clock went backwards"

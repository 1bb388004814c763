"""Sudoku Domino in real Chromium: start from the home card, push stones at the orange
markers (pointer and keyboard), lose a life on a wrong stone, place a joker, and check
that what the page shows is what the server's engine state says."""

import re

import pytest
from playwright.sync_api import expect

from games.domino import solo
from games.domino.models import DominoGame
from games.engines import domino as d
from tests.browser.puzzle import SOLUTION
from tests.games.test_domino_views import seed_with_both

pytestmark = pytest.mark.browser


def engine_state(player):
    return DominoGame.objects.get(player=player).engine_state()


def marker_name(edge, line):
    kind = "row" if edge in ("left", "right") else "column"
    return f"Push from the {edge} into {kind} {line}"


def entry(state, correct: bool):
    for (edge, line), (row, col) in d.entry_points(state).items():
        if (state.solution[(row - 1) * 9 + col - 1] == state.current_stone) == correct:
            return edge, line, (row, col)
    return None


def expect_shown_matches_engine(page, player):
    state = engine_state(player)
    expect(page.locator("[data-score]")).to_have_text(str(state.score))
    expect(page.locator("[data-lives]")).to_have_attribute("aria-label", f"{state.lives} of 3 lives left")
    if state.current_stone:
        expect(page.get_by_role("img", name=f"Current stone: {state.current_stone}")).to_be_visible()
    return state


def test_play_domino_with_markers_a_joker_and_a_wrong_stone(page, player, bank_puzzle, monkeypatch):
    monkeypatch.setattr(solo.secrets, "randbits", lambda bits: seed_with_both())
    page.goto("/")
    page.get_by_role("button", name="Domino Easy").click()
    expect(page).to_have_url(re.compile(r"/domino/\d+/$"))
    expect(page.get_by_role("grid", name="Sudoku Domino board")).to_be_visible()
    expect(page.get_by_role("gridcell", name="Row 1, column 1, 5")).to_be_visible()
    state = expect_shown_matches_engine(page, player)

    # Only valid entry points are offered.
    assert page.locator("[data-marker]").count() == len(d.entry_points(state))
    expect(page.get_by_role("button", name=marker_name("left", 1))).to_have_count(0)

    # A correct push: the stone slides in and scores 5.
    edge, line, (row, col) = entry(state, True)
    digit = state.current_stone
    page.get_by_role("button", name=marker_name(edge, line)).click()
    expect(page.locator("[data-score]")).to_have_text("5")
    cell = page.get_by_role("gridcell", name=f"Row {row}, column {col}, {digit}", exact=True)
    expect(cell).to_be_visible()
    expect(cell.locator(".stone.slide")).to_have_count(1)
    expect(page.locator("[data-message]")).to_contain_text("Correct: +5")
    state = expect_shown_matches_engine(page, player)

    # A wrong push: a life is lost, the message says why, the same stone stays in hand.
    wrong = entry(state, False)
    assert wrong is not None
    kept = state.current_stone
    page.get_by_role("button", name=marker_name(wrong[0], wrong[1])).click()
    expect(page.locator("[data-lives]")).to_have_attribute("aria-label", "2 of 3 lives left")
    expect(page.locator("[data-message]")).to_contain_text(f"Wrong: the {kept}")
    expect(page.get_by_role("img", name=f"Current stone: {kept}")).to_be_visible()
    left_empty = f"Row {wrong[2][0]}, column {wrong[2][1]}, empty"
    expect(page.get_by_role("gridcell", name=left_empty, exact=True)).to_be_visible()
    state = expect_shown_matches_engine(page, player)

    # A gold joker on an empty cell: +5, and the stone in hand is kept.
    score = state.score
    empty = next((r, c) for r in range(1, 10) for c in range(1, 10) if state.cell(r, c) == d.EMPTY)
    page.get_by_role("button", name="Gold joker, 2 left").click()
    expect(page.locator("[data-message]")).to_contain_text("Pick any empty cell for the gold joker")
    page.get_by_role("button", name=f"Place the gold joker on row {empty[0]}, column {empty[1]}").click()
    expect(page.locator("[data-score]")).to_have_text(str(score + 5))
    expect(page.get_by_role("gridcell", name=f"Row {empty[0]}, column {empty[1]}, gold joker")).to_be_visible()
    expect(page.get_by_role("button", name="Gold joker, 1 left")).to_be_visible()
    state = expect_shown_matches_engine(page, player)
    assert state.current_stone == kept and state.jokers_left == {"grey": 4, "gold": 1}

    # Keyboard: Tab to the markers, arrows move between them, Enter pushes.
    moves = state.move_count
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.marker !== undefined")
    assert focused
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert second.startswith("Push from the") and second != first
    expect(page.locator(".d-cell.landing")).to_have_count(1)  # the landing preview
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#game').dataset.version === '{moves + 1}'")
    state = expect_shown_matches_engine(page, player)
    assert state.move_count == moves + 1
    assert page.evaluate("document.activeElement.dataset.marker !== undefined")  # focus kept

    # The reload shows the same game; the clock counts down from the server's seconds.
    page.reload()
    state = expect_shown_matches_engine(page, player)
    clock = page.locator("[data-countdown]")
    before = clock.inner_text()
    # The countdown ticks (domino.js redraws it every 250 ms): it moves on within a second
    # or so of the reading; the bound leaves room for a busy machine.
    expect(clock).not_to_have_text(before, timeout=5_000)
    assert re.fullmatch(r"[0-9]:\d\d", clock.inner_text())
    assert SOLUTION not in page.content()


def test_the_page_ends_the_game_when_the_servers_clock_runs_out(page, player, bank_puzzle):
    import datetime as dt

    from django.utils import timezone

    # 4 s before its end: a first game's clock started at the walkthrough's cap (solo.WALKTHROUGH_WAIT)
    game = solo.start_game(player, "easy", now=timezone.now() - dt.timedelta(seconds=596) - solo.WALKTHROUGH_WAIT)
    page.goto(f"/domino/{game.pk}/")
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"0:0[0-4]"))
    expect(page.locator(".hud-clock")).to_have_class(re.compile("is-low"))
    # Nobody plays: when the countdown reaches zero the page asks the server, which ends it.
    expect(page.get_by_role("heading", name="Time is up")).to_be_visible(timeout=9000)
    expect(page.locator("[data-marker]")).to_have_count(0)
    game = DominoGame.objects.get(pk=game.pk)
    assert game.status == "finished" and game.end_reason == "time"


def test_keyboard_reads_the_board_and_places_a_joker(page, player, bank_puzzle):
    game = solo.start_game(player, "easy")
    page.goto(f"/domino/{game.pk}/")
    first = page.get_by_role("gridcell", name="Row 1, column 1, 5")
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Row 1, column 3, empty"
    # G picks the grey joker; arrows move between empty cells; Enter places it.
    page.keyboard.press("g")
    expect(page.locator("[data-message]")).to_contain_text("Pick any empty cell for the grey joker")
    page.wait_for_function("document.activeElement && document.activeElement.dataset.pick !== undefined")
    page.keyboard.press("ArrowRight")
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    row, col = map(int, re.findall(r"\d", name))
    page.keyboard.press("Enter")
    expect(page.get_by_role("gridcell", name=f"Row {row}, column {col}, grey joker")).to_be_visible()
    expect(page.get_by_role("button", name="Grey joker, 3 left")).to_be_visible()
    assert DominoGame.objects.get(pk=game.pk).engine_state().cell(row, col) == d.GREY
    # Escape leaves joker mode without placing anything. (G pressed as the placement lands is
    # answered in the page: it once left it as a plain form submission, ?joker=grey.)
    page.keyboard.press("g")
    expect(page.get_by_role("button", name="Cancel joker")).to_be_visible()
    assert page.url.endswith(f"/domino/{game.pk}/")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Cancel joker")).to_have_count(0)
    assert page.locator("[data-marker]").count() > 0
    assert DominoGame.objects.get(pk=game.pk).jokers_used == 1


def test_tap_to_swapped_cell_latency(page, player, bank_puzzle):
    """Measures tap on a marker -> the landed stone's cell from the server, over the pushes of
    a game (issue 15's target: p95 <= 50 ms on a quiet machine; the bound here is generous)."""
    from tests.browser import latency

    game = solo.start_game(player, "easy", seed=seed_with_both())
    page.goto(f"/domino/{game.pk}/")
    latency.install(page)
    waits = []
    for _ in range(40):
        state = engine_state(player)
        if state.finished:
            break
        found = entry(state, True) or (entry(state, False) if state.lives > 1 else None)
        if found is None:
            break
        edge, line, (row, col) = found
        index = latency.clicks(page)
        page.get_by_role("button", name=marker_name(edge, line)).click()
        expect(page.locator("#game")).to_have_attribute("data-version", str(state.move_count + 1))
        waits.append((index, f"dm-cell-{row}-{col}"))
    assert len(waits) >= 5
    _, p95 = latency.summary("Domino", latency.delays(page, waits))
    # A bound for a loaded CI (four browser workers on two cores), not the target: a few taps
    # of the 16 waited 510 ms there while their median was 139 ms; bench/ measures the target.
    assert p95 < 750

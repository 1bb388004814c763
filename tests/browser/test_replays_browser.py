"""Issue 39's "Done when", in Chromium: a player finishes a Solo Run, opens its replay and
steps through it; a second player races that run's ghost, sees it move and finish, and
finishes ahead; a player alone presses Race now and races two ghosts; a daily's replay is
refused before the player finished it."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.daily.models import Daily
from games.models import Puzzle, SoloRun
from games.sudoku.play import Enter
from players.models import Profile
from replays import record
from replays.models import Track
from rooms import actions as A
from rooms.api import create_room
from tests.browser.conftest import act, new_page  # act: off Playwright's loop thread, pushes included
from tests.browser.puzzle import CLUES, EMPTY, PUZZLE, SOLUTION
from tests.browser.test_solo_browser import start_easy
from tests.replays.test_replays import solved_run

pytestmark = pytest.mark.django_db(transaction=True)


def type_cell(page, index, digit):
    page.locator(f'#board [data-cell="{index}"]').click()
    page.keyboard.press(digit)
    page.locator(f'#board [data-cell="{index}"][data-value="{digit}"]').wait_for()


# One blank per 3x3 box and three more: every box has a split, and the two solves (Ada's, then
# Ben's against her ghost, who finishes in Ada's real time) take seconds, not a minute each.
FEW = sorted({27 * (box // 3) + 3 * (box % 3) for box in range(9)} | {40, 44, 80})
FEW_PUZZLE = "".join("0" if i in FEW else digit for i, digit in enumerate(SOLUTION))


def test_a_solo_run_replayed_step_by_step_then_raced_as_a_ghost(browser, live_server, db):
    Puzzle.objects.create(level="easy", givens=FEW_PUZZLE, solution=SOLUTION, clues=69, seed=1)
    ada = new_page(browser, live_server.url, Profile.objects.create(display_name="Ada"))
    start_easy(ada)
    wrong = str(int(SOLUTION[FEW[0]]) % 9 + 1)
    ada.locator(f'#board [data-cell="{FEW[0]}"]').click()
    ada.keyboard.press(wrong)
    ada.wait_for_selector("#game-message.is-error")
    for index in FEW:
        type_cell(ada, index, SOLUTION[index])
        # Ada thinks before each digit: a slower solver than Ben, who races her ghost below
        # at the machine's pace (the same page overhead per cell, minus this pause).
        ada.wait_for_timeout(1000)
    ada.get_by_role("heading", name="Solved!").wait_for()
    run = SoloRun.objects.get()

    # The replay, from the finish screen: it opens at 0:00 with only the givens.
    ada.get_by_role("link", name="Watch the replay").click()
    expect(ada.get_by_role("heading", name="Replay of Ada's Solo Run")).to_be_visible()
    cell = ada.locator(f'.replay-board [data-cell="{FEW[0]}"]')
    expect(cell).to_have_text("")
    step = ada.get_by_role("button", name="Step forward")
    step.click()  # the wrong digit, shown as a mistake
    expect(cell).to_have_class(re.compile(r"\bwrong\b"))
    expect(cell).to_have_text(wrong)
    assert ada.locator(".replay-marks .tick-w").count() == 1  # on the timeline
    step.click()  # the right one
    expect(cell).to_have_text(SOLUTION[FEW[0]])
    expect(ada.locator("[data-lane-progress]")).to_have_text("1")
    ada.get_by_role("button", name="Step back").click()
    expect(ada.locator("[data-lane-progress]")).to_have_text("0")
    ada.get_by_label("16×").check()
    ada.get_by_role("button", name="Play").click()
    expect(ada.locator("[data-lane-progress]")).to_have_text(str(len(FEW)), timeout=15_000)
    expect(ada.get_by_role("button", name="Play")).to_be_visible()  # stopped at the end
    ada.get_by_text("Split times by 3×3 box").click()
    expect(ada.locator(".replay-splits li")).to_have_count(9)

    # Ben races Ada's ghost from her replay, sees it move, finishes first, then sees it finish.
    ben = new_page(browser, live_server.url, Profile.objects.create(display_name="Ben"))
    ben.goto(f"/replay/run/{run.pk}/")
    ben.get_by_role("button", name="Race Ada's ghost").click()
    expect(ben.get_by_role("heading", name="Ghosts")).to_be_visible()
    ghost = ben.locator("#ghosts [data-ghost='0']")
    expect(ghost.locator("[data-ghost-line]")).not_to_have_text(re.compile(r"^0 / "), timeout=15_000)
    assert ghost.locator("path.f").get_attribute("d")  # its silhouette filled in
    for index in FEW:
        type_cell(ben, index, SOLUTION[index])
    ben.get_by_role("heading", name="Solved!").wait_for()
    expect(ben.locator(".versus-ghost")).to_contain_text("You beat the ghost of Ada by")
    toast = ben.locator("#toasts .toast", has_text="Ghost of Ada finished")
    expect(toast).to_be_visible(timeout=40_000)
    mine = SoloRun.objects.get(player__display_name="Ben")
    assert mine.ghost == Track.objects.get(run=run) and mine.elapsed < run.elapsed
    # Nothing of the ghost's digits ever reached Ben's page.
    assert SOLUTION not in ben.content()


def past_race(names, seconds_per_cell):
    """A finished Easy room raced by `names`, each entering a cell every `seconds_per_cell[i]`
    seconds, and its tracks: the ghosts of a quiet pool."""
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    players = [Profile.objects.create(display_name=name) for name in names]
    room = create_room(players[0], level="easy")
    now = timezone.now() - dt.timedelta(hours=1)
    for p in players[1:]:
        act(room.code, p, A.Join(), now=now)
    for p in players:
        act(room.code, p, A.SetReady(True), now=now)
    act(room.code, players[0], A.Start(), now=now)
    room.refresh_from_db()
    for p, pace in zip(players, seconds_per_cell, strict=True):
        for n, cell in enumerate(EMPTY):
            at = room.starts_at + dt.timedelta(seconds=pace * (n + 1))
            act(room.code, p, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    room.refresh_from_db()
    assert room.state == "finished"
    return record.record_room(room)


def test_alone_in_the_pool_races_two_ghosts(browser, daphne_server):
    past_race(["Grace", "Linus"], [0.2, 0.4])  # ghosts finishing at about 0:10 and 0:20
    cleo = new_page(browser, daphne_server, Profile.objects.create(display_name="Cleo"), width=375)
    cleo.goto("/")
    cleo.get_by_role("form", name="Race now: pick a level").get_by_role("button", name="Easy").click()
    expect(cleo.get_by_role("heading", name="Finding you a race")).to_be_visible()
    # Nobody else comes: after 15 s the pool seats Cleo with two ghosts.
    expect(cleo).to_have_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=30_000)
    cleo.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=20_000)
    lanes = cleo.locator("#ghosts [data-ghost]")
    expect(lanes).to_have_count(2)
    expect(lanes.first).to_contain_text("Ghost of Grace")
    expect(lanes.nth(1)).to_contain_text("Ghost of Linus")
    expect(lanes.first.locator("[data-ghost-line]")).not_to_have_text(re.compile(r"^0 / "), timeout=10_000)
    expect(cleo.locator("#toasts .toast", has_text="Ghost of Grace finished")).to_be_visible(timeout=20_000)
    assert cleo.locator("#standings [data-seat]").count() == 1  # ghosts are never placed among the seats


def test_a_daily_replay_is_refused_before_the_player_finished_it(browser, live_server, full_bank_puzzle):
    puzzle = full_bank_puzzle  # solved_run fills the unit tests' 51 blanks
    daily = Daily.objects.create(date=timezone.now().date(), level="easy", puzzle=puzzle)
    run = solved_run(Profile.objects.create(display_name="Ada"), puzzle=puzzle, daily=daily)
    ben = new_page(browser, live_server.url, Profile.objects.create(display_name="Ben"))
    answer = ben.goto(f"/replay/run/{run.pk}/")
    assert answer.status == 403
    expect(ben.get_by_role("heading", name="Not yet")).to_be_visible()
    expect(ben.get_by_role("alert")).to_contain_text("once you have finished it")
    assert SOLUTION not in ben.content()
    ben.goto(f"/daily/{daily.date.isoformat()}/easy/")
    expect(ben.get_by_role("link", name="Watch")).to_have_count(0)

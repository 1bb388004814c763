"""Issue 43, item 4: a ranked run paused over 10 s turns Assisted, and the player is told before
the start, the moment it applies and on the finish screen; leaving the page or moving a daily
to another device is not a pause (the clock runs on, the run stays Classic); a practice run's
pause never makes it Assisted."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from games.models import SoloRun
from games.sudoku import solo
from tests.conftest import EMPTY, SOLUTION

HX = {"HTTP_HX_REQUEST": "true"}
NOW_ASSISTED = "Paused over 10 s: this run is now Assisted."


pytestmark = pytest.mark.usefixtures("no_restart")  # the server has been up since long before the run


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def at(run, seconds):
    return time_machine.travel(run.started_at + dt.timedelta(seconds=seconds), tick=False)


def page(client, run) -> str:
    return client.get(reverse("solo_run", args=[run.pk])).content.decode()


def solve(client, run, cells):
    for cell in cells:
        response = act(client, run, cell=cell, digit=SOLUTION[cell])
    return response


def test_a_pause_over_10_seconds_is_announced_recorded_and_said_at_the_finish(player_client, run):
    with at(run, 1):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        paused = act(player_client, run, command="pause").content.decode()
    # The paused screen counts the grace down in a live region...
    assert "Resume within 10 seconds to keep this run Classic." in paused
    assert 'role="status" data-pause-rule data-pause-left="10.0"' in paused
    with at(run, 7):
        assert 'data-pause-left="4.0"' in page(player_client, run)
    with at(run, 12):  # ...and says it once the grace is over, before any resume
        later = page(player_client, run)
        assert NOW_ASSISTED in later and 'data-pause-left="0.0"' in later
        resumed = act(player_client, run, command="resume").content.decode()
    # The resume makes it so and says it again, as a warning.
    assert f'class="message is-warn" role="status">{NOW_ASSISTED}' in resumed
    assert 'class="badge assisted"' in resumed
    recorded = SoloRun.objects.get(pk=run.pk)
    assert recorded.assisted and recorded.assisted_by == SoloRun.AssistedBy.PAUSE
    with at(run, 13):
        finish = solve(player_client, run, EMPTY[1:]).content.decode()
    assert "Assisted because the run was paused for more than 10 seconds." in finish
    assert "Assisted because the run was paused" in page(player_client, run)  # and on a reload


def test_a_short_pause_says_nothing_and_keeps_the_run_classic(player_client, run):
    with at(run, 1):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        act(player_client, run, command="pause")
    with at(run, 9):
        resumed = act(player_client, run, command="resume").content.decode()
    assert NOW_ASSISTED not in resumed and 'class="badge classic"' in resumed
    with at(run, 10):
        finish = solve(player_client, run, EMPTY[1:]).content.decode()
    assert "Assisted because" not in finish
    assert SoloRun.objects.get(pk=run.pk).assisted_by == ""


def test_leaving_the_page_is_not_a_pause_the_clock_runs_on_and_the_run_stays_classic(player_client, run):
    # Another tab (or the same one reopened) five minutes after the first was closed: the
    # closed page sent nothing, the run plays on, the time away is play time.
    with at(run, 1):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    with at(run, 301):
        reopened = page(player_client, run)
        assert 'data-state="playing"' in reopened and 'role="grid"' in reopened and "Resume" not in reopened
    with at(run, 302):
        solve(player_client, run, EMPTY[1:])
    finished = SoloRun.objects.get(pk=run.pk)
    assert not finished.assisted and finished.elapsed == pytest.approx(302, abs=0.5)


def test_a_practice_run_s_long_pause_stops_the_clock_and_changes_nothing_else(player_client, player, run):
    SoloRun.objects.filter(pk=run.pk).update(practice=True)
    with at(run, 1):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        paused = act(player_client, run, command="pause").content.decode()
    assert "A practice run counts nowhere" in paused and "data-pause-rule" not in paused
    with at(run, 600):
        resumed = act(player_client, run, command="resume").content.decode()
    assert NOW_ASSISTED not in resumed
    with at(run, 601):
        solve(player_client, run, EMPTY[1:])
    finished = SoloRun.objects.get(pk=run.pk)
    assert not finished.assisted and finished.elapsed == pytest.approx(2 + solo.PAUSE_GRACE, abs=0.5)


def test_the_cause_of_the_assisted_drop_is_kept_and_said(player_client, run, other_player, bank_puzzle):
    act(player_client, run, cell=EMPTY[0], command="hint")
    with at(run, 30):
        act(player_client, run, command="pause")
    with at(run, 60):
        act(player_client, run, command="resume")  # a long pause too: the first cause stays the cause
    assert SoloRun.objects.get(pk=run.pk).assisted_by == SoloRun.AssistedBy.HINT
    with at(run, 61):
        finish = solve(player_client, run, EMPTY[1:]).content.decode()
    assert "Assisted because a hint was used." in finish
    sloppy = solo.new_run(other_player, bank_puzzle)
    for _ in range(solo.CLASSIC_MISTAKES + 1):
        solo.act(sloppy.pk, other_player, solo.SoloAction("enter", EMPTY[0], int(SOLUTION[EMPTY[0]]) % 9 + 1))
    sloppy = SoloRun.objects.get(pk=sloppy.pk)
    assert sloppy.assisted_by == SoloRun.AssistedBy.MISTAKES
    assert solo.assisted_why(sloppy) == "Assisted because of more than 5 mistakes."

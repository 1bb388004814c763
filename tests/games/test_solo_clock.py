"""The Solo Run clock (issue 12, section 7): reading the givens, pausing at once and
resuming later gave a 0:03 Classic best for a 23.7 s run. The clock runs from the start
to the finish; a pause stops it only after the first entry; server downtime is not play
time. Issue 28, item 7: one entry, a pause, 20 s away and the solution typed gave a 0.4 s
Classic time for 20.4 s; 250 mistakes (1-9 in every cell) still made a Classic time; 90 s
across a restart counted 30.1 s (the downtime was taken from the first request after it)."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from games.common import uptime
from games.models import SoloRun
from games.sudoku import solo
from tests.conftest import EMPTY, SOLUTION

HX = {"HTTP_HX_REQUEST": "true"}


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def fresh(run):
    return SoloRun.objects.get(pk=run.pk)


def at(run, seconds):
    return time_machine.travel(run.started_at + dt.timedelta(seconds=seconds), tick=False)


def solve(client, run, cells):
    for cell in cells:
        response = act(client, run, cell=cell, digit=SOLUTION[cell])
    return response


pytestmark = pytest.mark.usefixtures("no_restart")  # the server has been up since long before the run


def test_pausing_before_the_first_entry_does_not_stop_the_clock(player_client, run):
    with at(run, 2):  # the givens are read...
        response = act(player_client, run, command="pause")
        assert b'role="grid"' not in response.content and b"clock keeps running" in response.content
    with at(run, 1800):  # ...and the puzzle solved on paper while paused
        act(player_client, run, command="resume")
    with at(run, 1821):
        assert b"Solved!" in solve(player_client, run, EMPTY).content
    finished = fresh(run)
    assert finished.state == "finished" and finished.elapsed == pytest.approx(1821, abs=0.5)


def test_a_long_pause_after_an_entry_stops_the_clock_but_makes_the_run_assisted(player_client, run):
    # Issue 28's repro: one entry, a pause, 20 s away, resume and the solution typed.
    with at(run, 0.2):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        response = act(player_client, run, command="pause")
        assert b"a pause longer than 10 seconds makes this run Assisted" in response.content
    with at(run, 20.2):
        response = act(player_client, run, command="resume")
        assert b'class="badge assisted"' in response.content
    with at(run, 20.4):
        solve(player_client, run, EMPTY[1:])
    finished = fresh(run)
    # The pause's first PAUSE_GRACE seconds count; the time beyond them does not, off Classic.
    assert finished.elapsed == pytest.approx(0.4 + solo.PAUSE_GRACE, abs=0.05)
    assert finished.assisted


def test_a_short_pause_counts_in_full_and_keeps_the_run_classic(player_client, run):
    with at(run, 20):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        act(player_client, run, command="pause")
    with at(run, 27):
        assert fresh(run).play_seconds() == pytest.approx(27, abs=0.05)
    with at(run, 60):  # while paused the clock stops once the grace is spent
        assert fresh(run).play_seconds() == pytest.approx(20 + solo.PAUSE_GRACE, abs=0.05)
    with at(run, 29):
        act(player_client, run, command="resume")
    with at(run, 90):
        solve(player_client, run, EMPTY[1:])
    finished = fresh(run)
    assert finished.elapsed == pytest.approx(90, abs=0.05) and not finished.assisted


def test_more_than_classic_mistakes_make_the_run_assisted(player_client, run):
    wrong = int(SOLUTION[EMPTY[0]]) % 9 + 1
    with at(run, 1):
        for _ in range(solo.CLASSIC_MISTAKES):
            act(player_client, run, cell=EMPTY[0], digit=wrong)
        assert fresh(run).mistakes == solo.CLASSIC_MISTAKES and not fresh(run).assisted
        response = act(player_client, run, cell=EMPTY[0], digit=wrong)
        assert fresh(run).assisted
        assert b'class="badge assisted"' in response.content  # the badge changes with the answer
    with at(run, 3):
        solve(player_client, run, EMPTY)
    assert fresh(run).assisted and fresh(run).state == "finished"


def test_a_wrong_entry_or_a_hint_counts_as_an_entry(player_client, run):
    wrong = int(SOLUTION[EMPTY[0]]) % 9 + 1
    with at(run, 10):
        act(player_client, run, cell=EMPTY[0], digit=wrong)
        act(player_client, run, command="pause")
    assert fresh(run).active_since is None and fresh(run).play_seconds() == pytest.approx(10, abs=0.5)
    with at(run, 30):
        act(player_client, run, command="resume")
        act(player_client, run, command="hint")
        act(player_client, run, command="pause")
    with at(run, 900):  # each pause counted its first PAUSE_GRACE seconds
        assert fresh(run).play_seconds() == pytest.approx(10 + 2 * solo.PAUSE_GRACE, abs=0.5)


def test_a_note_alone_is_not_an_entry(player_client, run):
    with at(run, 10):
        act(player_client, run, cell=EMPTY[0], digit=1, mode="note")
        act(player_client, run, command="pause")
    with at(run, 500):
        assert fresh(run).play_seconds() == pytest.approx(500, abs=0.5)


def test_long_thinking_without_a_restart_counts_in_full(player_client, run):
    with at(run, 3600):
        solve(player_client, run, EMPTY)
    assert fresh(run).elapsed == pytest.approx(3600, abs=0.5)


def test_server_downtime_is_not_play_time(player_client, run, monkeypatch):
    with at(run, 60):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    # The server was down from some time after the last move until 1:00:00 into the run.
    monkeypatch.setattr(uptime, "STARTED", run.started_at + dt.timedelta(seconds=3600))
    with at(run, 3610):
        act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        # 60 s before, at most RESTART_GRACE of the gap, and the 10 s since the server is back.
        assert fresh(run).play_seconds() == pytest.approx(60 + uptime.RESTART_GRACE + 10, abs=0.5)
    with at(run, 3640):  # after that, the clock runs as usual
        solve(player_client, run, EMPTY[2:])
    assert fresh(run).elapsed == pytest.approx(60 + uptime.RESTART_GRACE + 40, abs=0.5)


def test_downtime_during_a_pause_before_an_entry_is_not_play_time_either(player_client, run, monkeypatch):
    with at(run, 5):
        act(player_client, run, command="pause")
    monkeypatch.setattr(uptime, "STARTED", run.started_at + dt.timedelta(seconds=7200))
    with at(run, 7260):
        act(player_client, run, command="resume")
        assert fresh(run).play_seconds() == pytest.approx(5 + uptime.RESTART_GRACE + 60, abs=0.5)


def test_downtime_runs_from_the_last_heartbeat_before_the_stop(player_client, run, monkeypatch):
    # Issue 28's repro: 90 s without a request, with a restart in them. The server was
    # alive (its last heartbeat) until 80 s after the last move and back 5 s later.
    with at(run, 10):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    with at(run, 90):
        uptime.beat()
    with at(run, 95):
        uptime.start(heartbeat=False)
    assert run.started_at + dt.timedelta(seconds=95) == uptime.STARTED
    with at(run, 100):
        act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        assert fresh(run).play_seconds() == pytest.approx(100 - 5, abs=0.05)


def test_a_restart_beside_a_process_still_up_is_no_downtime(player_client, run, monkeypatch):
    with at(run, 10):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    with at(run, 99):  # another process beats on
        uptime.beat()
    with at(run, 100):
        uptime.start(heartbeat=False)
        act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        assert fresh(run).play_seconds() == pytest.approx(99, abs=0.05)


def test_without_a_heartbeat_the_start_falls_back_to_the_grace(player_client, run, monkeypatch):
    with at(run, 10):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    with at(run, 500):
        uptime.start(heartbeat=False)
    assert uptime.LAST_ALIVE is None
    with at(run, 510):
        act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        assert fresh(run).play_seconds() == pytest.approx(10 + uptime.RESTART_GRACE + 10, abs=0.05)

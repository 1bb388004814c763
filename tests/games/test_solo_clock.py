"""The Solo Run clock (issue 12, section 7): reading the givens, pausing at once and
resuming later gave a 0:03 Classic best for a 23.7 s run. The clock runs from the start
to the finish; a pause stops it only after the first entry; server downtime is not play
time."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from games import solo
from games.models import SoloRun
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


@pytest.fixture(autouse=True)
def no_restart(monkeypatch):
    """The server has been up since long before the run (tests move it when they need to)."""
    monkeypatch.setattr(solo, "PROCESS_STARTED", dt.datetime(2000, 1, 1, tzinfo=dt.UTC))


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


def test_a_pause_after_an_entry_stops_the_clock(player_client, run):
    with at(run, 20):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        response = act(player_client, run, command="pause")
        assert b"The clock is stopped" in response.content
    with at(run, 900):
        act(player_client, run, command="resume")
    with at(run, 960):
        solve(player_client, run, EMPTY[1:])
    assert fresh(run).elapsed == pytest.approx(80, abs=0.5)


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
    with at(run, 900):
        assert fresh(run).play_seconds() == pytest.approx(10, abs=0.5)


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
    monkeypatch.setattr(solo, "PROCESS_STARTED", run.started_at + dt.timedelta(seconds=3600))
    with at(run, 3610):
        act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        # 60 s before, at most RESTART_GRACE of the gap, and the 10 s since the server is back.
        assert fresh(run).play_seconds() == pytest.approx(60 + solo.RESTART_GRACE + 10, abs=0.5)
    with at(run, 3640):  # after that, the clock runs as usual
        solve(player_client, run, EMPTY[2:])
    assert fresh(run).elapsed == pytest.approx(60 + solo.RESTART_GRACE + 40, abs=0.5)


def test_downtime_during_a_pause_before_an_entry_is_not_play_time_either(player_client, run, monkeypatch):
    with at(run, 5):
        act(player_client, run, command="pause")
    monkeypatch.setattr(solo, "PROCESS_STARTED", run.started_at + dt.timedelta(seconds=7200))
    with at(run, 7260):
        act(player_client, run, command="resume")
        assert fresh(run).play_seconds() == pytest.approx(5 + solo.RESTART_GRACE + 60, abs=0.5)

"""Replays and ghost races through the site (docs/rules.md 10): what is recorded when a
room or a run finishes, the replay pages, the secrecy rules, and racing a ghost."""

import datetime as dt
import html
import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.daily.models import Daily
from games.models import Puzzle, SoloRun
from games.sudoku import solo
from players.models import Profile
from replays import record
from replays.models import Track
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import EMPTY, PUZZLE, SOLUTION, client_for
from tests.stats.rated_rooms import blanks, race, wrong_digit

pytestmark = pytest.mark.django_db


def people(*names):
    return [Profile.objects.create(display_name=name) for name in names]


def replay_data(response) -> dict:
    page = response.content.decode()
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def solved_run(player, seconds_per_cell=2, puzzle=None, **fields):
    puzzle = puzzle or Puzzle.objects.create(
        level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=1
    )
    run = solo.new_run(player, puzzle, **fields)
    start = run.started_at
    wrong = solo.SoloAction("enter", EMPTY[0], wrong_digit(EMPTY[0]))
    solo.act(run.pk, player, wrong, now=start + dt.timedelta(seconds=1))
    for n, cell in enumerate(EMPTY):
        at = start + dt.timedelta(seconds=seconds_per_cell * (n + 1))
        solo.act(run.pk, player, solo.SoloAction("enter", cell, int(SOLUTION[cell])), now=at)
    run.refresh_from_db()
    assert run.state == SoloRun.State.FINISHED
    return run


def test_a_finished_room_is_recorded_per_seat_at_the_server_times():
    ada, grace = people("Ada", "Grace")
    room = race([ada, grace], finish=[(grace, 30), (ada, 45)])
    found = {t.name: t for t in record.record_room(room)}
    assert set(found) == {"Ada", "Grace"}
    # The helper plays 3.5 s after the Start: the race itself began 0.5 s before.
    assert found["Grace"].place == 1 and found["Grace"].finish_ms == 30_500
    events = found["Ada"].event_list
    assert len(events) == len(blanks(room)) and {e[3] for e in events} == {"c"}
    assert events[0][0] == 45_500 == found["Ada"].finish_ms  # at the server's time of each entry
    assert record.record_room(room) and Track.objects.count() == 2  # once


def test_the_room_replay_page_plays_every_board(client):
    ada, grace = people("Ada", "Grace")
    room = race([ada, grace], finish=[(grace, 30), (ada, 45)])
    response = client.get(reverse("room_replay", args=[room.code.lower()]))
    assert response.status_code == 200
    data = replay_data(response)
    assert [lane["name"] for lane in data["lanes"]] == ["Grace", "Ada"]
    assert data["length"] == 45_500 and data["givens"] == room.puzzle.givens
    body = response.content.decode()
    assert "Standings at this moment" in body and "Race Grace's ghost" in body
    assert len(body) <= 60 * 1024


def test_no_replay_of_a_running_room_nor_an_unknown_code(client):
    ada, grace = people("Ada", "Grace")
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=1)
    room = create_room(ada, level="easy")
    act(room.code, grace, A.Join())
    response = client.get(reverse("room_replay", args=[room.code]))
    assert response.status_code == 404 and b"once it is over" in response.content
    assert client.get(reverse("room_replay", args=["NOPE99"])).status_code == 404
    assert client.get(reverse("room_replay", args=["<x>"])).status_code == 404
    assert not Track.objects.exists()


def test_a_solo_run_is_recorded_at_its_finish_with_its_mistake():
    (ada,) = people("Ada")
    run = solved_run(ada)
    track = Track.objects.get(run=run)
    assert track.finish_ms == round(run.elapsed * 1000) and track.mistakes == 1
    assert track.event_list[0] == [1000, EMPTY[0], wrong_digit(EMPTY[0]), "w"]
    assert all(ms is not None for ms in track.splits)


def test_the_run_replay_page_and_racing_its_ghost():
    ada, ben = people("Ada", "Ben")
    run = solved_run(ada)
    page = client_for(ben).get(reverse("run_replay", args=[run.pk]))
    assert page.status_code == 200 and replay_data(page)["lanes"][0]["name"] == "Ada"
    track = Track.objects.get(run=run)
    answer = client_for(ben).post(reverse("race_ghost", args=[track.pk]))
    ghost_run = SoloRun.objects.get(player=ben)
    assert answer.status_code == 302 and answer["Location"] == reverse("solo_run", args=[ghost_run.pk])
    assert ghost_run.ghost == track and ghost_run.puzzle == run.puzzle and not ghost_run.practice
    body = client_for(ben).get(answer["Location"]).content.decode()
    found = re.search(r'data-ghosts="(.*?)"', body)
    assert found is not None
    (ghost,) = json.loads(html.unescape(found.group(1)))["ghosts"]
    assert ghost["name"] == "Ada" and ghost["finish"] == track.finish_ms
    # The ghost's cells, never its digits: nothing in the page says what a cell holds.
    assert all(len(step) == 3 and step[2] in (0, 1) for step in ghost["line"])


def test_ghost_routes_refuse_what_they_do_not_know(client):
    assert client.post(reverse("race_ghost", args=[999])).status_code == 404
    assert client.get(reverse("race_ghost", args=[1])).status_code == 405
    assert client.get(reverse("run_replay", args=[999])).status_code == 404
    assert not SoloRun.objects.exists()


def test_a_daily_replay_opens_only_after_the_player_finished_it():
    ada, ben = people("Ada", "Ben")
    today = timezone.now().date()
    puzzle = Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=1)
    daily = Daily.objects.create(date=today, level="easy", puzzle=puzzle)
    run = solved_run(ada, puzzle=puzzle, daily=daily)
    track = Track.objects.get(run=run)
    assert track.ranked and track.daily == daily
    before = client_for(ben).get(reverse("run_replay", args=[run.pk]))
    assert before.status_code == 403 and b"finished it" in before.content and SOLUTION.encode() not in before.content
    assert client_for(ben).post(reverse("race_ghost", args=[track.pk])).status_code == 403
    assert not SoloRun.objects.filter(player=ben).exists()
    solved_run(ben, puzzle=puzzle, daily=Daily.objects.get(pk=daily.pk), practice=True)  # Ben finished it
    assert client_for(ben).get(reverse("run_replay", args=[run.pk])).status_code == 200
    client_for(ben).post(reverse("race_ghost", args=[track.pk]))
    ghost_run = SoloRun.objects.filter(player=ben, ghost=track).get()
    assert ghost_run.practice and ghost_run.daily == daily  # practice: never a second ranked attempt


def test_a_closed_daily_opens_to_everyone():
    (ada,) = people("Ada")
    puzzle = Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=1)
    daily = Daily.objects.create(date=timezone.now().date() - dt.timedelta(days=3), level="easy", puzzle=puzzle)
    run = solved_run(ada, puzzle=puzzle, daily=daily, practice=True)
    assert client_for(people("Cleo")[0]).get(reverse("run_replay", args=[run.pk])).status_code == 200

"""The Solo Run finish screen (issue 14): the score's parts, the comparison with the
personal best and the recent average, the server-drawn chart, and the celebration only
on the answer that finished the run."""

import datetime as dt
import re
from html import unescape

import time_machine
from django.urls import reverse
from django.utils import timezone

from games.engines import race
from games.models import SoloRun
from games.sudoku import solo
from tests.conftest import EMPTY, PUZZLE, SOLUTION

HX = {"HTTP_HX_REQUEST": "true"}


def finished_run(player, puzzle, seconds, *, assisted=False, days_ago=1, level="easy"):
    board = race.Board.new(tuple(map(int, PUZZLE)))
    return SoloRun.objects.create(
        player=player,
        puzzle=puzzle,
        level=level,
        board=board.to_dict(),
        state="finished",
        assisted=assisted,
        elapsed=seconds,
        score=500,
        finished_at=timezone.now() - dt.timedelta(days=days_ago),
    )


def play_to_the_end(client, run, seconds=95, wrong_first=False):
    with time_machine.travel(run.started_at + dt.timedelta(seconds=seconds), tick=False):
        if wrong_first:
            client.post(
                reverse("solo_act", args=[run.pk]), {"cell": EMPTY[0], "digit": int(SOLUTION[EMPTY[0]]) % 9 + 1}, **HX
            )
        for cell in EMPTY:
            response = client.post(reverse("solo_act", args=[run.pk]), {"cell": cell, "digit": SOLUTION[cell]}, **HX)
    return response


def test_score_parts_add_up_to_the_score():
    board = race.Board.new(tuple(map(int, PUZZLE)))
    to_fill = board.to_fill
    done = race.Board(
        board.givens,
        tuple(map(int, SOLUTION)),
        hinted=frozenset({2, 3}),
        score=0,
        mistakes=3,
        hints=2,
        status=race.Status.FINISHED,
    )
    score = (to_fill - 2) * 10 - 50 - 15 + 100
    done = race.Board(done.givens, done.cells, done.hinted, score=score, mistakes=3, hints=2, status=done.status)
    parts = solo.score_parts(done, race.STANDARD)
    assert parts == [
        (f"{to_fill - 2} correct entries × 10", (to_fill - 2) * 10),
        ("2 hints × −25", -50),
        ("3 mistakes", -15),
        ("Finish bonus", 100),
    ]
    assert sum(points for _, points in parts) == score


def test_a_penalty_taken_at_zero_shows_as_its_own_line():
    """A mistake at 0 points costs nothing (the score never goes below 0): the parts say so."""
    board = race.Board.new(tuple(map(int, PUZZLE)))
    done = race.Board(
        board.givens, tuple(map(int, SOLUTION)), score=board.to_fill * 10 + 100, mistakes=1, status=race.Status.FINISHED
    )
    parts = solo.score_parts(done, race.STANDARD)
    # Issue 27: no positive "Penalties taken at 0 points +5" line; the mistake's own line says it cost nothing.
    assert parts[-2:] == [("1 mistake (what came at 0 points cost nothing)", 0), ("Finish bonus", 100)]
    assert all(points >= 0 or "mistake" not in label for label, points in parts)
    assert sum(points for _, points in parts) == done.score


def test_finish_compares_with_earlier_finishes_on_the_same_board_only(player, other_player, bank_puzzle):
    for seconds in (300, 200, 250):
        finished_run(player, bank_puzzle, seconds)
    finished_run(player, bank_puzzle, 100, assisted=True)  # another board
    finished_run(player, bank_puzzle, 90, level="medium")  # another level
    finished_run(other_player, bank_puzzle, 80)  # another player
    run = finished_run(player, bank_puzzle, 180, days_ago=0)
    finish = solo.finish_summary(run)
    assert finish.best_before == 200 and finish.average_before == 250 and finish.new_best
    assert finish.versus_best == {"value": 200, "delta": 20, "faster": True, "same": False}
    assert finish.versus_average["delta"] == 70 and finish.versus_average["faster"]
    assert [d["label"] for d in finish.chart.dots] == ["5:00", "3:20", "4:10", "This run: 3:00"]
    assert finish.chart.dots[-1]["last"] and not finish.chart.dots[0]["last"]
    assert finish.chart.summary.endswith("This run: 3:00.")


def test_the_first_finish_on_a_board_is_its_best_and_draws_no_chart(player, bank_puzzle):
    run = finished_run(player, bank_puzzle, 180, days_ago=0)
    finish = solo.finish_summary(run)
    assert finish.best_before is None and finish.average_before is None and finish.new_best
    assert finish.versus_best is None and finish.chart is None


def test_a_slower_finish_is_not_a_best(player, bank_puzzle):
    finished_run(player, bank_puzzle, 100)
    run = finished_run(player, bank_puzzle, 160, days_ago=0)
    finish = solo.finish_summary(run)
    assert not finish.new_best and finish.versus_best == {"value": 100, "delta": 60, "faster": False, "same": False}


def test_the_finishing_answer_celebrates_and_shows_everything(player_client, player, run):
    for seconds in (130, 110):
        finished_run(player, run.puzzle, seconds)
    html = play_to_the_end(player_client, run, wrong_first=True).content.decode()
    assert 'class="finish panel celebrate"' in html and 'data-sound="finish"' in html
    assert html.count("<i></i>") == 18  # the confetti
    assert "1:35" in html and "New personal best!" in html
    assert re.search(r"Personal best before: <strong>1:50</strong> · 0:15 faster", html)
    assert re.search(r"Recent average: <strong>2:00</strong> · 0:25 faster", html)
    assert "Finish bonus</th><td>+100" in html
    assert '<svg viewBox="0 0 360 150" role="img"' in html and 'class="chart-dot best last"' in html
    # the wrong entry came at 0 points: its line says so and costs nothing (no "+5" penalty line)
    assert "1 mistake (what came at 0 points cost nothing)</th><td>0" in html and "Penalties" not in html
    assert SOLUTION not in html


def test_the_finish_on_a_reload_is_still_and_silent(player_client, run):
    play_to_the_end(player_client, run)
    html = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    assert 'aria-label="Finished"' in html and "Your first Classic Easy finish" in html
    assert "celebrate" not in html and 'data-sound="finish"' not in html and "confetti" not in html
    assert "class=\"chart\"" not in html  # one finish: nothing to chart yet


def test_sound_files_are_small_and_served(player_client, bank_puzzle):
    """The cues' files (moved from tests/browser/test_look_browser.py): the page names them on
    sound.js's script tag, and they are served as audio, small. Served as the browser tests'
    live server serves static files (Django's StaticFilesHandler)."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    html = player_client.get("/").content.decode()
    tags = re.findall(r"<script\b[^>]*\bdata-wrong=[^>]*>", html)
    assert len(tags) == 1, tags
    static = StaticFilesHandler(WSGIHandler())
    for name in ("wrong", "finish"):
        url = unescape(re.search(rf'\sdata-{name}="([^"]*)"', tags[0]).group(1))
        response = static.get_response(RequestFactory().get(url))
        assert 200 <= response.status_code < 300 and response["Content-Type"].startswith("audio/"), (url, response)
        assert 1000 < len(b"".join(response.streaming_content)) < 10_000


def test_production_serves_the_sound_cues_as_audio(settings):
    """WhiteNoise (production's static files) knows no .wav by itself: the cues went out as
    application/octet-stream. The middleware's own media types, as settings configure it."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    whitenoise = WhiteNoiseMiddleware(get_response=lambda request: None, settings=settings)
    assert whitenoise.media_types.get_type("static/sounds/wrong.wav") == "audio/wav"

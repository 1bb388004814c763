"""Solo Run through its views: every move, every refusal, pause and the finish."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from games.models import Puzzle, SoloRun
from tests.conftest import EMPTY, SOLUTION, client_for

HX = {"HTTP_HX_REQUEST": "true"}


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def fresh(run):
    return SoloRun.objects.get(pk=run.pk)


def wrong(cell):
    return int(SOLUTION[cell]) % 9 + 1


def test_new_run_takes_the_banked_puzzle(player_client, player, bank_puzzle):
    response = player_client.post(reverse("solo_new"), {"level": "easy"})
    run = SoloRun.objects.get(player=player)
    assert response.status_code == 302 and response["Location"] == reverse("solo_run", args=[run.pk])
    assert run.puzzle == bank_puzzle and Puzzle.objects.get(pk=bank_puzzle.pk).used_at is not None


def test_new_run_rejects_unknown_level(player_client, bank_puzzle):
    response = player_client.post(reverse("solo_new"), {"level": "insane"})
    assert response.status_code == 400 and b"Pick Easy, Medium, Hard or Expert" in response.content
    assert not SoloRun.objects.exists()


def test_run_page_shows_board_but_never_the_solution(player_client, run):
    html = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    assert 'role="grid"' in html and 'aria-label="Row 1, column 1, 5, given"' in html
    assert 'aria-label="Row 1, column 3, empty"' in html  # empty cell: no value in its name
    assert SOLUTION not in html
    for name in ("Notes", "Hint", "Pause"):
        assert f">{name}</button>" in html


def test_correct_entry_scores_and_locks(player_client, run):
    response = act(player_client, run, cell=2, digit=4)
    assert response.status_code == 200 and b"4 is correct" in response.content
    assert b'aria-label="Row 1, column 3, 4"' in response.content
    run = fresh(run)
    assert run.score == 10 and run.get_board().cells[2] == 4
    response = act(player_client, run, cell=2, digit=4)
    assert response.status_code == 409 and b"already solved" in response.content
    assert fresh(run).score == 10


def test_wrong_entry_is_removed_with_a_message(player_client, run):
    response = act(player_client, run, cell=2, digit=wrong(2))
    assert response.status_code == 200 and b"is not right" in response.content
    run = fresh(run)
    assert run.mistakes == 1 and run.score == 0 and run.get_board().cells[2] == 0


@pytest.mark.parametrize(
    "data, status, message",
    [
        ({"cell": 0, "digit": 3}, 409, b"is a given"),
        ({"cell": 2, "digit": 0}, 400, b"The digit must be between 1 and 9"),
        ({"cell": 2, "digit": 10}, 400, b"The digit must be between 1 and 9"),
        ({"cell": 2, "digit": "x"}, 400, b"must be a number"),
        ({"cell": 99, "digit": 4}, 400, b"The cell must be between 0 and 80"),
        ({"digit": 4}, 400, b"Pick a cell"),
        ({"cell": 2}, 400, b"Choose a digit"),
        ({"cell": 2, "digit": 4, "mode": "pen"}, 400, b"Mode must be"),
        ({"command": "solve"}, 400, b"Unknown command"),
    ],
)
def test_refusals_change_nothing(player_client, run, data, status, message):
    before = fresh(run).board
    response = act(player_client, run, **data)
    assert response.status_code == status and message in response.content
    assert fresh(run).board == before and fresh(run).moves == 0


def test_someone_elses_run_is_refused(run, other_player):
    response = act(client_for(other_player), run, cell=2, digit=4)
    assert response.status_code == 403 and b"not yours" in response.content
    assert fresh(run).moves == 0
    page = client_for(other_player).get(reverse("solo_run", args=[run.pk]))
    assert page.status_code == 403 and b'role="grid"' not in page.content


def test_unknown_run_and_wrong_method(player_client, run):
    assert act(player_client, type("R", (), {"pk": 999999})(), cell=2, digit=4).status_code == 403
    assert player_client.get(reverse("solo_act", args=[run.pk])).status_code == 405
    assert player_client.get(reverse("solo_run", args=[999999])).status_code == 404


def test_notes_are_kept_on_the_server(player_client, run):
    act(player_client, run, cell=2, digit=1, mode="note")
    act(player_client, run, cell=2, digit=4, mode="note")
    assert fresh(run).get_board().notes_at(2) == [1, 4]
    html = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    assert 'class="notes"' in html


def test_a_cells_notes_are_cleared_and_restored_in_one_move_each(player_client, run):
    """Backspace clears a cell's notes; the page's Undo note sends the marks as they were."""
    for digit in (1, 4, 7):
        act(player_client, run, cell=2, digit=digit, mode="note")
    version = fresh(run).moves
    response = act(player_client, run, action="notes", cell=2, marks="", version=version)
    assert response.status_code == 200 and 'aria-label="Row 1, column 3, empty"' in response.content.decode()
    assert fresh(run).get_board().notes_at(2) == [] and fresh(run).moves == version + 1
    act(player_client, run, action="notes", cell=2, marks="147", version=version + 1)
    run = fresh(run)
    assert run.get_board().notes_at(2) == [1, 4, 7] and (run.score, run.mistakes, run.assisted) == (0, 0, False)
    refused = act(player_client, run, action="notes", cell=0, marks="1")  # a given
    assert refused.status_code == 409 and "already filled" in refused.content.decode()
    assert act(player_client, run, action="notes", cell=2, marks="x").status_code == 400
    assert fresh(run).get_board().notes_at(2) == [1, 4, 7]


def test_hint_makes_the_run_assisted_for_good(player_client, run):
    response = act(player_client, run, command="hint", cell=2)
    assert response.status_code == 200 and b"Hint: 4" in response.content
    run = fresh(run)
    assert run.assisted and run.hints == 1 and run.get_board().cells[2] == 4
    act(player_client, run, command="hint")
    act(player_client, run, command="hint")
    response = act(player_client, run, command="hint")
    assert response.status_code == 409 and b"No hints left" in response.content
    assert fresh(run).hints == 3


def test_pause_hides_the_board_and_stops_the_clock(player_client, run):
    start = run.started_at
    with time_machine.travel(start + dt.timedelta(seconds=30), tick=False):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])  # a pause counts after an entry
        response = act(player_client, run, command="pause")
        assert response.status_code == 200 and b'role="grid"' not in response.content
        assert b"Resume" in response.content
    with time_machine.travel(start + dt.timedelta(seconds=600), tick=False):
        page = player_client.get(reverse("solo_run", args=[run.pk])).content
        assert b'role="grid"' not in page and b"data-cell" not in page
        response = act(player_client, run, cell=EMPTY[1], digit=SOLUTION[EMPTY[1]])
        assert response.status_code == 409 and b"paused" in response.content
        assert fresh(run).get_board().cells[EMPTY[1]] == 0
        act(player_client, run, command="resume")
    with time_machine.travel(start + dt.timedelta(seconds=610), tick=False):
        # 30 s, the pause's first 10 s (it then made the run Assisted), 10 s since the resume
        assert fresh(run).play_seconds() == pytest.approx(30 + SoloRun.PAUSE_GRACE + 10, abs=0.5)


def test_finishing_records_time_and_shows_the_finish_screen(player_client, run):
    start = run.started_at
    with time_machine.travel(start + dt.timedelta(seconds=95), tick=False):
        act(player_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
        act(player_client, run, cell=EMPTY[1], digit=wrong(EMPTY[1]))  # -5 once the score allows it
        for cell in EMPTY[1:]:
            response = act(player_client, run, cell=cell, digit=SOLUTION[cell])
    assert b"Solved!" in response.content
    run = fresh(run)
    assert run.state == "finished" and run.elapsed == pytest.approx(95, abs=0.5)
    assert run.score == 10 * len(EMPTY) - 5 + 100 and run.mistakes == 1 and not run.assisted
    response = act(player_client, run, cell=2, digit=4)
    assert response.status_code == 409 and b"finished" in response.content


def test_a_run_in_progress_survives_a_reload(player_client, run):
    act(player_client, run, cell=2, digit=4)
    home = player_client.get("/").content.decode()
    assert "Continue run" in home
    page = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    assert 'aria-label="Row 1, column 3, 4"' in page


def test_non_htmx_post_redirects_back_to_the_run(player_client, run):
    response = player_client.post(reverse("solo_act", args=[run.pk]), {"cell": 2, "digit": 4})
    assert response.status_code == 302 and fresh(run).score == 10


def test_csrf_is_enforced(player, run):
    from django.test import Client

    from tests.conftest import cookie_for

    client = Client(enforce_csrf_checks=True)
    client.cookies["showdown_player"] = cookie_for(player)
    response = client.post(reverse("solo_act", args=[run.pk]), {"cell": 2, "digit": 4}, **HX)
    assert response.status_code == 403 and fresh(run).moves == 0

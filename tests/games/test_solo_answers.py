"""What a Solo Run move answers: only what changed, as out-of-band swaps; the whole game
only on pause, resume, the finish, a refusal the rules made and a version gap."""

import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import SoloRun
from games.sudoku import fragments
from tests.conftest import EMPTY, SOLUTION

HX = {"HTTP_HX_REQUEST": "true"}
VOID = {"input", "br", "img", "meta", "link", "hr"}
CELL = re.compile(r'<div hx-swap-oob="true" id="cell-(\d+)" role="gridcell"')


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def fresh(run):
    return SoloRun.objects.get(pk=run.pk)


def wrong(cell):
    return int(SOLUTION[cell]) % 9 + 1


def test_a_correct_entry_answers_with_its_cell_and_no_other(player_client, run):
    response = act(player_client, run, cell=2, digit=4, version=0)
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none settle:0ms"
    assert html.count('role="gridcell"') == 1 and CELL.findall(html) == ["2"]
    board = fresh(run).get_board()
    assert (
        fragments.oob(
            fragments.sudoku_cell(board, 2, selected=True).replace(
                'class="cell entered selected', 'class="cell entered selected fresh'
            )
        )
        in html
    )
    assert fragments.score_stat(10, oob=True) in html
    assert fragments.pad_button(4, 9 - board.cells.count(4), oob=True) in html and html.count("<button") == 1
    assert "4 is correct." in html and 'class="message is-good"' in html
    assert fragments.version_input(1, oob=True) in html
    assert "data-mistakes" not in html and "data-hints" not in html and 'id="game"' not in html
    assert len(response.content) <= 3 * 1024


def top_level(html: str) -> list[dict]:
    """The attributes of each top-level element of an answer."""
    tops, depth = [], 0

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            nonlocal depth
            if depth == 0:
                tops.append(dict(attrs))
            if tag not in VOID:
                depth += 1

        def handle_endtag(self, tag):
            nonlocal depth
            depth -= 1

    Parser().feed(html)
    return tops


def test_every_top_level_element_of_an_answer_swaps_by_id(player_client, run):
    html = act(player_client, run, cell=2, digit=4, version=0).content.decode()
    tops = top_level(html)
    assert [t["id"] for t in tops] == ["cell-2", "stat-score", "digit-4", "game-message", "game-version"]
    assert all(t["hx-swap-oob"] == "true" for t in tops)


def test_an_entry_answers_with_the_peers_whose_notes_it_cleared(player_client, run):
    act(player_client, run, cell=3, digit=4, mode="note", version=0)  # cell 3 is in row 1 with cell 2
    act(player_client, run, cell=3, digit=6, mode="note", version=1)
    html = act(player_client, run, cell=2, digit=4, version=2).content.decode()
    assert CELL.findall(html) == ["2", "3"]
    assert 'aria-label="Row 1, column 4, notes 6"' in html


def test_a_wrong_entry_answers_with_the_flashing_cell_mistakes_and_score(player_client, run):
    act(player_client, run, cell=2, digit=4, version=0)
    response = act(player_client, run, cell=3, digit=wrong(3), version=1)
    html = response.content.decode()
    assert response.status_code == 200 and CELL.findall(html) == ["3"]
    assert f'data-wrong="{wrong(3)}"' in html and 'class="cell selected wrong"' in html and 'data-value=""' in html
    assert fragments.mistakes_stat(1, oob=True) in html and fragments.score_stat(5, oob=True) in html
    assert "is not right" in html and "is-error" in html and "<button" not in html
    assert fresh(run).get_board().cells[3] == 0


def test_a_note_answers_with_its_cell_and_the_message(player_client, run):
    html = act(player_client, run, cell=2, digit=7, mode="note", version=0).content.decode()
    assert CELL.findall(html) == ["2"] and 'aria-label="Row 1, column 3, notes 7"' in html
    assert "data-score" not in html and fragments.version_input(1, oob=True) in html


def test_a_hint_answers_with_the_cell_counters_hint_button_and_badge(player_client, run):
    html = act(player_client, run, command="hint", cell=2, version=0).content.decode()
    assert CELL.findall(html) == ["2"] and 'class="cell hinted selected fresh' in html
    assert fragments.hints_stat(1, 3, oob=True) in html and fragments.hint_button(2, oob=True) in html
    assert fragments.run_badge(True, oob=True) in html and "Hint: 4" in html
    act(player_client, run, command="hint", version=1)
    html = act(player_client, run, command="hint", version=2).content.decode()
    assert fragments.hint_button(0, oob=True) in html and 'id="run-kind"' not in html


def test_a_version_gap_answers_with_the_whole_game(player_client, run):
    act(player_client, run, cell=2, digit=4, version=0)
    response = act(player_client, run, cell=3, digit=6, version=0)  # this page missed the first answer
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Reswap" not in response
    assert html.count('role="gridcell"') == 81 and 'id="game"' in html
    assert 'aria-label="Row 1, column 3, 4"' in html and 'aria-label="Row 1, column 4, 6"' in html
    assert fragments.version_input(2) in html and fresh(run).moves == 2


def test_a_move_without_a_version_answers_with_fragments(player_client, run):
    html = act(player_client, run, cell=2, digit=4).content.decode()
    assert CELL.findall(html) == ["2"]


def test_a_malformed_move_answers_with_the_message_alone(player_client, run):
    response = act(player_client, run, cell=2, digit=12, version=0)
    html = response.content.decode()
    assert response.status_code == 400 and response["HX-Reswap"] == "none settle:0ms"
    assert html == fragments.outcome_message(error="The digit must be between 1 and 9.", oob=True)


def test_a_refused_move_answers_with_the_whole_game(player_client, run):
    response = act(player_client, run, cell=0, digit=5, version=0)
    assert response.status_code == 409 and response.content.decode().count('role="gridcell"') == 81
    assert b"is a given" in response.content


def test_pause_resume_and_finish_answer_with_the_whole_game(player_client, run):
    assert b"Resume" in act(player_client, run, command="pause", version=0).content
    assert act(player_client, run, command="resume", version=0).content.decode().count('role="gridcell"') == 81
    for n, cell in enumerate(EMPTY):
        response = act(player_client, run, cell=cell, digit=SOLUTION[cell], version=n)
    assert b"Solved!" in response.content and b'id="game"' in response.content


def statements_of(client, run, **data) -> list[tuple[str, str]]:
    with CaptureQueriesContext(connection) as queries:
        act(client, run, **data)
    return [(q["sql"].split()[0].upper(), q["sql"]) for q in queries.captured_queries]


def test_a_move_is_one_read_and_one_write_and_then_one_write(player_client, run, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # committed: this process keeps the run
        first = statements_of(player_client, run, cell=2, digit=4, version=0)
    # the run (with its puzzle, found by the cookie's player token) and its update: no
    # transaction, no lock (games/common/rowwriter.py)
    assert [kind for kind, _ in first] == ["SELECT", "UPDATE"], first
    assert "solorun" in first[0][1] and "token" in first[0][1] and "FOR UPDATE" not in first[0][1]
    assert [kind for kind, _ in statements_of(player_client, run, cell=3, digit=6, version=1)] == ["UPDATE"]
    assert fresh(run).moves == 2 and fresh(run).get_board().cells[2:4] == (4, 6)


@pytest.mark.parametrize("field", ["cell", "digit", "version"])
@pytest.mark.parametrize("value", ["²", "３", "٣", "3\u0663", "1_0", "+3", "-1", " ", "0x1"])
def test_non_ascii_and_odd_numbers_are_a_400_with_a_message(player_client, run, field, value):
    data = {"cell": 2, "digit": 4, "version": 0, field: value}
    if value == " " and field == "version":
        return  # a blank version is "unknown"
    response = act(player_client, run, **data)
    assert response.status_code == 400
    assert (
        b"must be a number" in response.content
        or b"Pick a cell" in response.content
        or b"Choose a digit" in response.content
    )
    assert fresh(run).moves == 0


@pytest.mark.parametrize("value", ["²", "３", "٣"])
def test_non_ascii_numbers_without_htmx_are_a_400_page(player_client, run, value):
    response = player_client.post(reverse("solo_act", args=[run.pk]), {"cell": value, "digit": 4})
    assert response.status_code == 400 and b"must be a number" in response.content

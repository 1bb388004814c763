"""The Sudoku fragment builders (games/sudoku/fragments.py): the page and a move's answer are the
same markup, escaped, with stable ids."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.engines import race
from games.sudoku import fragments
from tests.conftest import PUZZLE, SOLUTION

GIVENS = tuple(map(int, PUZZLE))
SOLVED = tuple(map(int, SOLUTION))
CELL = re.compile(r'<div id="cell-(\d+)"[^>]*>.*?</div>', re.S)


def board():
    return race.Board.new(GIVENS)


def test_a_cell_has_a_stable_id_the_grid_attributes_and_no_oob_by_default():
    html = fragments.sudoku_cell(board(), 0)
    assert html.startswith('<div id="cell-0" role="gridcell" class="cell given"')
    assert 'aria-label="Row 1, column 1, 5, given"' in html and 'data-value="5"' in html
    assert 'data-cell="0" data-row="1" data-col="1" data-box="1"' in html
    assert "hx-swap-oob" not in html and 'tabindex="-1" aria-selected="false"' in html
    assert html.endswith('<span class="value">5</span></div>')


def test_empty_selected_and_notes_cells():
    b, _ = race.toggle_note(board(), race.STANDARD, 2, 4)
    b, _ = race.toggle_note(b, race.STANDARD, 2, 1)
    html = fragments.sudoku_cell(b, 2, selected=True)
    assert 'class="cell selected box-right"' in html and 'tabindex="0" aria-selected="true"' in html
    assert 'aria-label="Row 1, column 3, notes 1 4"' in html and 'data-value=""' in html
    assert '<span class="notes" aria-hidden="true"><span>1</span> <span></span> <span></span> <span>4</span> ' in html


def test_flash_marks_the_moved_cell_only():
    b, outcome = race.enter(board(), race.STANDARD, SOLVED, 2, 4)
    assert 'class="cell entered fresh box-right"' in fragments.sudoku_cell(b, 2, flash=outcome)
    assert "fresh" not in fragments.sudoku_cell(b, 3, flash=outcome)
    b, outcome = race.enter(b, race.STANDARD, SOLVED, 3, 1)
    html = fragments.sudoku_cell(b, 3, flash=outcome)
    assert 'class="cell wrong"' in html and 'data-wrong="1"' in html and 'data-value=""' in html
    assert 'aria-label="Row 1, column 4, empty"' in html  # the refused digit is no part of the cell's name


def test_oob_marks_the_top_level_element_only():
    cell = fragments.sudoku_cell(board(), 40)
    assert fragments.sudoku_cell(board(), 40, oob=True) == fragments.oob(cell)
    assert fragments.oob(cell).startswith('<div hx-swap-oob="true" id="cell-40" role="gridcell"')
    assert fragments.oob(cell).count("hx-swap-oob") == 1
    assert fragments.oob("<p>x</p>") == '<p hx-swap-oob="true">x</p>'
    assert fragments.score_stat(5, oob=True) == '<dd hx-swap-oob="true" id="stat-score" data-score>5</dd>'


def test_counters_pad_and_message():
    assert fragments.mistakes_stat(2) == '<dd id="stat-mistakes" data-mistakes>2</dd>'
    assert fragments.mistakes_stat(2, 3).endswith("data-mistakes>2 / 3</dd>")
    assert fragments.hints_stat(1, 3).endswith("data-hints>1 / 3</dd>")
    assert 'class="digit done"' in fragments.pad_button(4, 0) and 'data-left="0"' in fragments.pad_button(4, 0)
    assert 'id="digit-4"' in fragments.pad_button(4, 2) and 'class="digit"' in fragments.pad_button(4, 2)
    assert " disabled" in fragments.hint_button(0) and "disabled" not in fragments.hint_button(1)
    assert fragments.message() == '<p id="game-message" class="message" role="status">&nbsp;</p>'
    assert fragments.message("Hi", kind="good", element_id="room-message").startswith(
        '<p id="room-message" class="message is-good" role="status">Hi'
    )
    assert 'name="version" value="7"' in fragments.version_input(7)


def test_everything_is_escaped():
    html = fragments.message('<script>alert("x")</script> & \'', kind="error")
    assert "<script>" not in html and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;" in html
    assert 'id="a&quot;b"' in fragments.message("x", element_id='a"b')


def test_outcome_message_classes():
    b, correct = race.enter(board(), race.STANDARD, SOLVED, 2, 4)
    _, wrong = race.enter(b, race.STANDARD, SOLVED, 3, 1)
    assert "is-good" in fragments.outcome_message(correct) and "4 is correct." in fragments.outcome_message(correct)
    assert "is-error" in fragments.outcome_message(wrong)
    assert "is-error" in fragments.outcome_message(error="No.") and "No." in fragments.outcome_message(error="No.")
    assert 'class="message" role="status">&nbsp;' in fragments.outcome_message("", "")  # a template's missing variable


def test_a_correct_entry_changes_exactly_one_cell():
    before = board()
    after, _ = race.enter(before, race.STANDARD, SOLVED, 2, 4)
    assert fragments.changed_cells(before, after) == [2]


def test_an_entry_that_clears_peer_notes_changes_those_cells_too():
    before, _ = race.toggle_note(board(), race.STANDARD, 3, 4)  # a peer of cell 2 in row 1
    before, _ = race.toggle_note(before, race.STANDARD, 3, 6)
    before, _ = race.toggle_note(before, race.STANDARD, 77, 4)  # not a peer: untouched
    after, _ = race.enter(before, race.STANDARD, SOLVED, 2, 4)
    assert fragments.changed_cells(before, after) == [2, 3]
    assert after.notes_at(3) == [6]


def test_the_page_grid_renders_the_same_cells_as_the_builder():
    b, outcome = race.enter(board(), race.STANDARD, SOLVED, 2, 4)
    b, _ = race.toggle_note(b, race.STANDARD, 5, 7)
    html = render_to_string("games/board.html#grid", {"rows": fragments.sudoku_rows(b, 5, outcome)})
    cells = CELL.findall(html)
    assert cells == [str(i) for i in range(81)]
    page = {m.group(1): m.group(0) for m in CELL.finditer(html)}
    for i in range(81):
        assert page[str(i)] == fragments.sudoku_cell(b, i, selected=i == 5, flash=outcome)


@pytest.mark.django_db
def test_the_solo_page_cells_equal_the_fragments(player_client, run):
    player_client.post(reverse("solo_act", args=[run.pk]), {"cell": 2, "digit": 4})
    run.refresh_from_db()
    html = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    b = run.get_board()
    for i in range(81):
        assert fragments.sudoku_cell(b, i) in html
    for d, left in fragments.pad_left(b):
        assert fragments.pad_button(d, left) in html
    assert fragments.score_stat(10) in html and fragments.hints_stat(0, 3) in html
    assert fragments.version_input(1) in html

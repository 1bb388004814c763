"""games/sudoku/play.py: one parser for every Sudoku board move (Solo Run's form posts and
Showdown's socket messages) and one way to apply it. Pure: no Django."""

import subprocess
import sys

import pytest

from games.engines import race
from games.sudoku import play, solo
from rooms import actions as A
from rooms.gametypes import GAME_TYPES

PUZZLE = tuple(map(int, "530070000600195000098000060800060003400803001700020006060000280000419005000080079"))
SOLUTION = tuple(map(int, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"))


@pytest.mark.parametrize(
    "data, move",
    [
        ({"cell": "2", "digit": "4"}, play.Enter(2, 4)),
        ({"cell": 2, "digit": 4, "mode": "enter"}, play.Enter(2, 4)),
        ({"cell": " 2 ", "digit": "4", "mode": "note"}, play.Note(2, 4)),
        ({"action": "note", "cell": "80", "digit": "9"}, play.Note(80, 9)),
        ({"action": "enter", "cell": "0", "digit": "1", "mode": "note"}, play.Enter(0, 1)),  # the action wins
        ({"command": "hint"}, play.Hint(None)),
        ({"command": "hint", "cell": ""}, play.Hint(None)),
        ({"action": "hint", "cell": "40"}, play.Hint(40)),
        ({"action": "notes", "cell": "3", "marks": "52"}, play.SetNotes(3, 1 << 2 | 1 << 5)),
        ({"action": "notes", "cell": 3, "marks": "", "mode": "note", "digit": "7"}, play.SetNotes(3, 0)),
        ({"action": "notes", "cell": "3"}, play.SetNotes(3, 0)),  # no marks: none
    ],
)
def test_moves_read_the_same_from_a_form_and_a_socket(data, move):
    assert play.parse_move(data) == move
    assert GAME_TYPES["showdown"].parse(data) == A.GameMove(move)  # the room's moves are these
    action = solo.parse_action(data)
    assert (action.kind, action.move) == (move.kind, move)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"cell": "2"}, "Choose a digit from 1 to 9."),
        ({"digit": "4"}, "Pick a cell on the board first."),
        ({"cell": "", "digit": "4"}, "Pick a cell on the board first."),
        ({"cell": "٣", "digit": "4"}, "The cell must be a number."),
        ({"cell": "2", "digit": "３"}, "The digit must be a number."),
        ({"cell": "2", "digit": True}, "The digit must be a number."),
        ({"cell": "81", "digit": "4"}, "The cell must be between 0 and 80."),
        ({"cell": "2", "digit": "0"}, "The digit must be between 1 and 9."),
        ({"cell": 2, "digit": 10**30}, "The digit must be between 1 and 9."),
        ({"cell": "2", "digit": "4", "mode": "pen"}, "Mode must be enter or note."),
        ({"command": "hint", "cell": "-1"}, "The cell must be a number."),
        ({"command": "solve"}, "Unknown command 'solve'."),
        ({"action": "explode"}, "Unknown action 'explode'."),
        ({"action": "notes", "marks": "1"}, "Pick a cell on the board first."),
        ({"action": "notes", "cell": "3", "marks": "05"}, "Notes are digits from 1 to 9."),
        ({"action": "notes", "cell": "3", "marks": "1234567891"}, "Notes are digits from 1 to 9."),
        ({"action": "notes", "cell": "3", "marks": ["1"]}, "Notes are digits from 1 to 9."),
        ({"action": "notes", "cell": "3", "marks": "٣"}, "Notes are digits from 1 to 9."),
    ],
)
def test_malformed_moves_say_what_is_wrong_in_both_games(data, message):
    for parse in (play.parse_move, solo.parse_action):
        with pytest.raises(race.MalformedMove) as error:
            parse(data)
        assert str(error.value) == message
    with pytest.raises(A.MalformedMessage) as error:
        GAME_TYPES["showdown"].parse(data)
    assert str(error.value) == message


def test_pause_and_resume_are_solo_commands_not_moves():
    assert solo.parse_action({"command": "pause", "version": "3"}) == solo.SoloAction("pause", version=3)
    with pytest.raises(race.MalformedMove, match="Unknown command"):
        play.parse_move({"command": "pause"})


def test_apply_plays_each_kind_of_move_through_the_engine():
    board = race.Board.new(PUZZLE)
    board, outcome = play.apply(board, race.STANDARD, SOLUTION, play.Enter(2, 4))
    assert (outcome.kind, board.cells[2]) == ("correct", 4)
    board, outcome = play.apply(board, race.STANDARD, SOLUTION, play.Note(3, 1))
    assert outcome.kind == "note" and 1 in board.notes_at(3)
    board, outcome = play.apply(board, race.STANDARD, SOLUTION, play.Hint(3))
    assert (outcome.kind, board.cells[3], board.hints) == ("hint", SOLUTION[3], 1)
    with pytest.raises(race.IllegalMove, match="given"):
        play.apply(board, race.STANDARD, SOLUTION, play.Enter(0, 5))


def test_set_notes_replaces_a_cells_marks_and_refuses_what_a_note_may_not_do():
    board = race.Board.new(PUZZLE)
    board, _ = play.apply(board, race.STANDARD, SOLUTION, play.Note(2, 1))
    board, outcome = play.apply(board, race.STANDARD, SOLUTION, play.SetNotes(2, 1 << 4 | 1 << 9))
    assert (outcome.kind, outcome.cell, board.notes_at(2)) == ("note", 2, [4, 9])
    board, _ = play.apply(board, race.STANDARD, SOLUTION, play.SetNotes(2, 0))  # Backspace: all gone
    assert board.notes_at(2) == [] and board.score == 0 and board.mistakes == 0
    with pytest.raises(race.IllegalMove, match="already filled"):
        play.apply(board, race.STANDARD, SOLUTION, play.SetNotes(0, 1 << 3))  # a given
    with pytest.raises(race.IllegalMove, match="Notes are off"):
        play.apply(board, race.Rules(notes=False), SOLUTION, play.SetNotes(2, 1 << 3))
    for mask in (1, 1 << 10, -2, True):  # bit 0 is no digit; past 9; not a mask
        with pytest.raises(race.MalformedMove):
            race.set_notes(board, race.STANDARD, 2, mask)


def test_play_imports_no_django():
    code = "import sys, games.sudoku.play; print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"

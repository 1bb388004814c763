"""Auto-candidates (issue 43, "Beyond the fixes"; docs/rules.md 2, Fill notes): the engine's
candidates of every empty cell, and fill_notes writing them as the cells' notes."""

import pytest

from games.engines import race
from games.engines.race import Board

# The puzzle of tests/engines/test_race.py (Wikipedia's example).
PUZZLE = tuple(map(int, "530070000600195000098000060800060003400803001700020006060000280000419005000080079"))
SOLUTION = tuple(map(int, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"))
STANDARD = race.STANDARD


def marks(*digits):
    return sum(1 << d for d in digits)


def test_candidates_worked_example():
    # Row 1 is 5 3 _ _ 7 _ _ _ _. Row 1, column 3: its row holds 5, 3, 7; its column 8; its box
    # 5, 3, 6, 9, 8: 1, 2 and 4 are left. Row 1, column 4: row 5, 3, 7; column 1, 8, 4; box 7,
    # 1, 9, 5: 2 and 6. A given has none.
    found = race.candidates(PUZZLE)
    assert found[2] == marks(1, 2, 4) and race.candidate_mask(PUZZLE, 2) == marks(1, 2, 4)
    assert found[3] == marks(2, 6)
    assert found[5] == marks(2, 4, 6, 8)
    assert found[0] == 0 and found[80] == 0
    # Every empty cell's candidates hold its solution digit, and nothing but digits 1-9.
    for i in range(81):
        if not PUZZLE[i]:
            assert found[i] >> SOLUTION[i] & 1 and not found[i] & ~race.NOTE_BITS


def test_fill_notes_replaces_every_empty_cells_notes_and_nothing_else():
    board, _ = race.toggle_note(Board.new(PUZZLE), STANDARD, 2, 9)  # a wrong mark of the player's
    board, _ = race.enter(board, STANDARD, SOLUTION, 3, 6)  # row 1, column 4 is 6: no peer keeps 6
    filled, outcome = race.fill_notes(board, STANDARD)
    assert filled.notes_at(2) == [1, 2, 4]  # the 9 is gone
    assert filled.notes_at(3) == []  # filled now
    assert filled.notes_at(5) == [2, 4, 8]  # 6 is in its row now
    assert filled.cells == board.cells and filled.score == board.score and filled.hints == board.hints
    assert outcome.kind == "fill" and outcome.points == 0 and outcome.cell == 2  # the first empty cell


def test_fill_notes_refused_without_notes_or_on_a_finished_board():
    with pytest.raises(race.IllegalMove, match="Notes are off"):
        race.fill_notes(Board.new(PUZZLE), race.PRESETS["hardcore"])
    done = Board.new(PUZZLE)
    for i in range(81):
        if not PUZZLE[i]:
            done, _ = race.enter(done, STANDARD, SOLUTION, i, SOLUTION[i])
    with pytest.raises(race.IllegalMove):
        race.fill_notes(done, STANDARD)

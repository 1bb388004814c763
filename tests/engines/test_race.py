"""Race rules: scoring, penalties, hints, notes, caps and rankings (docs/rules.md 1 and 2)."""

import pytest

from games.engines import race
from games.engines.race import Board, Penalty, Rules, Standing, Status

PUZZLE = tuple(map(int, "530070000600195000098000060800060003400803001700020006060000280000419005000080079"))
SOLUTION = tuple(map(int, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"))
EMPTY = [i for i in range(81) if not PUZZLE[i]]
STANDARD = race.STANDARD


def wrong_digit(cell):
    return SOLUTION[cell] % 9 + 1


def test_correct_entry_scores_ten_and_locks():
    board, outcome = race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, 2, 4)
    assert (outcome.kind, outcome.points, board.score, board.cells[2]) == ("correct", 10, 10, 4)
    with pytest.raises(race.IllegalMove, match="already solved"):
        race.enter(board, STANDARD, SOLUTION, 2, 4)


def test_wrong_entry_is_counted_and_removed():
    board, _ = race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, 2, 4)
    board, outcome = race.enter(board, STANDARD, SOLUTION, 3, wrong_digit(3))
    assert outcome.kind == "wrong" and "not right" in outcome.message
    assert board.cells[3] == 0 and board.mistakes == 1 and board.score == 5


@pytest.mark.parametrize(
    "penalty, expected_scores",
    [
        (Penalty.NONE, [40, 40, 40, 40]),
        (Penalty.FLAT, [40, 35, 30, 25]),
        (Penalty.PROGRESSIVE, [40, 35, 25, 10]),  # -5, -10, -15
    ],
)
def test_penalties(penalty, expected_scores):
    rules = Rules(notes=True, hint_limit=3, penalty=penalty, mistake_cap=None)
    board = Board.new(PUZZLE)
    for cell in EMPTY[:4]:
        board, _ = race.enter(board, rules, SOLUTION, cell, SOLUTION[cell])
    scores = [board.score]
    for _ in range(3):
        board, _ = race.enter(board, rules, SOLUTION, EMPTY[5], wrong_digit(EMPTY[5]))
        scores.append(board.score)
    assert scores == expected_scores


def test_score_never_below_zero():
    board, outcome = race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, 2, wrong_digit(2))
    assert board.score == 0 and outcome.points == 0 and board.mistakes == 1


def test_mistake_cap_eliminates_and_locks_the_board():
    rules = race.PRESETS["hardcore"]
    board = Board.new(PUZZLE)
    for _ in range(3):
        board, outcome = race.enter(board, rules, SOLUTION, 2, wrong_digit(2))
    assert board.status is Status.ELIMINATED and outcome.eliminated
    with pytest.raises(race.IllegalMove, match="locked"):
        race.enter(board, rules, SOLUTION, 2, SOLUTION[2])


def test_hint_fills_selected_empty_cell_and_costs_25():
    board, _ = race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, 2, 4)
    board, _ = race.enter(board, STANDARD, SOLUTION, 3, 6)
    board, _ = race.enter(board, STANDARD, SOLUTION, 5, 8)
    board, outcome = race.hint(board, STANDARD, SOLUTION, 6)
    assert (outcome.cell, outcome.digit, board.score, board.hints) == (6, 9, 5, 1)
    assert 6 in board.hinted and board.cells[6] == 9


def test_hint_on_filled_cell_picks_a_cell_with_fewest_candidates():
    board, outcome = race.hint(Board.new(PUZZLE), STANDARD, SOLUTION, 0)  # 0 is a given
    assert board.cells[outcome.cell] == SOLUTION[outcome.cell] and not PUZZLE[outcome.cell]
    assert board.score == 0  # floor


def test_hint_limit_and_hints_off():
    rules = Rules(notes=True, hint_limit=1, penalty=Penalty.FLAT)
    board, _ = race.hint(Board.new(PUZZLE), rules, SOLUTION)
    with pytest.raises(race.IllegalMove, match="No hints left"):
        race.hint(board, rules, SOLUTION)
    with pytest.raises(race.IllegalMove, match="Hints are off"):
        race.hint(Board.new(PUZZLE), race.PRESETS["hardcore"], SOLUTION)


def test_finishing_adds_bonus_and_hinted_cells_earn_nothing():
    board = Board.new(PUZZLE)
    for cell in EMPTY[:-1]:
        board, _ = race.enter(board, STANDARD, SOLUTION, cell, SOLUTION[cell])
    before = board.score
    board, outcome = race.hint(board, STANDARD, SOLUTION, EMPTY[-1])
    assert outcome.finished and board.status is Status.FINISHED
    assert board.score == before - 25 + 100
    assert before == 10 * (len(EMPTY) - 1)


def test_notes_toggle_and_are_cleared_by_filling():
    board, _ = race.toggle_note(Board.new(PUZZLE), STANDARD, 2, 4)
    board, _ = race.toggle_note(board, STANDARD, 2, 1)
    board, _ = race.toggle_note(board, STANDARD, 3, 4)  # a peer in row 1
    board, _ = race.toggle_note(board, STANDARD, 2, 1)  # off again
    assert board.notes_at(2) == [4] and board.notes_at(3) == [4]
    board, _ = race.enter(board, STANDARD, SOLUTION, 2, 4)
    assert board.notes_at(2) == [] and board.notes_at(3) == []


def test_notes_refused_when_off_and_on_filled_cells():
    with pytest.raises(race.IllegalMove, match="Notes are off"):
        race.toggle_note(Board.new(PUZZLE), race.PRESETS["hardcore"], 2, 4)
    with pytest.raises(race.IllegalMove, match="already filled"):
        race.toggle_note(Board.new(PUZZLE), STANDARD, 0, 4)


@pytest.mark.parametrize("cell, digit", [(-1, 5), (81, 5), (2, 0), (2, 10), ("2", 4), (2, True)])
def test_malformed_moves(cell, digit):
    with pytest.raises(race.MalformedMove):
        race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, cell, digit)


def test_given_cells_cannot_change():
    with pytest.raises(race.IllegalMove, match="given"):
        race.enter(Board.new(PUZZLE), STANDARD, SOLUTION, 0, 5)


@pytest.mark.parametrize(
    "rules, preset",
    [
        (Rules(True, 5, Penalty.NONE, None), "friendly"),
        (Rules(True, 3, Penalty.FLAT, None), "standard"),
        (Rules(False, 0, Penalty.PROGRESSIVE, 3), "hardcore"),
        (Rules(False, 0, Penalty.PROGRESSIVE, 5), "custom"),
        (Rules(True, 1, Penalty.FLAT, None), "custom"),
    ],
)
def test_presets_and_custom(rules, preset):
    assert rules.preset == preset


@pytest.mark.parametrize("kwargs", [{"hint_limit": 2}, {"mistake_cap": 4}, {"penalty": "harsh"}])
def test_rules_reject_values_outside_the_options(kwargs):
    with pytest.raises((race.MalformedMove, ValueError)):
        Rules(**kwargs)


def test_board_round_trips_through_dict():
    board, _ = race.toggle_note(Board.new(PUZZLE), STANDARD, 2, 4)
    board, _ = race.hint(board, STANDARD, SOLUTION, 3)
    assert Board.from_dict(board.to_dict()) == board


def S(key, status, progress=0, mistakes=0, hints=0, score=0, t=None):
    return Standing(key, Status(status), progress, mistakes, hints, score, t)


def places(standings, near_tie=1.0):
    return [(place, s.key) for place, s in race.rank(standings, near_tie)]


def test_rank_finished_by_time_then_solving_then_eliminated_then_left():
    standings = [
        S("elim", "eliminated", progress=40, score=100),
        S("slow", "finished", t=300),
        S("solving", "playing", progress=30),
        S("fast", "finished", t=200),
        S("left", "left", progress=50),
    ]
    assert places(standings) == [(1, "fast"), (2, "slow"), (3, "solving"), (4, "elim"), (5, "left")]


def test_a_finisher_without_a_finish_time_is_named():
    with pytest.raises(ValueError, match="'late' finished without a finish time"):
        race.rank([S("fast", "finished", t=200), S("late", "finished")])


def test_near_tie_is_separated_by_mistakes_then_hints():
    standings = [
        S("a", "finished", mistakes=2, t=100.0),
        S("b", "finished", mistakes=0, hints=1, t=100.6),
        S("c", "finished", mistakes=0, hints=0, t=100.9),
        S("d", "finished", mistakes=0, t=101.5),  # 1.5 s after a: a new group
    ]
    assert places(standings) == [(1, "c"), (2, "b"), (3, "a"), (4, "d")]


def test_outside_near_tie_time_decides():
    standings = [S("a", "finished", mistakes=5, t=100.0), S("b", "finished", t=101.2)]
    assert places(standings) == [(1, "a"), (2, "b")]


def test_solving_players_by_progress_then_mistakes_then_score_and_ties_share():
    standings = [
        S("a", "playing", progress=10, mistakes=1, score=90),
        S("b", "playing", progress=10, mistakes=0, score=50),
        S("c", "playing", progress=12, mistakes=3, score=0),
        S("d", "playing", progress=10, mistakes=1, score=90),
    ]
    assert places(standings) == [(1, "c"), (2, "b"), (3, "a"), (3, "d")]


def test_eliminated_by_progress_then_score():
    standings = [
        S("a", "eliminated", progress=5, score=10),
        S("b", "eliminated", progress=5, score=20),
        S("c", "eliminated", progress=9, score=0),
    ]
    assert places(standings) == [(1, "c"), (2, "b"), (3, "a")]

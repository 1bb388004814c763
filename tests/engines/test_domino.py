"""Table tests for the Sudoku Domino engine (docs/rules.md section 4).

Positions are built from one known solution grid (the Wikipedia example) by blanking
cells; the engine trusts the caller on uniqueness, so sparse positions are fine for
exercising the rules. ``game_starting_with`` picks the first seed whose stone order
starts with the given digits, so every worked example is deterministic.
"""

import json

import pytest

from games.engines import domino as d
from games.engines.domino import grid

SOLUTION_ROWS = (
    "534678912",
    "672195348",
    "198342567",
    "859761423",
    "426853791",
    "713924856",
    "961537284",
    "287419635",
    "345286179",
)
SOLUTION = tuple(int(ch) for row in SOLUTION_ROWS for ch in row)
WIKI_PUZZLE = tuple(
    int(ch) for ch in "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
)


def i(row, col):
    return (row - 1) * 9 + col - 1


def blanked(*cells):
    """The solution with the given cells emptied."""
    grid = list(SOLUTION)
    for cell in cells:
        grid[i(*cell)] = 0
    return tuple(grid)


def only(*cells):
    """A puzzle holding only the given cells (with their solution digits)."""
    grid = [0] * 81
    for cell in cells:
        grid[i(*cell)] = SOLUTION[i(*cell)]
    return tuple(grid)


def game_starting_with(puzzle, *first, started_at=0.0):
    for seed in range(20000):
        state = d.new_game(puzzle, SOLUTION, seed, started_at)
        if state.bag[: len(first)] == first:
            return state
    raise AssertionError(f"no seed starts with {first}")


# ----------------------------------------------------------------- start


def test_new_game_bag_holds_the_empty_cells_digits_in_seeded_order():
    a = d.new_game(WIKI_PUZZLE, SOLUTION, 42, 0.0)
    b = d.new_game(WIKI_PUZZLE, SOLUTION, 42, 0.0)
    c = d.new_game(WIKI_PUZZLE, SOLUTION, 43, 0.0)
    expected = sorted(s for p, s in zip(WIKI_PUZZLE, SOLUTION, strict=True) if p == 0)
    assert sorted(a.bag) == expected
    assert a.bag == b.bag and a == b
    assert a.bag != c.bag
    assert a.current_stone == a.bag[0] and a.next_stone == a.bag[1]
    assert a.stones_left == 51
    assert a.lives_left == 3
    assert a.jokers_left == {"grey": 4, "gold": 2}
    assert a.score == 0 and a.stones_placed == 0
    assert a.seconds_left(0.0) == 600.0
    assert not a.finished and a.end_reason is None


def test_string_seeds_are_deterministic_too():
    assert d.new_game(WIKI_PUZZLE, SOLUTION, "room-7", 0).bag == d.new_game(WIKI_PUZZLE, SOLUTION, "room-7", 0).bag


@pytest.mark.parametrize(
    "puzzle, solution, seed, started_at",
    [
        (WIKI_PUZZLE[:80], SOLUTION, 1, 0.0),  # too short
        (WIKI_PUZZLE, SOLUTION[:-1] + (8,), 1, 0.0),  # solution not a sudoku
        (blanked((1, 1))[:-1] + (1,), SOLUTION, 1, 0.0),  # given disagrees
        (SOLUTION, SOLUTION, 1, 0.0),  # nothing to play
        (WIKI_PUZZLE, SOLUTION, 1.5, 0.0),  # seed type
        (WIKI_PUZZLE, SOLUTION, 1, float("nan")),  # clock
        ("5" * 81, SOLUTION, 1, 0.0),
    ],
)
def test_new_game_rejects_bad_start_data(puzzle, solution, seed, started_at):
    with pytest.raises(d.BadPosition):
        d.new_game(puzzle, solution, seed, started_at)


# ----------------------------------------------------------------- sliding

# Givens only at (5,5), (1,3), (2,7), (8,1).
SLIDE_PUZZLE = only((5, 5), (1, 3), (2, 7), (8, 1))

SLIDES = [
    # (edge, line, landing cell or error reason)
    ("top", 5, (4, 5)),
    ("bottom", 5, (6, 5)),
    ("left", 5, (5, 4)),
    ("right", 5, (5, 6)),
    ("top", 3, "no_room"),  # (1,3) holds a stone: no room at the edge
    ("bottom", 3, (2, 3)),  # slides all the way up to the stone at (1,3)
    ("top", 7, (1, 7)),  # stops on the border row: (2,7) holds a stone
    ("bottom", 7, (3, 7)),
    ("left", 1, (1, 2)),
    ("right", 1, (1, 4)),
    ("left", 2, (2, 6)),
    ("right", 2, (2, 8)),
    ("left", 8, "no_room"),  # (8,1) is on the left border
    ("right", 8, (8, 2)),
    ("bottom", 1, (9, 1)),  # border stop from the bottom: (8,1) holds a stone
    ("top", 1, (7, 1)),
    ("top", 2, "no_stone"),  # column 2 is empty
    ("left", 9, "no_stone"),  # row 9 is empty
    ("bottom", 9, "no_stone"),
    ("right", 4, "no_stone"),
]


@pytest.mark.parametrize("edge, line, expected", SLIDES)
def test_slide_table(edge, line, expected):
    state = d.new_game(SLIDE_PUZZLE, SOLUTION, 0, 0.0)
    entries = d.entry_points(state)
    if isinstance(expected, tuple):
        assert entries[(edge, line)] == expected
    else:
        assert (edge, line) not in entries
        with pytest.raises(d.InvalidEntry) as err:
            d.push(state, edge, line, 1.0)
        assert err.value.reason == expected
        assert isinstance(err.value, d.IllegalMove)
        text = {"no_room": "line is full at the edge", "no_stone": "no stone to meet"}
        assert text[expected] in err.value.message


def test_entry_points_lists_exactly_the_valid_entries():
    state = d.new_game(SLIDE_PUZZLE, SOLUTION, 0, 0.0)
    valid = {(e, line): cell for e, line, cell in SLIDES if isinstance(cell, tuple)}
    entries = d.entry_points(state)
    assert valid.items() <= entries.items()
    # Only the lines through a stone can be valid: rows 1, 2, 5, 8 and columns 1, 3, 5, 7.
    assert {line for (edge, line) in entries if edge in ("left", "right")} == {1, 2, 5, 8}
    assert {line for (edge, line) in entries if edge in ("top", "bottom")} == {1, 3, 5, 7}


@pytest.mark.parametrize("edge, line, cell", [s for s in SLIDES if isinstance(s[2], tuple)])
def test_a_correct_push_lands_on_the_slide_cell(edge, line, cell):
    state = game_starting_with(SLIDE_PUZZLE, SOLUTION[i(*cell)])
    state, outcome = d.push(state, edge, line, 1.0)
    assert outcome.kind == "placed" and outcome.cell == cell
    assert state.cell(*cell) == SOLUTION[i(*cell)]
    assert state.stones_placed == 1


@pytest.mark.parametrize(
    "edge, line",
    [("up", 1), ("TOP", 1), (None, 1), ("top", 0), ("top", 10), ("top", "3"), ("top", True), ("left", 2.0)],
)
def test_malformed_entries_are_bad_moves_not_rule_errors(edge, line):
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 0, 0.0)
    with pytest.raises(d.BadMove) as err:
        d.push(state, edge, line, 1.0)
    assert not isinstance(err.value, d.IllegalMove)
    assert isinstance(err.value, d.DominoError)


@pytest.mark.parametrize("now", [float("nan"), float("inf"), "5", None, True])
def test_malformed_clock_values_are_bad_moves(now):
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 0, 0.0)
    with pytest.raises(d.BadMove):
        d.push(state, "top", 3, now)
    with pytest.raises(d.BadMove):
        d.place_joker(state, "grey", 5, 5, now)


# ----------------------------------------------------------------- unreachable cells


def test_unreachable_cells_of_the_wikipedia_puzzle():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 0, 0.0)
    assert state.unreachable == {
        (2, 2),
        (3, 4),
        (3, 5),
        (3, 6),
        (4, 2),
        (4, 4),
        (4, 6),
        (4, 8),
        (5, 2),
        (5, 5),
        (5, 8),
        (6, 2),
        (6, 4),
        (6, 6),
        (6, 8),
        (7, 4),
        (7, 5),
        (7, 6),
        (8, 8),
    }
    # (2,2): 3 above, 9 below, 6 left, 1 right.  (2,3): the line up to the border is open.
    assert (2, 3) not in state.unreachable
    # No valid entry ever lands on an unreachable cell.
    assert not set(d.entry_points(state).values()) & state.unreachable


def test_border_cells_are_never_unreachable():
    state = d.new_game(blanked((1, 1), (9, 9), (1, 5), (5, 9)), SOLUTION, 0, 0.0)
    assert state.unreachable == frozenset()


def test_a_placement_can_make_a_cell_unreachable():
    # (5,5) is boxed in above, below and left; its line to the right is open
    # until a stone lands on (5,7) (pushed from the top, stopped by (6,7)).
    puzzle = only((4, 5), (6, 5), (5, 4), (6, 7))
    state = game_starting_with(puzzle, SOLUTION[i(5, 7)])
    assert (5, 5) not in state.unreachable
    state, outcome = d.push(state, "top", 7, 1.0)
    assert outcome.cell == (5, 7) and outcome.kind == "placed"
    assert (5, 5) in state.unreachable
    assert (5, 6) not in state.unreachable  # its line to the top is still open


def test_a_joker_can_make_a_cell_unreachable_and_can_fill_one():
    state = d.new_game(only((4, 5), (6, 5), (5, 4)), SOLUTION, 0, 0.0)
    state, _ = d.place_joker(state, "grey", 5, 8, 1.0)
    assert (5, 5) in state.unreachable and (5, 6) not in state.unreachable
    state, outcome = d.place_joker(state, "grey", 5, 5, 2.0)
    assert outcome.kind == "joker" and state.cell(5, 5) == d.GREY
    assert (5, 5) not in state.unreachable


# ----------------------------------------------------------------- wrong placements

WRONG = [
    # puzzle, stone, entry, landing, reason, clashes (unit, number, cell)
    (
        blanked((1, 1), (2, 1)),
        6,
        ("left", 1),
        (1, 1),
        "duplicates the 6 in row 1 (at row 1, column 4)",
        [("row", 1, (1, 4))],
    ),
    (
        blanked((1, 1), (1, 4)),
        5,
        ("top", 4),
        (1, 4),
        "duplicates the 5 in column 4 (at row 7, column 4)",
        [("column", 4, (7, 4)), ("box", 2, (2, 6))],
    ),
    (
        only(*[(9, c) for c in range(1, 10)]),
        5,
        ("top", 2),
        (8, 2),
        "duplicates the 5 in box 7 (at row 9, column 3)",
        [("box", 7, (9, 3))],
    ),
    (
        only(*[(9, c) for c in range(1, 10)]),
        7,
        ("top", 1),
        (8, 1),
        "does not fit the solution",
        [],
    ),
]


@pytest.mark.parametrize("puzzle, stone, entry, cell, reason, clashes", WRONG)
def test_wrong_placement_table(puzzle, stone, entry, cell, reason, clashes):
    state = game_starting_with(puzzle, stone)
    after, outcome = d.push(state, *entry, 3.0)
    assert outcome.kind == "wrong" and not outcome.ok
    assert outcome.cell == cell and outcome.digit == stone
    assert outcome.reason == reason
    assert reason in outcome.message
    assert [(c.unit, c.number, c.cell) for c in outcome.clashes] == clashes
    assert all(c.digit == stone for c in outcome.clashes)
    # The stone is removed, the player keeps it, a life is lost, nothing scores.
    assert after.board == state.board
    assert after.current_stone == stone and after.bag == state.bag
    assert after.lives_left == 2 and outcome.lives_left == 2
    assert after.score == 0 and outcome.points == 0
    assert not after.finished


# ----------------------------------------------------------------- jokers


def test_grey_joker_voids_unit_completion():
    # Blanks (1,1)=5 and (1,2)=3. The grey joker on (1,2) completes column 2: no points.
    state = game_starting_with(blanked((1, 1), (1, 2)), 3, 5, started_at=1000.0)
    state, outcome = d.place_joker(state, "grey", 1, 2, 1010.0)
    assert outcome.kind == "joker" and outcome.points == 0
    assert [(c.unit, c.number, c.void) for c in outcome.completed] == [("column", 2, True)]
    assert state.jokers_left == {"grey": 3, "gold": 2}
    # The 3 has no empty target cell left: skipped automatically.
    assert outcome.skipped == (3,) and state.current_stone == 5
    # The 5 completes row 1 (grey: 0), column 1 (450) and box 1 (grey: 0).
    # Only one unit earns, so no multi-unit bonus. Full grid: 500 + 10 x 590 s.
    state, outcome = d.push(state, "top", 1, 1010.0)
    assert [(c.unit, c.points, c.void) for c in outcome.completed] == [
        ("row", 0, True),
        ("column", 450, False),
        ("box", 0, True),
    ]
    assert outcome.points == 5 + 450 + 500 + 5900
    assert state.score == 6855
    assert state.finished and state.end_reason == "full"


def test_gold_joker_counts_zero_but_completes_its_units():
    state = game_starting_with(blanked((1, 1), (1, 2)), 3, 5, started_at=1000.0)
    state, outcome = d.place_joker(state, "gold", 1, 2, 1010.0)
    # Placing a gold joker: 5. Column 2 completes: (45 - 3) x 10 = 420.
    assert dict(outcome.scoring) == {"gold joker": 5, "column 2": 420}
    assert outcome.points == 425 and state.score == 425
    assert outcome.skipped == (3,)
    assert state.jokers_left == {"grey": 4, "gold": 1}
    # The 5 on (1,1): row 1 420 + column 1 450 + box 1 420, three units +100,
    # full grid 500, 590 s left x 10.
    state, outcome = d.push(state, "left", 1, 1010.0)
    assert outcome.cell == (1, 1)
    assert outcome.points == 5 + 420 + 450 + 420 + 100 + 500 + 5900
    assert state.score == 425 + 7795


def test_joker_keeps_the_current_stone():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 5, 0.0)
    stone = state.current_stone
    # A joker on an empty cell whose digit is not the current stone's.
    target = next(
        (r, c) for r in range(1, 10) for c in range(1, 10) if state.cell(r, c) == 0 and SOLUTION[i(r, c)] != stone
    )
    after, outcome = d.place_joker(state, "grey", *target, 1.0)
    assert after.current_stone == stone and after.bag == state.bag
    assert outcome.skipped == ()
    assert after.stones_placed == 0 and after.stones_left == state.stones_left


def test_joker_on_an_unreachable_cell_is_allowed():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 5, 0.0)
    assert (5, 5) in state.unreachable
    state, _ = d.place_joker(state, "gold", 5, 5, 1.0)
    assert state.cell(5, 5) == d.GOLD and (5, 5) not in state.unreachable


def test_automatic_skip_of_every_stone_of_a_used_up_digit():
    # Blanks: the 5s at (1,1) and (4,2), and the 3 at (1,2).
    puzzle = blanked((1, 1), (4, 2), (1, 2))
    state = game_starting_with(puzzle, 5, 5, 3)
    state, outcome = d.place_joker(state, "grey", 4, 2, 1.0)
    assert outcome.skipped == () and state.bag == (5, 5, 3)
    # One 5-cell is left for two 5 stones: the preview looks past the surplus 5.
    assert state.current_stone == 5 and state.next_stone == 3
    state, outcome = d.push(state, "top", 1, 2.0)
    assert outcome.cell == (1, 1) and outcome.skipped == (5,)
    assert state.current_stone == 3 and state.bag == (3,)
    assert state.next_stone is None


def test_joker_taking_the_current_stones_last_cell_skips_it():
    puzzle = blanked((1, 1), (1, 2))
    state = game_starting_with(puzzle, 5, 3)
    state, outcome = d.place_joker(state, "grey", 1, 1, 1.0)
    assert outcome.skipped == (5,) and state.current_stone == 3
    assert "Skipped: 5" in outcome.message


def test_no_jokers_left_and_cell_occupied():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 5, 0.0)
    empties = [(r, c) for r in range(1, 10) for c in range(1, 10) if state.cell(r, c) == 0]
    for n, cell in enumerate(empties[:4]):
        state, _ = d.place_joker(state, "grey", *cell, float(n))
    with pytest.raises(d.NoJokersLeft) as err:
        d.place_joker(state, "grey", *empties[4], 5.0)
    assert err.value.kind == "grey" and isinstance(err.value, d.IllegalMove)
    with pytest.raises(d.CellOccupied) as err:
        d.place_joker(state, "gold", 1, 1, 5.0)  # a given
    assert err.value.cell == (1, 1)
    with pytest.raises(d.CellOccupied):
        d.place_joker(state, "gold", *empties[0], 5.0)  # a joker


@pytest.mark.parametrize(
    "kind, row, col", [("silver", 1, 3), ("Grey", 1, 3), ("grey", 0, 3), ("grey", 1, 10), ("gold", "1", 3)]
)
def test_malformed_joker_moves_are_bad_moves(kind, row, col):
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 5, 0.0)
    with pytest.raises(d.BadMove):
        d.place_joker(state, kind, row, col, 1.0)


# ----------------------------------------------------------------- scoring


def test_score_single_stone_no_completion():
    state = game_starting_with(WIKI_PUZZLE, SOLUTION[i(1, 4)])
    state, outcome = d.push(state, "top", 4, 1.0)  # lands on (1,4), stopped by (2,4)
    assert outcome.cell == (1, 4)
    assert outcome.scoring == (("stone", 5),) and state.score == 5


def test_score_single_unit_completion():
    # Blanks (1,1), (1,2), (2,1): the 3 on (1,2) completes column 2 only.
    state = game_starting_with(blanked((1, 1), (1, 2), (2, 1)), 3)
    state, outcome = d.push(state, "top", 2, 1.0)
    assert outcome.cell == (1, 2)
    assert outcome.scoring == (("stone", 5), ("column 2", 450))
    assert state.score == 455


def test_score_double_then_triple_completion_and_full_grid():
    # Blanks (1,1)=5 and (1,4)=6.
    state = game_starting_with(blanked((1, 1), (1, 4)), 5, 6, started_at=50.0)
    # The 5 completes column 1 and box 1 (row 1 still misses (1,4)): 2 units +50.
    state, outcome = d.push(state, "top", 1, 60.0)
    assert outcome.scoring == (("stone", 5), ("column 1", 450), ("box 1", 450), ("2 units at once", 50))
    assert state.score == 955
    # The 6 completes row 1, column 4 and box 2 at once: +100; the grid is full:
    # +500 and 10 points per whole second left (600 - 73.4 = 526.6 -> 526).
    state, outcome = d.push(state, "top", 4, 123.4)
    assert outcome.scoring == (
        ("stone", 5),
        ("row 1", 450),
        ("column 4", 450),
        ("box 2", 450),
        ("3 units at once", 100),
        ("full grid", 500),
        ("time bonus (526 s left)", 5260),
    )
    assert outcome.points == 7215
    assert state.score == 955 + 7215
    assert state.finished and state.end_reason == "full" and outcome.finished
    assert state.seconds_left(10_000.0) == pytest.approx(526.6)  # frozen at the end


def test_joker_that_fills_the_grid_earns_the_full_grid_bonus():
    state = game_starting_with(blanked((1, 1)), 5)
    state, outcome = d.place_joker(state, "gold", 1, 1, 100.0)
    # 5 + row 1, column 1, box 1 at 400 each + 100 + 500 + 500 s x 10.
    assert outcome.points == 5 + 3 * 400 + 100 + 500 + 5000
    assert outcome.skipped == (5,)
    assert state.finished and state.end_reason == "full" and state.bag == ()


# ----------------------------------------------------------------- end of game


def test_end_by_three_wrong_placements():
    state = game_starting_with(blanked((1, 1), (1, 4)), 5)
    for n in range(3):
        assert not state.finished
        state, outcome = d.push(state, "top", 4, float(n))
        assert outcome.kind == "wrong"
    assert state.lives_left == 0
    assert state.finished and state.end_reason == "lives"
    assert outcome.finished and outcome.end_reason == "lives"
    assert "Game over" in outcome.message
    with pytest.raises(d.GameOver):
        d.push(state, "top", 1, 4.0)
    with pytest.raises(d.GameOver):
        d.place_joker(state, "grey", 1, 1, 4.0)


def test_end_by_stuck_after_the_last_joker():
    # Eight interior blanks, every border cell given: no entry point at all.
    blanks = [(2, 2), (2, 5), (2, 8), (5, 2), (5, 5), (5, 8), (8, 2), (8, 5)]
    state = d.new_game(blanked(*blanks), SOLUTION, 0, 0.0)
    assert d.entry_points(state) == {}
    assert state.unreachable == set(blanks)
    kinds = ["grey"] * 4 + ["gold"] * 2
    for n, (kind, cell) in enumerate(zip(kinds, blanks, strict=False)):  # six jokers, eight blanks
        assert not state.finished  # jokers are left: not stuck yet
        state, outcome = d.place_joker(state, kind, *cell, float(n))
    assert state.finished and state.end_reason == "stuck"
    assert outcome.end_reason == "stuck"
    assert state.stones_left > 0


def test_end_by_stuck_after_a_push():
    # (1,1) plus seven interior blanks with distinct digits (none a 5).
    interior = [(2, 2), (2, 5), (2, 8), (5, 2), (8, 2), (8, 5), (8, 8)]
    puzzle = blanked((1, 1), *interior)
    state = next(
        s
        for s in (d.new_game(puzzle, SOLUTION, seed, 0.0) for seed in range(1000))
        if s.bag.index(5) < s.bag.index(3)  # 3 is the digit of (8,8)
    )
    kinds = ["grey"] * 4 + ["gold"] * 2
    for n, (kind, cell) in enumerate(zip(kinds, interior[:6], strict=True)):
        state, _ = d.place_joker(state, kind, *cell, float(n))
    assert state.bag == (5, 3) and not state.finished
    state, outcome = d.push(state, "left", 1, 10.0)
    assert outcome.kind == "placed" and outcome.cell == (1, 1)
    # The 3 belongs on (8,8), which no slide can reach, and no joker is left.
    assert state.finished and state.end_reason == "stuck"
    assert state.unreachable == {(8, 8)}


def test_end_by_time_check_time():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 0, 1000.0)
    assert d.check_time(state, 1599.99) is state
    ended = d.check_time(state, 1600.0)
    assert ended.finished and ended.end_reason == "time"
    assert ended.seconds_left(1700.0) == 0.0
    assert ended.moves[-1] == ("time", 1600.0)
    assert d.check_time(ended, 1700.0) is ended
    with pytest.raises(d.GameOver) as err:
        d.push(ended, "top", 4, 1601.0)
    assert err.value.end_reason == "time"
    assert d.entry_points(ended) == {}


@pytest.mark.parametrize("late", [1600.0, 1600.5, 5000.0])
def test_a_move_at_or_after_the_limit_ends_the_game_and_is_refused(late):
    state = game_starting_with(WIKI_PUZZLE, SOLUTION[i(1, 4)], started_at=1000.0)
    after, outcome = d.push(state, "top", 4, late)
    assert outcome.kind == "time_up" and outcome.points == 0
    assert after.finished and after.end_reason == "time"
    assert after.board == state.board and after.score == 0
    after, outcome = d.place_joker(state, "gold", 1, 4, late)
    assert outcome.kind == "time_up" and after.board == state.board
    # Just before the limit the move is played.
    after, outcome = d.push(state, "top", 4, 1599.9)
    assert outcome.kind == "placed" and not after.finished


def test_seconds_left_counts_down():
    state = d.new_game(WIKI_PUZZLE, SOLUTION, 0, 100.0)
    assert state.seconds_left(100.0) == 600.0
    assert state.seconds_left(250.5) == 449.5
    assert state.seconds_left(50.0) == 600.0  # before the start
    assert state.seconds_left(900.0) == 0.0


# ----------------------------------------------------------------- serialization and replay


def test_to_dict_round_trips_through_json():
    state = game_starting_with(blanked((1, 1), (1, 4), (1, 2)), 5, started_at=3.5)
    state, _ = d.push(state, "top", 4, 4.0)  # wrong: the 5 on (1,4)
    state, _ = d.place_joker(state, "gold", 1, 2, 5.0)
    data = json.loads(json.dumps(d.to_dict(state)))
    assert d.from_dict(data) == state


def test_replay_rebuilds_the_game_from_its_moves():
    state = game_starting_with(blanked((1, 1), (1, 4), (1, 2)), 5, started_at=3.5)
    state, _ = d.push(state, "top", 4, 4.0)
    state, _ = d.place_joker(state, "grey", 1, 2, 5.0)
    state, _ = d.push(state, "top", 1, 6.0)
    moves = json.loads(json.dumps([list(m) for m in state.moves]))
    assert d.replay(state.puzzle, state.solution, state.seed, 3.5, moves) == state


@pytest.mark.parametrize(
    "tamper",
    [
        lambda data: data.update(format=2),
        lambda data: data["board"].__setitem__(0, 9),  # a wrong digit on an empty cell
        lambda data: data["jokers"].update(grey=3),  # no grey joker on the board
        lambda data: data.update(bag=data["bag"][1:]),  # a stone went missing
        lambda data: data.update(finished=True),  # finished without a reason
        lambda data: data.update(lives=7),
        lambda data: data.update(moves=[["fly", 1]]),
        lambda data: data.update(seed=None),
    ],
)
def test_from_dict_refuses_broken_data(tamper):
    state = d.new_game(blanked((1, 1), (1, 4)), SOLUTION, 0, 0.0)
    data = json.loads(json.dumps(d.to_dict(state)))
    tamper(data)
    with pytest.raises(d.BadPosition):
        d.from_dict(data)


@pytest.mark.parametrize("move", [("fly", 1.0), ("push", "top"), "push", (), ("joker", "grey", 1, 1)])
def test_replay_refuses_malformed_moves(move):
    with pytest.raises(d.BadMove):
        d.replay(WIKI_PUZZLE, SOLUTION, 0, 0.0, [move])


def test_outcome_to_dict_is_json_safe():
    state = game_starting_with(blanked((1, 1), (1, 4)), 5)
    _, outcome = d.push(state, "top", 4, 1.0)
    data = json.loads(json.dumps(outcome.to_dict()))
    assert data["kind"] == "wrong"
    assert data["clashes"][0] == {"digit": 5, "unit": "column", "number": 4, "cell": [7, 4]}


def test_end_by_stuck_when_only_wrong_entries_are_left():
    """Issue 13: entry points exist, but none lands the current stone on its own cell, and
    no joker is left: the game ends there ("stuck"), it does not wait for three wrong
    stones or the clock."""
    # (1,1) open on the border plus six interior blanks for the jokers and (8,8) closed in.
    interior = [(2, 2), (2, 5), (2, 8), (5, 2), (8, 2), (8, 5), (8, 8)]
    puzzle = blanked((1, 1), *interior)
    state = next(
        s
        for s in (d.new_game(puzzle, SOLUTION, seed, 0.0) for seed in range(1000))
        if s.bag.index(3) < s.bag.index(5)  # the 3 (cell (8,8)) comes before the 5 (cell (1,1))
    )
    kinds = ["grey"] * 4 + ["gold"] * 2
    for n, (kind, cell) in enumerate(zip(kinds, interior[:6], strict=True)):
        state, outcome = d.place_joker(state, kind, *cell, float(n))
    # The 3 is current; (1,1) is reachable but is the 5's cell; no joker is left.
    assert state.current_stone == 3 and grid.valid_entries(state.board)
    assert state.finished and state.end_reason == "stuck"
    assert "can be placed nowhere" in outcome.message and "no jokers are left" in outcome.message.lower()
    assert d.entry_points(state) == {}

"""Sudoku engine: parsing, solving, grading, hints and generation."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import sudoku
from games.engines.sudoku import (
    CLUE_BANDS,
    Level,
    PuzzleFormatError,
    SolverBudgetExceeded,
    count_solutions,
    format_grid,
    generate,
    grade,
    has_unique_solution,
    index,
    is_complete_solution,
    next_hint,
    parse,
    rc,
    solve,
)

# top95 (a classic set of hard puzzles) is kept beside the tests, so they run on any clone.
DATA = Path(__file__).resolve().parent / "data"
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def load(name: str) -> list[sudoku.Grid]:
    path = DATA / name
    return [parse(line) for line in path.read_text().splitlines() if line.strip()]


def text_with(cells: dict[tuple[int, int], int]) -> str:
    out = ["."] * 81
    for (r, c), d in cells.items():
        out[index(r, c)] = str(d)
    return "".join(out)


# ------------------------------------------------------------------ grid text
@pytest.mark.parametrize("text", [EASY, EASY.replace(".", "0"), SOLVED, "." * 81, f"  {EASY}\n"])
def test_parse_format_round_trip(text):
    grid = parse(text)
    assert len(grid) == 81
    assert format_grid(grid, empty=".") == text.strip().replace("0", ".")
    assert parse(format_grid(grid, empty="0")) == grid


def test_rc_and_index_are_inverse():
    assert rc(0) == (1, 1) and rc(80) == (9, 9) and rc(index(4, 7)) == (4, 7)
    assert [index(*rc(i)) for i in range(81)] == list(range(81))


@pytest.mark.parametrize(
    "text, message",
    [
        (EASY[:-1], "found 80 characters"),
        (EASY + "1", "found 82 characters"),
        ("", "found 0 characters"),
        (EASY[:4] + "x" + EASY[5:], "bad character 'x' at position 5 (row 1, column 5)"),
        (EASY[:80] + "-", "bad character '-' at position 81 (row 9, column 9)"),
        ("55" + "." * 79, "digit 5 appears twice in row 1"),
        ("5" + "." * 8 + "5" + "." * 71, "digit 5 appears twice in column 1"),
        (text_with({(3, 2): 7, (7, 2): 7}), "digit 7 appears twice in column 2"),
        (text_with({(1, 1): 3, (2, 3): 3}), "digit 3 appears twice in box 1"),
        (text_with({(4, 4): 9, (6, 6): 9}), "digit 9 appears twice in box 5"),
        (text_with({(9, 1): 2, (9, 9): 2}), "digit 2 appears twice in row 9"),
    ],
)
def test_malformed_puzzles_say_what_is_wrong(text, message):
    with pytest.raises(PuzzleFormatError) as err:
        parse(text)
    assert message in str(err.value)
    assert isinstance(err.value, ValueError)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81))
def test_parse_accepts_or_rejects_any_digit_string(cells):
    text = "".join(map(str, cells))
    try:
        grid = parse(text)
    except PuzzleFormatError as err:
        assert "appears twice" in str(err)
    else:
        assert format_grid(grid, empty="0") == text


# ------------------------------------------------------------------ solver
def test_top95_answers_are_complete_and_keep_the_givens():
    for puzzle in load("top95.txt"):
        answer = solve(puzzle)
        assert answer is not None and is_complete_solution(answer)
        assert all(g in (0, a) for g, a in zip(puzzle, answer, strict=True))
        assert count_solutions(puzzle) == 1


def test_solved_and_easy_grids():
    assert solve(parse(SOLVED)) == parse(SOLVED)
    assert solve(parse(EASY)) == parse(SOLVED)
    assert has_unique_solution(parse(EASY))


def _two_solution_grid() -> sudoku.Grid:
    """SOLVED with a swappable rectangle emptied: exactly two completions."""
    g = list(parse(SOLVED))
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    a, b = g[r1 * 9 + c1], g[r1 * 9 + c2]
                    same_band = r1 // 3 == r2 // 3
                    same_stack = c1 // 3 == c2 // 3
                    if g[r2 * 9 + c1] == b and g[r2 * 9 + c2] == a and same_band != same_stack:
                        for i in (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2):
                            g[i] = 0
                        return tuple(g)
    raise AssertionError("no deadly rectangle in the test grid")


def test_two_solutions_are_counted():
    grid = _two_solution_grid()
    assert count_solutions(grid, limit=2) == 2
    assert count_solutions(grid, limit=5) == 2
    assert count_solutions(grid, limit=1) == 1
    assert not has_unique_solution(grid)


def test_contradiction_without_duplicate_givens_counts_zero():
    # Row 1 needs a 9 in r1c9, but column 9 already has one (r5c9).
    text = "12345678." + "." * 27 + "........9" + "." * 36
    grid = parse(text)
    assert count_solutions(grid) == 0
    assert solve(grid) is None
    assert not has_unique_solution(grid)


def test_duplicate_givens_in_a_raw_grid_count_zero():
    grid = (5, 5) + (0,) * 79
    assert count_solutions(grid) == 0
    assert solve(grid) is None


def test_budget_exhaustion_raises_a_typed_error():
    with pytest.raises(SolverBudgetExceeded) as err:
        count_solutions((0,) * 81, limit=10**9, max_steps=20)
    assert err.value.max_steps == 20
    # Nothing is left half-done: the same call with a budget works.
    assert count_solutions((0,) * 81, limit=3) == 3


def test_empty_grid_has_many_solutions_and_a_valid_first():
    assert is_complete_solution(solve((0,) * 81))


# ------------------------------------------------------------------ levels & grading
def test_levels_and_bands():
    assert [lv.value for lv in Level] == ["easy", "medium", "hard", "expert"]
    assert Level.EXPERT.label == "Expert"
    assert Level.coerce("Hard") is Level.HARD and Level.coerce(Level.EASY) is Level.EASY
    with pytest.raises(ValueError):
        Level.coerce("impossible")
    assert [Level(x).clue_range for x in ("easy", "medium", "hard", "expert")] == [
        (36, 40),
        (30, 35),
        (26, 29),
        (22, 25),
    ]
    bands = sorted(CLUE_BANDS.values())
    assert all(a[1] < b[0] for a, b in itertools.pairwise(bands))  # bands never overlap


def test_grade_easy_puzzle():
    g = grade(parse(EASY))
    assert g.level is Level.EASY and g.solved
    assert set(g.techniques) <= {"naked single", "hidden single"}


def test_grade_medium_and_expert_examples():
    top95 = load("top95.txt")
    medium = grade(top95[0])
    assert medium.level is Level.MEDIUM and medium.solved
    assert "locked candidates" in medium.techniques
    expert = grade(top95[3])
    assert expert.level is Level.EXPERT and not expert.solved


# Positions (givens plus what singles already filled) where the next step needs
# the named technique; the hint's cell and digit are checked against solve().
HINT_TABLE = [
    (
        "...8...19...1.957.9.175.68...2436.5...8527.466..918.3..6728.49....39..6..19674.2.",
        "locked candidates",
        (5, 1),
        1,
    ),
    ("4827.59.16918.2...573.9..289456....272.35...913.2.9.5.3.792.18.8.4..72932.9.83.76", "naked pair", (4, 7), 3),
    ("7.2.1..368.35...1.1.9....4..91.7.625286...374.752..189538...491617439.5.924...763", "hidden pair", (3, 6), 3),
    ("..3.8.95.8...9.......7.3..123.....46..8.4..2.7....25..3.26.4......9..3..59.......", "naked triple", (3, 8), 8),
    ("76...9..319.....758...7..6....4.17..4...2.....7......8..7..51..2......37.16......", "hidden triple", (5, 7), 3),
    ("7829463154195836273..1729.....7.95.1.7.861.3919.4.5.7...1357..28.729415....6187..", "x-wing", (7, 2), 4),
    ("84..1...27.....8.....5.........5..3.65...972...2.7...15....628...6.....523...54..", "swordfish", (7, 2), 1),
    ("7.321.4969.46.7.2..62.94.7.8397461522.7..968464..2.739.2.483967478962315396571248", "xy-wing", (3, 7), 5),
]


@pytest.mark.parametrize("text, technique, cell, digit", HINT_TABLE)
def test_hint_names_the_technique_and_the_cell_it_unlocks(text, technique, cell, digit):
    grid = parse(text)
    hint = next_hint(grid)
    assert hint is not None
    assert (hint.technique, hint.cell, hint.digit) == (technique, cell, digit)
    assert solve(grid)[index(*cell)] == digit
    assert hint.explanation.rstrip().endswith(".")


def test_hint_for_a_single_and_for_a_finished_grid():
    hint = next_hint(parse(EASY))
    assert hint.technique in ("naked single", "hidden single")
    assert parse(SOLVED)[index(*hint.cell)] == hint.digit
    assert next_hint(parse(SOLVED)) is None


def test_hint_on_a_broken_grid_is_none():
    assert next_hint(parse("12345678." + "." * 27 + "........9" + "." * 36)) is None


def test_following_hints_solves_a_puzzle():
    grid = list(parse(HINT_TABLE[0][0]))
    answer = solve(tuple(grid))
    while 0 in grid:
        hint = next_hint(tuple(grid))
        assert hint is not None and hint.digit == answer[index(*hint.cell)]
        grid[index(*hint.cell)] = hint.digit
    assert tuple(grid) == answer


# ------------------------------------------------------------------ generation
def check_generated(level: Level, seed: int) -> None:
    made = generate(level, seed)
    lo, hi = CLUE_BANDS[level]
    assert made.level is level and made.seed == seed
    assert made.clues == sum(1 for v in made.puzzle if v) and lo <= made.clues <= hi
    assert count_solutions(made.puzzle) == 1
    assert is_complete_solution(made.solution)
    assert all(v in (0, s) for v, s in zip(made.puzzle, made.solution, strict=True))
    assert made.grade == grade(made.puzzle) and made.grade.level is level
    assert made.grade.solved is (level is not Level.EXPERT)


SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(SEEDS)
def test_generate_easy(seed):
    check_generated(Level.EASY, seed)


@FAST
@given(SEEDS)
def test_generate_medium(seed):
    check_generated(Level.MEDIUM, seed)


@FAST
@given(SEEDS)
def test_generate_hard(seed):
    check_generated(Level.HARD, seed)


@FAST
@given(SEEDS)
def test_generate_expert(seed):
    check_generated(Level.EXPERT, seed)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(list(Level)), SEEDS)
def test_generate_is_deterministic(level, seed):
    assert generate(level, seed) == generate(level.value, seed)


def test_generate_rejects_unknown_levels():
    with pytest.raises(ValueError):
        generate("nightmare", 1)


@settings(max_examples=4, deadline=None)
@given(st.sampled_from([Level.MEDIUM, Level.HARD]), SEEDS)
def test_hints_alone_solve_generated_puzzles_and_never_lie(level, seed):
    made = generate(level, seed)
    grid = list(made.puzzle)
    used = set()
    while 0 in grid:
        hint = next_hint(tuple(grid))
        assert hint is not None and hint.digit is not None
        i = index(*hint.cell)
        assert grid[i] == 0 and made.solution[i] == hint.digit
        grid[i] = hint.digit
        used.add(hint.technique)
    assert tuple(grid) == made.solution
    # The hardest technique the hints needed matches the grade.
    assert max(used, key=sudoku.TECHNIQUES.index) in made.grade.techniques

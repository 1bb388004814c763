"""Delayed feedback in the race engine (docs/rules.md 1, "Delayed feedback"): one worked example
per sentence of the section, then hypothesis properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import race
from games.engines.race import Board, Feedback, Penalty, Review, Rules, Standing, Status

PUZZLE = tuple(map(int, "530070000600195000098000060800060003400803001700020006060000280000419005000080079"))
SOLUTION = tuple(map(int, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"))
EMPTY = [i for i in range(81) if not PUZZLE[i]]  # 51 cells to fill
TOURNAMENT = race.TOURNAMENT


def delayed(*, hint_limit=0, penalty=Penalty.FLAT, submissions=3, mistake_cap=None) -> Rules:
    return Rules(True, hint_limit, penalty, mistake_cap, Feedback.DELAYED, submissions)


def wrong_digit(cell):
    return SOLUTION[cell] % 9 + 1


def filled(wrong_cells=(), rules=TOURNAMENT, board=None):
    """A full grid: right everywhere except `wrong_cells`."""
    board = board or Board.new(PUZZLE)
    for cell in EMPTY:
        if board.cells[cell] and cell in board.hinted:
            continue
        digit = wrong_digit(cell) if cell in wrong_cells else SOLUTION[cell]
        board, _ = race.enter(board, rules, SOLUTION, cell, digit)
    return board


# A match rule, Feedback: Immediate (v1; every v1 preset) or Delayed.
def test_every_v1_preset_is_immediate_and_rules_default_to_it():
    v1 = {key: rules for key, rules in race.PRESETS.items() if key != "tournament"}
    assert set(v1) == {"friendly", "standard", "hardcore"}
    assert {rules.feedback for rules in v1.values()} == {Feedback.IMMEDIATE}
    assert race.TOURNAMENT.preset == "tournament"
    assert Rules().feedback is Feedback.IMMEDIATE and not Rules().delayed


# The Tournament preset is notes allowed, 0 hints, Delayed feedback, 3 submissions, flat penalty.
def test_tournament_preset():
    t = TOURNAMENT
    assert (t.notes, t.hint_limit, t.feedback, t.submissions, t.penalty) == (True, 0, Feedback.DELAYED, 3, Penalty.FLAT)
    assert "Delayed feedback, 3 submissions" in t.summary()
    assert "-5 per wrong submission" in t.summary()
    assert delayed(submissions=1).summary()[-1] == "Delayed feedback, 1 submission"
    assert delayed(submissions=5).preset == "custom"


@pytest.mark.parametrize("submissions", [0, 2, 4, 6, -1])
def test_submissions_outside_the_options_are_refused(submissions):
    with pytest.raises(race.MalformedMove, match="Submissions must be 1, 3 or 5"):
        delayed(submissions=submissions)


def test_rules_round_trip_and_old_rules_read_as_immediate():
    for rules in (TOURNAMENT, delayed(submissions=5, hint_limit=3), race.STANDARD):
        assert Rules.from_dict(rules.to_dict()) == rules
    old = {"notes": True, "hint_limit": 3, "penalty": "flat", "mistake_cap": None}
    assert Rules.from_dict(old) == race.STANDARD


def test_submissions_mean_nothing_with_immediate_feedback_and_caps_nothing_with_delayed():
    assert Rules(submissions=5) == race.STANDARD  # an immediate room stays Standard
    assert delayed(mistake_cap=3).mistake_cap is None  # the submissions are the delayed cap


# Entries are neither confirmed nor refused: the board keeps whatever the player types,
# right or wrong, and the player may erase or overwrite any of their own entries.
def test_entries_are_kept_as_typed_right_or_wrong():
    board, right = race.enter(Board.new(PUZZLE), TOURNAMENT, SOLUTION, 2, SOLUTION[2])
    board, wrong = race.enter(board, TOURNAMENT, SOLUTION, 3, wrong_digit(3))
    assert (board.cells[2], board.cells[3]) == (SOLUTION[2], wrong_digit(3))
    assert right == race.Outcome("entry", 2, SOLUTION[2]) and wrong == race.Outcome("entry", 3, wrong_digit(3))
    assert right.message == wrong.message == "" and right.points == wrong.points == 0


def test_own_entries_can_be_overwritten_and_erased():
    board, _ = race.enter(Board.new(PUZZLE), TOURNAMENT, SOLUTION, 2, 1)
    board, _ = race.enter(board, TOURNAMENT, SOLUTION, 2, 4)
    assert board.cells[2] == 4
    board, outcome = race.erase(board, TOURNAMENT, 2)
    assert board.cells[2] == 0 and outcome.kind == "erase"
    with pytest.raises(race.IllegalMove, match="already empty"):
        race.erase(board, TOURNAMENT, 2)


# (givens stay locked)
def test_givens_stay_locked():
    board = Board.new(PUZZLE)
    with pytest.raises(race.IllegalMove, match="given"):
        race.enter(board, TOURNAMENT, SOLUTION, 0, 4)
    with pytest.raises(race.IllegalMove, match="given"):
        race.erase(board, TOURNAMENT, 0)


# Nothing scores and no mistake counts while the player fills the grid.
def test_nothing_scores_and_no_mistake_counts_while_filling():
    board = filled(wrong_cells=EMPTY[:10])
    assert (board.score, board.mistakes, board.status) == (0, 0, Status.PLAYING)


def test_notes_work_and_an_entry_clears_only_its_own_cell():
    board, _ = race.toggle_note(Board.new(PUZZLE), TOURNAMENT, 2, 4)
    board, _ = race.toggle_note(board, TOURNAMENT, 3, 4)
    board, _ = race.enter(board, TOURNAMENT, SOLUTION, 2, 4)
    assert board.notes_at(2) == [] and board.notes_at(3) == [4]  # an unjudged 4 says nothing about its peers
    with pytest.raises(race.IllegalMove, match="already filled"):
        race.toggle_note(board, TOURNAMENT, 2, 5)


# Submit (only when every cell is filled) asks the server to check the whole grid.
def test_submit_needs_every_cell_filled():
    board, _ = race.erase(filled(), TOURNAMENT, EMPTY[0])
    with pytest.raises(race.IllegalMove, match=r"Fill every cell before you submit \(1 cell is empty\)"):
        race.submit(board, TOURNAMENT, SOLUTION)
    with pytest.raises(race.IllegalMove, match=r"\(51 cells are empty\)"):
        race.submit(Board.new(PUZZLE), TOURNAMENT, SOLUTION)


# All right: the player finishes at that moment.
def test_an_all_right_submission_finishes_and_scores():
    board, sub = race.submit(filled(), TOURNAMENT, SOLUTION)
    assert sub.kind == "finished" and sub.finished and sub.message == "Every cell is right: puzzle complete!"
    assert board.status is Status.FINISHED and board.score == 10 * 51 + 100
    with pytest.raises(race.IllegalMove, match="already finished"):
        race.submit(board, TOURNAMENT, SOLUTION)
    with pytest.raises(race.IllegalMove, match="already finished"):
        race.enter(board, TOURNAMENT, SOLUTION, EMPTY[0], 1)


# Otherwise the player is told how many cells are wrong, never which, and the submission
# counts as a mistake: the room's mistake penalty applies, +60 s per wrong submission.
@pytest.mark.parametrize(
    "wrong, message",
    [
        (1, "1 cell is wrong (2 submissions left, +60 s)"),
        (2, "2 cells are wrong (2 submissions left, +60 s)"),
        (3, "3 cells are wrong (2 submissions left, +60 s)"),
    ],
)
def test_a_wrong_submission_says_how_many(wrong, message):
    board, sub = race.submit(filled(EMPTY[:wrong]), TOURNAMENT, SOLUTION)
    assert (sub.kind, sub.wrong, sub.left, sub.penalty_seconds, sub.message) == ("wrong", wrong, 2, 60, message)
    assert board.mistakes == 1 and board.status is Status.PLAYING and race.penalty_seconds(board) == 60
    assert board.cells == filled(EMPTY[:wrong]).cells  # the grid stays as submitted


def test_fix_and_finish_after_a_wrong_submission():
    board, _ = race.submit(filled(EMPTY[:2]), TOURNAMENT, SOLUTION)
    for cell in EMPTY[:2]:
        board, _ = race.enter(board, TOURNAMENT, SOLUTION, cell, SOLUTION[cell])
    board, sub = race.submit(board, TOURNAMENT, SOLUTION)
    assert sub.finished and race.penalty_seconds(board) == 60 and race.submissions_used(board) == 2
    assert board.score == 510 + 100 - 5  # flat: -5 for the wrong submission


def test_the_same_grid_is_not_checked_twice():
    board, _ = race.submit(filled(EMPTY[:2]), TOURNAMENT, SOLUTION)
    with pytest.raises(race.IllegalMove, match="already checked: change a cell"):
        race.submit(board, TOURNAMENT, SOLUTION)
    assert board.mistakes == 1
    board, _ = race.enter(board, TOURNAMENT, SOLUTION, EMPTY[5], wrong_digit(EMPTY[5]))  # any change counts
    board, sub = race.submit(board, TOURNAMENT, SOLUTION)
    assert sub.wrong == 3 and board.mistakes == 2


@pytest.mark.parametrize(
    "penalty, scores", [(Penalty.NONE, [480, 480]), (Penalty.FLAT, [475, 470]), (Penalty.PROGRESSIVE, [475, 465])]
)
def test_the_rooms_penalty_applies_per_wrong_submission(penalty, scores):
    rules = delayed(penalty=penalty, submissions=5)
    board, got = filled(EMPTY[:2], rules), []
    for n in range(2):
        board, _ = race.enter(board, rules, SOLUTION, EMPTY[10], (SOLUTION[EMPTY[10]] + n) % 9 + 1)
        board, _ = race.submit(board, rules, SOLUTION)
        got.append(race.final_score(board, rules, SOLUTION))
    assert got == scores  # 48 right cells each time: 480, minus the penalties


# A room allows 3 submissions (host option: 1, 3 or 5); after the last wrong one the
# player is out, like an eliminated player.
@pytest.mark.parametrize("limit", [1, 3, 5])
def test_out_after_the_last_wrong_submission(limit):
    rules = delayed(submissions=limit)
    board = filled(EMPTY[:1], rules)
    for n in range(1, limit + 1):
        if n > 1:
            board, _ = race.enter(board, rules, SOLUTION, EMPTY[n], wrong_digit(EMPTY[n]))
        board, sub = race.submit(board, rules, SOLUTION)
    assert sub.kind == "out" and sub.eliminated and sub.left == 0
    assert sub.message.endswith("(that was your last submission: you are out)")
    assert board.status is Status.ELIMINATED and board.mistakes == limit
    # Not scored until the room ends: a score now would tell how many cells are right.
    assert board.score == 0 and race.settle(board, rules, SOLUTION).score > 0
    for refused in (
        lambda: race.submit(board, rules, SOLUTION),
        lambda: race.enter(board, rules, SOLUTION, EMPTY[0], 1),
        lambda: race.erase(board, rules, EMPTY[0]),
    ):
        with pytest.raises(race.IllegalMove, match="last submission: you are out"):
            refused()


def test_the_one_left_message():
    rules = delayed(submissions=3)
    board, _ = race.submit(filled(EMPTY[:1], rules), rules, SOLUTION)
    board, _ = race.enter(board, rules, SOLUTION, EMPTY[3], wrong_digit(EMPTY[3]))
    _, sub = race.submit(board, rules, SOLUTION)
    assert sub.message == "2 cells are wrong (1 submission left, +60 s)"


# Hints, where the room allows them, reveal and lock one right cell as usual.
def test_hints_reveal_and_lock_one_right_cell():
    rules = delayed(hint_limit=3)
    board, outcome = race.hint(Board.new(PUZZLE), rules, SOLUTION, 2)
    assert (outcome.kind, outcome.cell, outcome.digit, board.cells[2], board.hints) == ("hint", 2, 4, 4, 1)
    for refused in (lambda: race.enter(board, rules, SOLUTION, 2, 5), lambda: race.erase(board, rules, 2)):
        with pytest.raises(race.IllegalMove, match="revealed by a hint"):
            refused()
    with pytest.raises(race.IllegalMove, match="Hints are off"):
        race.hint(Board.new(PUZZLE), TOURNAMENT, SOLUTION, 2)


def test_a_hint_replaces_an_own_entry_in_the_selected_cell():
    rules = delayed(hint_limit=3)
    board, _ = race.enter(Board.new(PUZZLE), rules, SOLUTION, 2, wrong_digit(2))
    board, outcome = race.hint(board, rules, SOLUTION, 2)
    assert outcome.cell == 2 and board.cells[2] == SOLUTION[2] and 2 in board.hinted


def test_a_hint_on_a_locked_cell_picks_a_cell_without_looking_at_the_solution():
    rules = delayed(hint_limit=3)
    _, on_given = race.hint(Board.new(PUZZLE), rules, SOLUTION, 0)  # 0 is a given
    _, immediate = race.hint(Board.new(PUZZLE), race.STANDARD, SOLUTION, 0)
    assert on_given.cell == immediate.cell  # an empty cell with the fewest candidates
    # A full grid: one of the player's entries, the same whichever of them are wrong.
    other_solution = tuple(10 - d if not g else d for d, g in zip(SOLUTION, PUZZLE, strict=True))
    full = filled(EMPTY[:2], rules)
    (_, a), (_, b) = race.hint(full, rules, SOLUTION), race.hint(full, rules, other_solution)
    assert a.cell == b.cell and a.cell in EMPTY


# Live standings show how many cells each player has filled, never whether an entry is right.
def test_progress_counts_filled_cells():
    board = filled(EMPTY[:20])
    board, _ = race.erase(board, TOURNAMENT, EMPTY[30])
    assert board.progress == 50 and race.right_cells(board, SOLUTION) == 30


# Score at the end: 10 per right cell, +100 for finishing, minus penalties and hints.
def test_score_at_the_end():
    rules = delayed(hint_limit=1)
    board, _ = race.hint(Board.new(PUZZLE), rules, SOLUTION, EMPTY[0])
    board = filled(EMPTY[1:4], rules, board)
    board, _ = race.submit(board, rules, SOLUTION)  # 3 wrong: -5
    settled = race.settle(board, rules, SOLUTION)
    assert settled.score == 10 * 47 - 5 - 25  # 50 own cells, 47 right; the hinted cell earns nothing
    assert race.settle(Board.new(PUZZLE), race.STANDARD, SOLUTION) == Board.new(PUZZLE)  # immediate: as it stands


# Ranking: finished players by time plus their 60-second penalties (the near-tie window
# applies to that total, then fewer wrong submissions, then fewer hints); then everyone
# else by right cells when the room ends, then fewer wrong submissions, then score.
def _s(key, status, progress=0, mistakes=0, hints=0, score=0, time=None):
    return Standing(key, status, progress, mistakes, hints, score, time, penalty_seconds=60 * mistakes)


def _places(standings):
    return [(place, s.key) for place, s in race.rank(standings, 1.0, Feedback.DELAYED)]


def test_ranking_finished_by_time_plus_penalties():
    standings = [
        _s("fast-but-wrong-once", Status.FINISHED, 51, mistakes=1, time=100),  # 160
        _s("slow-clean", Status.FINISHED, 51, time=150),  # 150
    ]
    assert _places(standings) == [(1, "slow-clean"), (2, "fast-but-wrong-once")]


def test_ranking_near_tie_on_the_total_then_fewer_wrong_submissions_then_hints():
    standings = [
        _s("a", Status.FINISHED, 51, mistakes=1, time=99.5),  # 159.5
        _s("b", Status.FINISHED, 51, mistakes=0, hints=1, time=160),
        _s("c", Status.FINISHED, 51, mistakes=0, hints=0, time=160.4),
    ]
    assert _places(standings) == [(1, "c"), (2, "b"), (3, "a")]


def test_ranking_everyone_else_together_by_right_cells_then_wrong_submissions_then_score():
    standings = [
        _s("out", Status.ELIMINATED, progress=48, mistakes=3, score=465),
        _s("solving", Status.PLAYING, progress=48, mistakes=1, score=475),
        _s("left", Status.LEFT, progress=50),
        _s("won", Status.FINISHED, 51, time=600),
        _s("tie1", Status.PLAYING, progress=10, score=100),
        _s("tie2", Status.PLAYING, progress=10, score=100),
    ]
    assert _places(standings) == [(1, "won"), (2, "left"), (3, "solving"), (4, "out"), (5, "tie1"), (5, "tie2")]


def test_immediate_ranking_keeps_its_groups():
    standings = [_s("out", Status.ELIMINATED, progress=50), _s("solving", Status.PLAYING, progress=10)]
    assert [s.key for _, s in race.rank(standings)] == ["solving", "out"]


# When the room is over, every player's board is shown with their wrong cells marked.
def test_review_marks_wrong_cells():
    rules = delayed(hint_limit=1)
    board, _ = race.hint(Board.new(PUZZLE), rules, SOLUTION, EMPTY[0])
    board = filled(EMPTY[1:3], rules, board)
    board, _ = race.erase(board, rules, EMPTY[5])
    kinds = race.review(board, SOLUTION)
    assert kinds[0] is Review.GIVEN and kinds[EMPTY[0]] is Review.HINT
    assert [kinds[c] for c in EMPTY[1:3]] == [Review.WRONG, Review.WRONG]
    assert kinds[EMPTY[5]] is Review.EMPTY and kinds[EMPTY[6]] is Review.RIGHT


def test_immediate_rules_have_nothing_to_erase_or_submit():
    for refused in (
        lambda: race.erase(Board.new(PUZZLE), race.STANDARD, 2),
        lambda: race.submit(filled(), race.STANDARD, SOLUTION),
    ):
        with pytest.raises(race.IllegalMove, match="judged at once"):
            refused()


def test_board_round_trips_with_checked():
    board, _ = race.submit(filled(EMPTY[:2]), TOURNAMENT, SOLUTION)
    assert board.checked and Board.from_dict(board.to_dict()) == board
    data = board.to_dict()
    del data["checked"]  # boards stored before issue 25
    assert Board.from_dict(data).checked is False


# --- Properties -------------------------------------------------------------------------

grids = st.lists(st.integers(1, 9), min_size=len(EMPTY), max_size=len(EMPTY))


def grid_board(digits, rules=TOURNAMENT):
    board = Board.new(PUZZLE)
    for cell, digit in zip(EMPTY, digits, strict=True):
        board, _ = race.enter(board, rules, SOLUTION, cell, digit)
    return board


@settings(max_examples=60, deadline=None)
@given(grids, st.randoms(use_true_random=False))
def test_a_submission_never_reveals_which_cells_are_wrong(digits, rnd):
    """The same grid with its wrong cells moved elsewhere gets the same answer: the
    submission depends on how many cells are wrong only."""
    board = grid_board(digits)
    wrong = [c for c in EMPTY if board.cells[c] != SOLUTION[c]]
    moved = rnd.sample(EMPTY, len(wrong))
    other = grid_board([wrong_digit(c) if c in moved else SOLUTION[c] for c in EMPTY])
    (after, sub), (other_after, other_sub) = (
        race.submit(board, TOURNAMENT, SOLUTION),
        race.submit(other, TOURNAMENT, SOLUTION),
    )
    assert sub == other_sub and sub.wrong == len(wrong)
    assert str(sub.message) == str(other_sub.message)
    assert (after.mistakes, after.status, after.checked) == (
        other_after.mistakes,
        other_after.status,
        other_after.checked,
    )


@settings(max_examples=60, deadline=None)
@given(grids, st.integers(1, 9), st.sampled_from(EMPTY))
def test_entries_never_look_at_the_solution(digits, digit, cell):
    other_solution = tuple(10 - d if not g else d for d, g in zip(SOLUTION, PUZZLE, strict=True))
    board = grid_board(digits)
    assert race.enter(board, TOURNAMENT, SOLUTION, cell, digit) == race.enter(
        board, TOURNAMENT, other_solution, cell, digit
    )


@settings(max_examples=60, deadline=None)
@given(grids, st.sampled_from([1, 3, 5]), st.sampled_from(list(Penalty)), st.integers(0, 5))
def test_end_score_is_ten_per_right_cell_plus_bonus_minus_penalties(digits, limit, penalty, tries):
    rules = delayed(submissions=limit, penalty=penalty)
    board = grid_board(digits, rules)
    for n in range(tries):
        if board.status is not Status.PLAYING:
            break
        board, _ = race.submit(board, rules, SOLUTION) if not board.checked else (board, None)
        if board.status is Status.PLAYING:
            cell = EMPTY[n]  # change a cell (to its right digit) so the grid can go in again
            board, _ = race.enter(board, rules, SOLUTION, cell, SOLUTION[cell])
    right = sum(1 for c in EMPTY if board.cells[c] == SOLUTION[c])
    bonus = 100 if board.status is Status.FINISHED else 0
    penalties = sum(rules.penalty_for(n) for n in range(1, board.mistakes + 1))
    assert race.settle(board, rules, SOLUTION).score == max(0, 10 * right + bonus - penalties)
    assert board.mistakes <= limit and (board.status is Status.ELIMINATED) == (board.mistakes == limit)


def test_one_out_never_shares_a_place_with_one_still_solving():
    """Issue 43 item 14: in the live standings an eliminated player shared 2nd place with one
    still solving (the same filled cells, wrong submissions hidden while the room plays)."""
    done = Standing("ada", Status.FINISHED, 51, 0, 0, 610, finish_time=300)
    out = Standing("ben", Status.ELIMINATED, 51, 0, 0, 0)
    solving = Standing("cleo", Status.PLAYING, 51, 0, 0, 0)
    ranked = race.rank([done, out, solving], feedback=Feedback.DELAYED)
    assert [(place, s.key) for place, s in ranked] == [(1, "ada"), (2, "cleo"), (3, "ben")]


def test_the_pad_never_counts_below_zero_and_submit_says_why_it_waits():
    from games.sudoku import fragments

    board = Board.new(PUZZLE)
    for cell in EMPTY:
        board, _ = race.enter(board, TOURNAMENT, SOLUTION, cell, 1)  # a 1 everywhere: far more than 9 of it
    assert dict(fragments.pad_left(board))[1] == 0
    board, _ = race.submit(board, TOURNAMENT, SOLUTION)  # wrong: the same grid is not checked again
    assert "change a cell first" in fragments.submit_button(board.submittable, board.checked)
    assert "change a cell first" not in fragments.submit_button(True, False)

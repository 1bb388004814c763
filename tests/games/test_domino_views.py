"""Solo Sudoku Domino through its views: every move, every refusal, the clock, the records."""

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from games.domino import solo
from games.domino.models import DominoGame
from games.domino.play import Push
from games.engines import domino as d
from games.models import Puzzle
from tests.conftest import PUZZLE, SOLUTION, client_for

HX = {"HTTP_HX_REQUEST": "true"}
SOLUTION_DIGITS = tuple(int(ch) for ch in SOLUTION)


def fresh(game) -> DominoGame:
    return DominoGame.objects.get(pk=game.pk)


def target(state, cell):
    return state.solution[(cell[0] - 1) * 9 + cell[1] - 1]


def entries(game, correct: bool) -> list[str]:
    state = fresh(game).engine_state()
    return [
        f"{edge}-{line}"
        for (edge, line), cell in d.entry_points(state).items()
        if (target(state, cell) == state.current_stone) == correct
    ]


def seed_with_both():
    """A seed whose first stone has a right and a wrong entry point (deterministic tests)."""
    puzzle = tuple(int(ch) for ch in PUZZLE)
    for seed in range(500):
        state = d.new_game(puzzle, SOLUTION_DIGITS, seed, 0.0)
        hits = {target(state, cell) == state.current_stone for cell in d.entry_points(state).values()}
        if hits == {True, False}:
            return seed
    raise AssertionError("no seed found")


@pytest.fixture
def game(player, bank_puzzle):
    return solo.start_game(player, "easy", seed=seed_with_both())


def act(client, game, **data):
    return client.post(reverse("domino_act", args=[game.pk]), data, **HX)


def page(client, game, **params):
    return client.get(reverse("domino_game", args=[game.pk]), params)


def empty_cell(game):
    state = fresh(game).engine_state()
    return next(f"{r}-{c}" for r in range(1, 10) for c in range(1, 10) if state.cell(r, c) == d.EMPTY)


# --------------------------------------------------------------------------- starting


def test_new_game_takes_a_banked_puzzle_and_starts_the_clock(player_client, player, bank_puzzle):
    response = player_client.post(reverse("domino_new"), {"level": "easy"})
    game = DominoGame.objects.get(player=player)
    assert response.status_code == 302 and response["Location"] == reverse("domino_game", args=[game.pk])
    assert game.puzzle == bank_puzzle and Puzzle.objects.get(pk=bank_puzzle.pk).used_at is not None
    assert game.status == "playing" and game.lives == 3 and game.score == 0
    assert (game.deadline - game.started_at).total_seconds() == 600
    assert game.engine_state().puzzle == bank_puzzle.givens_tuple


def test_new_game_with_htmx_redirects_the_client(player_client, player, bank_puzzle):
    response = player_client.post(reverse("domino_new"), {"level": "easy"}, **HX)
    assert response.status_code == 200 and response["HX-Redirect"].startswith("/domino/")


def test_new_game_rejects_an_unknown_level(player_client, bank_puzzle):
    response = player_client.post(reverse("domino_new"), {"level": "insane"})
    assert response.status_code == 400 and b"Pick Easy, Medium, Hard or Expert" in response.content
    assert not DominoGame.objects.exists()


# --------------------------------------------------------------------------- the page


def test_game_page_shows_an_accessible_board_and_only_valid_markers(player_client, game):
    html = page(player_client, game).content.decode()
    assert 'role="grid"' in html and html.count('role="gridcell"') == 81
    assert 'aria-label="Row 1, column 1, 5"' in html and 'aria-label="Row 1, column 3, empty"' in html
    state = game.engine_state()
    valid = d.entry_points(state)
    markers = re.findall(r'name="push" value="(\w+)-(\d)" aria-label="([^"]+)"', html)
    assert {(edge, int(line)) for edge, line, _ in markers} == set(valid)
    assert ("left", 1) not in valid  # row 1 starts with a given: no marker there
    assert "Push from the left into row 1" not in html
    for edge, line, label in markers:
        kind = "row" if edge in ("left", "right") else "column"
        assert label.startswith(f"Push from the {edge} into {kind} {line} (stops at row ")
    assert f'aria-label="Current stone: {state.current_stone}"' in html
    assert f'aria-label="Next stone: {state.next_stone}"' in html
    assert "/how-to-play/#domino" in html


def test_unreachable_cells_are_marked(player_client, game):
    state = game.engine_state()
    assert state.unreachable
    html = page(player_client, game).content.decode()
    for row, col in state.unreachable:
        assert f'aria-label="Row {row}, column {col}, unreachable"' in html
    assert f"{len(state.unreachable)} unreachable cells" in html


def assert_no_secrets(html: str, game: DominoGame):
    state = fresh(game).engine_state()
    assert SOLUTION not in html and SOLUTION[:27] not in html
    if game.seed > 10**6:
        assert str(game.seed) not in html
    # The stone order beyond the current stone and the preview is never sent, in any form.
    bag = [str(digit) for digit in state.bag]
    for joined in ("".join(bag), ",".join(bag), ", ".join(bag), " ".join(bag), str(list(state.bag))):
        assert len(bag) < 3 or joined not in html
    assert '"bag"' not in html and "data-bag" not in html
    # Every digit shown on the board is a stone that is really there.
    for row, col, digit in re.findall(r'aria-label="Row (\d), column (\d), (\d)"', html):
        assert state.cell(int(row), int(col)) == int(digit)


def test_solution_and_stone_order_never_reach_the_browser(player_client, player, game):
    Puzzle.objects.create(level="hard", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=9)
    random_seed = solo.start_game(player, "hard")
    assert_no_secrets(page(player_client, random_seed).content.decode(), random_seed)
    assert_no_secrets(page(player_client, game).content.decode(), game)
    assert_no_secrets(act(player_client, game, push=entries(game, True)[0]).content.decode(), game)
    assert_no_secrets(act(player_client, game, push=entries(game, False)[0]).content.decode(), game)
    assert_no_secrets(page(player_client, game, joker="gold").content.decode(), game)
    assert_no_secrets(act(player_client, game, joker="grey", cell=empty_cell(game)).content.decode(), game)
    for url in ("/", "/domino/", "/leaderboards/"):
        assert_no_secrets(player_client.get(url).content.decode(), game)


# --------------------------------------------------------------------------- happy paths


def test_a_correct_push_scores_five_and_deals_the_next_stone(player_client, game):
    before = game.engine_state()
    entry = entries(game, True)[0]
    edge, line = entry.split("-")
    cell = d.entry_points(before)[(edge, int(line))]
    response = act(player_client, game, push=entry, version=0)
    assert response.status_code == 200 and b"Correct: +5" in response.content
    assert f'aria-label="Row {cell[0]}, column {cell[1]}, {before.current_stone}"'.encode() in response.content
    assert b"stone placed" in response.content and b"slide" in response.content
    game = fresh(game)
    assert game.score == 5 and game.stones_placed == 1 and game.moves == 1 and game.lives == 3
    assert game.engine_state().cell(*cell) == before.current_stone
    assert game.engine_state().current_stone == before.next_stone


def test_a_wrong_push_costs_a_life_and_keeps_the_stone(player_client, game):
    before = game.engine_state()
    response = act(player_client, game, push=entries(game, False)[0])
    assert response.status_code == 200 and b"Wrong: the" in response.content
    assert b"wrong-stone" in response.content and b"2 of 3 lives left" in response.content
    game = fresh(game)
    state = game.engine_state()
    assert game.lives == 2 and game.score == 0 and game.moves == 1
    assert state.board == before.board and state.current_stone == before.current_stone


def test_a_wrong_push_names_the_duplicate(player_client, player, bank_puzzle):
    # Find a seed whose first stone would duplicate a digit from some entry point.
    puzzle = tuple(int(ch) for ch in PUZZLE)
    for seed in range(500):
        state = d.new_game(puzzle, SOLUTION_DIGITS, seed, 0.0)
        for (edge, line), cell in d.entry_points(state).items():
            if target(state, cell) == state.current_stone:
                continue
            _, outcome = d.push(state, edge, line, 1.0)
            if outcome.clashes:
                game = solo.start_game(player, "easy", seed=seed)
                response = act(player_client, game, push=f"{edge}-{line}")
                assert f"duplicates the {state.current_stone} in".encode() in response.content
                assert b'class="d-cell' in response.content and b" clash" in response.content
                return
    raise AssertionError("no clash found")


def test_a_gold_joker_scores_five_and_keeps_the_stone(player_client, game):
    before = game.engine_state()
    cell = empty_cell(game)
    response = act(player_client, game, joker="gold", cell=cell)
    assert response.status_code == 200 and b"Gold joker placed. +5" in response.content
    row, col = map(int, cell.split("-"))
    assert f'aria-label="Row {row}, column {col}, gold joker"'.encode() in response.content
    game = fresh(game)
    state = game.engine_state()
    assert game.score == 5 and game.jokers_used == 1 and state.jokers_left == {"grey": 4, "gold": 1}
    assert state.cell(row, col) == d.GOLD and state.current_stone == before.current_stone


def test_joker_mode_offers_every_empty_cell_and_hides_the_markers(player_client, game):
    html = page(player_client, game, joker="grey").content.decode()
    state = game.engine_state()
    empties = sum(1 for v in state.board if v == d.EMPTY)
    assert html.count('name="cell"') == empties
    assert 'aria-label="Place the grey joker on row 1, column 3"' in html
    assert 'name="push"' not in html and 'name="joker" value="grey"' in html
    assert "Cancel joker" in html


def test_a_joker_by_row_and_col_fields_works_too(player_client, game):
    response = act(player_client, game, joker="grey", row=1, col=3)
    assert response.status_code == 200 and fresh(game).engine_state().cell(1, 3) == d.GREY
    assert fresh(game).score == 0


def test_the_game_survives_a_reload(player_client, game):
    entry = entries(game, True)[0]
    act(player_client, game, push=entry)
    act(player_client, game, push=entries(game, False)[0])
    act(player_client, game, joker="gold", cell=empty_cell(game))
    saved = fresh(game)
    html = page(player_client, game).content.decode()
    state = saved.engine_state()
    assert f'<span class="score" data-score>{saved.score}</span>' in html
    assert 'aria-label="2 of 3 lives left"' in html and "Gold joker, 1 left" in html
    assert f'aria-label="Current stone: {state.current_stone}"' in html
    for row, col, digit in re.findall(r'aria-label="Row (\d), column (\d), (\d)"', html):
        assert state.cell(int(row), int(col)) == int(digit)
    assert html.count(", gold joker") == 1


def test_non_htmx_post_redirects_back_to_the_game(player_client, game):
    response = player_client.post(reverse("domino_act", args=[game.pk]), {"push": entries(game, True)[0]})
    assert response.status_code == 302 and response["Location"] == reverse("domino_game", args=[game.pk])
    assert fresh(game).score == 5


def test_a_move_on_an_old_board_is_refused(player_client, game):
    act(player_client, game, push=entries(game, True)[0], version=0)
    response = act(player_client, game, push=entries(game, True)[0] if entries(game, True) else "right-1", version=0)
    assert response.status_code == 409 and b"board changed" in response.content
    assert fresh(game).moves == 1


# --------------------------------------------------------------------------- refusals


def test_a_push_at_an_invalid_entry_point_is_refused(player_client, game):
    response = act(player_client, game, push="left-1")  # row 1 starts with a given
    assert response.status_code == 409
    assert b"Push from the left into row 1 is not possible" in response.content
    assert fresh(game).moves == 0 and fresh(game).lives == 3


def test_a_push_where_no_stone_stops_the_slide_is_refused(player_client, player, db):
    grid = [0] * 81
    grid[0] = SOLUTION_DIGITS[0]  # one given, top left: row 5 has nothing to meet
    puzzle = Puzzle.objects.create(
        level="easy", givens="".join(map(str, grid)), solution=SOLUTION, clues=1, techniques=[], seed=2
    )
    game = solo.start_game(player, "easy")
    assert game.puzzle == puzzle
    response = act(player_client, game, push="left-5")
    assert response.status_code == 409 and b"no stone on that line" in response.content
    assert fresh(game).moves == 0


def test_a_joker_on_a_filled_cell_is_refused(player_client, game):
    response = act(player_client, game, joker="gold", cell="1-1")
    assert response.status_code == 409 and b"Row 1, column 1 is not empty" in response.content
    game = fresh(game)
    assert game.moves == 0 and game.engine_state().jokers_left == {"grey": 4, "gold": 2}
    assert b'name="joker" value="gold"' in response.content  # still choosing a cell


def test_no_jokers_left_is_refused(player_client, game):
    for _ in range(2):
        assert act(player_client, game, joker="gold", cell=empty_cell(game)).status_code == 200
    response = act(player_client, game, joker="gold", cell=empty_cell(game))
    assert response.status_code == 409 and b"No gold jokers left" in response.content
    assert fresh(game).jokers_used == 2 and fresh(game).moves == 2
    response = page(player_client, game, joker="gold")
    assert response.status_code == 409 and b"No gold jokers left" in response.content
    assert b'name="cell"' not in response.content


def test_a_move_after_the_game_ended_is_refused(player_client, game):
    for _ in range(3):
        act(player_client, game, push=entries(game, False)[0])
    game = fresh(game)
    assert game.status == "finished" and game.end_reason == "lives" and game.finished_at
    response = act(player_client, game, push="right-1")
    assert response.status_code == 409 and b"The game is over" in response.content
    response = act(player_client, game, joker="gold", cell=empty_cell(game))
    assert response.status_code == 409 and fresh(game).moves == 3
    assert b"Out of lives" in response.content and b'name="push"' not in response.content


def test_a_move_after_ten_minutes_ends_the_game_and_is_not_played(player_client, game):
    entry = entries(game, True)[0]
    with time_machine.travel(game.started_at + dt.timedelta(seconds=601), tick=False):
        response = act(player_client, game, push=entry)
    assert response.status_code == 409 and b"Time is up" in response.content
    game = fresh(game)
    assert game.status == "finished" and game.end_reason == "time" and game.score == 0
    assert game.stones_placed == 0 and game.finished_at == game.deadline
    with time_machine.travel(game.started_at + dt.timedelta(seconds=700), tick=False):
        response = act(player_client, game, push=entry)
    assert response.status_code == 409 and b"The game is over" in response.content


def test_the_game_ends_at_ten_minutes_even_if_nobody_plays(player_client, player, game):
    with time_machine.travel(game.started_at + dt.timedelta(seconds=599), tick=False):
        html = page(player_client, game).content.decode()
        assert "0:01" in html and fresh(game).status == "playing"
    with time_machine.travel(game.started_at + dt.timedelta(seconds=650), tick=False):
        assert player_client.get("/leaderboards/").status_code == 200  # any request settles it
        game = fresh(game)
        assert game.status == "finished" and game.end_reason == "time"
        html = page(player_client, game).content.decode()
        assert "Time is up" in html and 'name="push"' not in html


def test_the_periodic_sweep_ends_overdue_games(game, player, bank_puzzle):
    from games.domino.tasks import sweep_overdue_domino_games

    with time_machine.travel(game.started_at + dt.timedelta(seconds=300), tick=False):
        assert sweep_overdue_domino_games() == 0
    with time_machine.travel(game.started_at + dt.timedelta(seconds=601), tick=False):
        assert sweep_overdue_domino_games() == 1
        assert sweep_overdue_domino_games() == 0  # idempotent
    game = fresh(game)
    assert game.status == "finished" and game.end_reason == "time"
    assert game.engine_state().moves[-1][0] == "time"


def test_someone_elses_game_is_refused(game, other_player):
    client = client_for(other_player)
    response = act(client, game, push=entries(game, True)[0])
    assert response.status_code == 403 and b"not yours" in response.content
    assert response["HX-Retarget"] == "#flash"
    assert fresh(game).moves == 0
    response = client.get(reverse("domino_game", args=[game.pk]))
    assert response.status_code == 403 and b'role="grid"' not in response.content


def test_unknown_game_and_wrong_methods(player_client, game):
    assert player_client.post(reverse("domino_act", args=[999999]), {"push": "right-1"}, **HX).status_code == 403
    assert player_client.get(reverse("domino_game", args=[999999])).status_code == 404
    assert player_client.get(reverse("domino_act", args=[game.pk])).status_code == 405
    assert player_client.post(reverse("domino_game", args=[game.pk])).status_code == 405
    assert player_client.get(reverse("domino_new")).status_code == 405
    assert player_client.post(reverse("domino_home")).status_code == 405
    assert fresh(game).moves == 0


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, b"Choose an entry point"),
        ({"push": "diagonal-3"}, b"The edge must be left, right, top or bottom"),
        ({"push": "left-0"}, b"The line must be a whole number from 1 to 9"),
        ({"push": "left-x"}, b"The line must be a whole number from 1 to 9"),
        ({"push": "left"}, b"The entry point is not understood"),
        ({"edge": "left"}, b"The line must be a whole number"),
        ({"joker": "silver", "cell": "1-3"}, b"The joker must be grey or gold"),
        ({"joker": "grey", "cell": "0-3"}, b"The row must be a whole number from 1 to 9"),
        ({"joker": "grey", "cell": "1-10"}, b"The column must be a whole number from 1 to 9"),
        ({"joker": "grey"}, b"The row must be a whole number"),
        ({"joker": "grey", "cell": "1-3", "push": "right-1"}, b"not both at once"),
        ({"push": "right-1", "version": "-1"}, b"The version must be a whole number"),
    ],
)
def test_malformed_moves_are_refused_and_change_nothing(player_client, game, data, message):
    response = act(player_client, game, **data)
    assert response.status_code == 400 and message in response.content
    assert fresh(game).moves == 0 and fresh(game).state == game.state


def test_a_malformed_joker_choice_in_the_page_is_refused(player_client, game):
    response = page(player_client, game, joker="silver")
    assert response.status_code == 400 and b"The joker must be grey or gold" in response.content


def test_csrf_is_enforced(player, game):
    from django.test import Client

    from tests.conftest import cookie_for

    client = Client(enforce_csrf_checks=True)
    client.cookies["showdown_player"] = cookie_for(player)
    response = client.post(reverse("domino_act", args=[game.pk]), {"push": entries(game, True)[0]}, **HX)
    assert response.status_code == 403 and fresh(game).moves == 0


# --------------------------------------------------------------------------- the end and the records


def one_gap_puzzle(cell=(1, 1)) -> Puzzle:
    grid = list(SOLUTION)
    grid[(cell[0] - 1) * 9 + cell[1] - 1] = "0"
    return Puzzle.objects.create(
        level="medium", givens="".join(grid), solution=SOLUTION, clues=80, techniques=[], seed=3
    )


def test_filling_the_grid_scores_units_bonus_and_the_servers_seconds_left(player_client, player, db):
    one_gap_puzzle()
    game = solo.start_game(player, "medium")
    with time_machine.travel(game.started_at + dt.timedelta(seconds=100.6), tick=False):
        response = act(player_client, game, push="left-1")
    assert response.status_code == 200 and b"Grid complete!" in response.content
    game = fresh(game)
    # stone 5 + row, column and box 450 each + three units 100 + full grid 500 + 499 s x 10
    assert game.score == 5 + 3 * 450 + 100 + 500 + 4990
    assert game.status == "finished" and game.end_reason == "full"
    assert f"data-final-score>{game.score}<".encode() in response.content


def test_finished_games_go_to_the_players_records(player_client, player, game, other_player):
    for _ in range(3):
        act(player_client, game, push=entries(game, False)[0])
    one_gap_puzzle()
    best = solo.start_game(player, "medium")
    act(player_client, best, push="left-1")
    best = fresh(best)
    one_gap_puzzle()
    theirs = solo.start_game(other_player, "medium")
    act(client_for(other_player), theirs, push="left-1")

    html = player_client.get("/leaderboards/").content.decode()
    assert 'id="domino-records"' in html
    medium = re.search(r'data-domino-level="medium".*?</article>', html, re.S).group(0)
    assert f"data-best>{best.score}<" in medium and "Games <strong>1</strong>" in medium
    assert "Full grids <strong>1</strong>" in medium
    easy = re.search(r'data-domino-level="easy".*?</article>', html, re.S).group(0)
    assert "data-best>0<" in easy and "Out of lives" in html
    assert html.count("data-domino-game=") == 2  # the other player's game is not here


def test_home_card_links_to_domino_and_offers_to_continue(player_client, game):
    html = player_client.get("/").content.decode()
    assert '<article class="panel game-card domino-card"' in html
    assert reverse("domino_new") in html and "Continue Domino" in html
    assert reverse("domino_game", args=[game.pk]) in html
    with time_machine.travel(game.started_at + dt.timedelta(seconds=601), tick=False):
        html = player_client.get("/").content.decode()
    assert "Continue Domino" not in html and fresh(game).status == "finished"


def test_domino_home_page(player_client, game):
    html = player_client.get(reverse("domino_home")).content.decode()
    assert "<h1>Sudoku Domino</h1>" in html and "Continue" in html
    assert "Your Domino records" in html


def test_how_to_play_has_the_domino_section(client, db):
    html = client.get("/how-to-play/").content.decode()
    assert '<h2 id="domino">Sudoku Domino</h2>' in html
    assert "Decisions we made" in html and "Puzzle level: you choose" in html


def test_admin_lists_domino_games(game, db):
    from django.contrib.auth.models import User
    from django.test import Client

    admin = User.objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    response = client.get("/admin/domino/dominogame/?status__exact=playing&q=Ada")
    assert response.status_code == 200 and f">{game.pk}<".encode() in response.content
    assert client.get(f"/admin/domino/dominogame/{game.pk}/change/").status_code == 200


def test_settle_and_act_use_the_same_clock(player, game):
    with time_machine.travel(game.started_at + dt.timedelta(seconds=30), tick=False):
        assert fresh(game).seconds_left() == pytest.approx(570)
        solo.settle(game.pk)
        assert fresh(game).status == "playing"
    with time_machine.travel(game.started_at + dt.timedelta(seconds=600), tick=False):
        _, outcome = solo.act(game.pk, player, Push("right", 1))
    assert outcome.kind == "time_up" and fresh(game).end_reason == "time"


def test_no_joker_left_and_a_stone_that_fits_nowhere_ends_the_game_with_the_reason(player_client, player, db):
    """Issue 13 (docs/rules.md section 4): entry points exist, but none lands the current stone
    on its own cell, and the last joker is gone: the game ends there and says why."""
    blanks = [(1, 1), (2, 2), (2, 5), (2, 8), (5, 2), (8, 2), (8, 5), (8, 8)]
    grid = list(SOLUTION)
    for r, c in blanks:
        grid[(r - 1) * 9 + c - 1] = "0"
    Puzzle.objects.create(level="hard", givens="".join(grid), solution=SOLUTION, clues=73, techniques=[], seed=4)
    digits = tuple(int(ch) for ch in grid)
    seed = next(
        s for s in range(1000) if (bag := d.new_game(digits, SOLUTION_DIGITS, s, 0.0).bag).index(3) < bag.index(5)
    )
    game = solo.start_game(player, "hard", seed=seed)
    kinds = ["grey"] * 4 + ["gold"] * 2
    for kind, (r, c) in zip(kinds, blanks[1:7], strict=True):
        response = act(player_client, game, joker=kind, cell=f"{r}-{c}")
    # The 3 belongs on (8,8), closed in; (1,1) can be reached but is the 5's cell.
    assert response.status_code == 200 and b"No move left" in response.content
    assert b"can be placed nowhere" in response.content and b"No jokers are left" in response.content
    game = fresh(game)
    assert game.status == "finished" and game.end_reason == "stuck"
    assert b"data-marker" not in response.content  # nothing left to push

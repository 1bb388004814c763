"""What a Sudoku Domino push answers: only what changed (out-of-band swaps), and a page
plus the answers of its moves equals the page rendered afresh."""

import re

import pytest
import time_machine

from games.domino.models import DominoGame
from games.engines import domino as d
from tests.games import oob
from tests.games.test_domino_views import act, entries, fresh, game, page  # noqa: F401 (fixture)

CELL = re.compile(r'<div hx-swap-oob="true" id="dm-cell-(\d)-(\d)"')
MARKS = re.compile(
    r' (scored|clash|fresh|slide|dropped|just-lost)(?=[ "])|<span class="stone placed wrong-stone[^>]*>\d</span>'
    r'|<span class="gain"[^>]*>\+\d+</span>| style="--dx[^"]*"'
)


def shown(html: str) -> str:
    """The table, the status items, the hand and the version of a page, without one move's marks."""
    ids = ["dm-clock", "dm-score", "dm-lives", "dm-hand", "dm-version", "dm-legend"]
    parts = [html[slice(*oob.element_span(html, i))] for i in ids]
    start = html.index('<div class="ring ring-top"')
    parts.append(html[start : html.index("</form>", start)])
    return MARKS.sub("", "\n".join(parts))


def test_a_correct_push_answers_with_the_landed_stone_and_no_other_cell_but_what_changed(player_client, game):
    state = fresh(game).engine_state()
    push = entries(game, True)[0]
    edge, line = push.split("-")
    landing = d.entry_points(state)[(edge, int(line))]
    response = act(player_client, game, push=push, version=0)
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none settle:0ms"
    cells = CELL.findall(html)
    assert (str(landing[0]), str(landing[1])) in cells and 'class="stone placed fresh slide"' in html
    after = fresh(game).engine_state()
    changed = {
        (str(r), str(c))
        for r in range(1, 10)
        for c in range(1, 10)
        if state.cell(r, c) != after.cell(r, c) or ((r, c) in state.unreachable) != ((r, c) in after.unreachable)
    }
    assert set(cells) == changed  # the landed stone and the cells it made unreachable, nothing else
    ids = oob.top_level_ids(html)
    assert {"dm-clock", "dm-score", "dm-hand", "dm-message", "domino-live", "dm-version"} <= set(ids)
    assert "dm-lives" not in ids and 'id="game"' not in html and 'value="1"' in html
    assert len(response.content) <= 3 * 1024


def test_a_wrong_push_answers_with_the_refused_stone_the_lives_and_the_message(player_client, game):
    response = act(player_client, game, push=entries(game, False)[0], version=0)
    html = response.content.decode()
    assert response.status_code == 200 and "wrong-stone" in html and "just-lost" in html
    assert "is-error" in html and "dm-lives" in html and "dm-hand" not in html
    assert fresh(game).lives == 2


def test_a_malformed_push_answers_with_the_message(player_client, game):
    response = act(player_client, game, push="left-²", version=0)
    assert response.status_code == 400 and oob.top_level_ids(response.content.decode()) == ["dm-message", "domino-live"]


@pytest.mark.parametrize(
    "data",
    [
        {"push": "left-²"},
        {"push": "left-３"},
        {"edge": "left", "line": "٣"},
        {"push": "left-1", "version": "²"},
        {"joker": "grey", "cell": "²-1"},
        {"joker": "gold", "row": "1", "col": "１"},
    ],
)
def test_non_ascii_numbers_are_a_400(player_client, game, data):
    assert act(player_client, game, **data).status_code == 400 and fresh(game).moves == 0


def test_a_joker_a_stale_version_or_full_1_answers_with_the_whole_game(player_client, game):
    assert b'id="game"' in act(player_client, game, push=entries(game, True)[0], version=0, full="1").content
    response = act(player_client, game, push=entries(game, True)[0], version=0)
    assert response.status_code == 409 and b'id="game"' in response.content
    assert b'id="game"' in act(player_client, game, joker="grey", cell="5-5", version=1).content


def test_a_page_plus_its_answers_is_the_page_rendered_afresh(player_client, game):
    with time_machine.travel(fresh(game).started_at, tick=False):
        html = page(player_client, game).content.decode()
        for i in range(25):
            if fresh(game).finished:
                break
            right, wrong = entries(game, True), entries(game, False)
            if not right and not wrong:
                break
            push = (wrong if (i % 4 == 3 or not right) and wrong and fresh(game).lives > 1 else right or wrong)[0]
            response = act(player_client, game, push=push, version=fresh(game).moves)
            if fresh(game).finished:
                break
            assert response["HX-Reswap"] == "none settle:0ms", (i, push)
            html = oob.apply(html, response.content.decode())
            assert shown(html) == shown(page(player_client, game).content.decode()), (i, push)
    assert DominoGame.objects.get(pk=game.pk).moves >= 5


def test_a_locked_duel_board_with_bare_marker_slots_renders(game):
    from django.template.loader import render_to_string

    from games.domino.presenters import game_view

    view = game_view(fresh(game).engine_state(), 0.0)
    view["markers"] = {
        edge: [{"valid": False}] * 9 for edge in d.EDGES
    }  # as rooms/gametypes/domino.py sends a locked seat
    html = render_to_string("domino/game.html#table", view)
    assert html.count('class="marker-slot"') == 36 and 'id="dm-mark-right-9"' in html


def test_a_push_is_one_read_and_one_write_and_then_one_write(player_client, game, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def statements(push, version):
        with CaptureQueriesContext(connection) as queries:
            act(player_client, game, push=push, version=version)
        return [q["sql"].split()[0].upper() for q in queries.captured_queries]

    with django_capture_on_commit_callbacks(execute=True):  # committed: this process keeps the game
        assert statements(entries(game, True)[0], 0) == ["SELECT", "UPDATE"]
    assert statements(entries(game, True)[0], 1) == ["UPDATE"]
    assert fresh(game).moves == 2 and fresh(game).stones_placed == 2

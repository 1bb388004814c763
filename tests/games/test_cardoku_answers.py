"""What a Cardoku move answers: only what changed (out-of-band swaps), and a page plus
the answers of its moves equals the page rendered afresh."""

import re

import pytest
from django.urls import reverse

from games.cardoku import fragments
from games.cardoku.models import CardokuGame
from games.engines import cardoku as ck
from tests.games import oob
from tests.games.test_cardoku_views import HX, act, deal, fresh

SQUARE = re.compile(r'<div hx-swap-oob="true" id="ck-sq-(\d)-(\d)"')
MARKS = re.compile(r" is-(fresh|flash|tried|hit)")


def board(html: str) -> str:
    """The board, the hand, the score and the step of a page, without one move's marks."""
    parts = [
        html[slice(*oob.element_span(html, i))]
        for i in (
            "ck-board",
            "ck-current",
            "ck-deck",
            "ck-score",
            "ck-step",
            "ck-place-step",
            "ck-undo",
            "ck-toggle-note",
        )
    ]
    return re.sub(r' tabindex="-?\d"', "", MARKS.sub("", "\n".join(parts)))


def page(client, game) -> str:
    return client.get(reverse("cardoku_game", args=[game.pk])).content.decode()


def test_a_placed_card_answers_with_its_square_the_hand_the_deck_and_the_step(player_client, player):
    game = deal(player, lambda d: d[0].digit not in (None, 1) and not d[1].is_wild)
    _card, following = game.engine_state().deck[:2]
    response = act(player_client, game, action="place", row=6, col=1, step=0)
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none settle:0ms"
    assert SQUARE.findall(html) == [("6", "1")] and html.count('role="gridcell"') == 1
    assert oob.top_level_ids(html) == [
        "ck-sq-6-1",
        "ck-current",
        "ck-deck",
        "ck-step",
        "ck-place-step",
        "ck-undo",
        "ck-message",
    ]
    assert f'aria-label="{following.name}"' in html and "<strong data-cards-left>44</strong>" in html
    assert 'value="1"' in html and "is-fresh" in html and "ck-score" not in html
    assert len(response.content) <= 3 * 1024


def test_a_discard_answers_with_the_score_panel_and_no_square(player_client, player):
    game = deal(player)
    html = act(player_client, game, action="discard", step=0).content.decode()
    assert SQUARE.findall(html) == [] and "<strong data-score-total>-9</strong>" in html
    assert "Last discarded" in html and "Discarded the" in html


def test_a_refused_placement_answers_with_the_square_and_its_blockers(player_client, player):
    game = deal(player, lambda d: d[0].digit == 5)  # the 5 of spades stands at (8, 5)
    response = act(player_client, game, action="place", row=7, col=5, step=0)
    html = response.content.decode()
    assert response.status_code == 409 and "is-error" in html and "the 5 of spades" in html
    squares = SQUARE.findall(html)
    assert ("7", "5") in squares and ("8", "5") in squares and 'class="ck-sq is-empty is-tried' in html
    assert "ck-current" not in html and "ck-step" not in html and fresh(game).step == 0


def test_a_malformed_move_answers_with_the_message(player_client, player):
    game = deal(player)
    response = act(player_client, game, action="place", row="²", col=1, step=0)
    assert response.status_code == 400 and oob.top_level_ids(response.content.decode()) == ["ck-message"]


@pytest.mark.parametrize(
    "field, value", [("row", "²"), ("col", "３"), ("step", "٣"), ("square", "7,²"), ("row", "1_0"), ("step", "+1")]
)
def test_non_ascii_numbers_are_a_400(player_client, player, field, value):
    game = deal(player)
    data = {"action": "place", "row": 6, "col": 1, "step": 0, field: value}
    assert act(player_client, game, **data).status_code == 400 and fresh(game).step == 0


def test_non_ascii_layouts_are_a_400_or_a_verdict(player_client):
    response = player_client.post(reverse("cardoku_new"), {"layout": "custom", "spade_1": "7,²"})
    assert response.status_code == 400 and b"must be a whole number" in response.content
    response = player_client.post(reverse("cardoku_check_layout"), {"spade_1": "7,²", "spade_2": "８,1"})
    assert response.status_code == 200 and b"Place the nine spades" in response.content
    assert not CardokuGame.objects.exists()


def test_the_setup_page_leaves_a_non_ascii_spade_in_the_tray(player_client):
    response = player_client.get(reverse("cardoku_setup"), {"layout": "custom", "spade_1": "7,²"})
    assert response.status_code == 200 and 'data-spade-field="1" value=""' in response.content.decode().replace(
        'value="" data-spade-field="1"', 'data-spade-field="1" value=""'
    )


def test_a_stale_step_or_full_1_answers_with_the_whole_game(player_client, player):
    game = deal(player)
    assert b'id="ck-game"' in act(player_client, game, action="discard", step=0, full="1").content
    response = act(player_client, game, action="discard", step=0)
    assert (
        response.status_code == 409
        and b'id="ck-game"' in response.content
        and b"Nothing was played" in response.content
    )


@pytest.mark.parametrize("moves, restrictions", [(False, False), (True, True)])
def test_a_page_plus_its_answers_is_the_page_rendered_afresh(player_client, player, moves, restrictions):
    game = deal(player, lambda d: sum(c.digit is None for c in d[:20]) >= 4)  # wilds early: helpers change a lot
    url = reverse("cardoku_option", args=[game.pk])
    player_client.post(url, {"option": "moves", "on": "1" if moves else "0"}, **HX)
    player_client.post(url, {"option": "restrictions", "on": "1" if restrictions else "0"}, **HX)
    shown = page(player_client, game)
    for i in range(30):
        state = fresh(game).engine_state()
        legal = sorted(ck.legal_squares(state))
        if i % 7 == 6:
            data = {"action": "undo"}
        elif i % 5 == 4:  # a refused square: nothing changes but its marks
            data = {"action": "place", "row": 1, "col": 1}
        elif legal and i % 4:
            data = {"action": "place", "row": legal[i % len(legal)][0], "col": legal[i % len(legal)][1]}
        else:
            data = {"action": "discard"}
        response = act(player_client, game, step=fresh(game).step, **data)
        assert response["HX-Reswap"] == "none settle:0ms", (i, data, response.content[:300])
        shown = oob.apply(shown, response.content.decode())
        assert board(shown) == board(page(player_client, game)), (i, data)


def test_the_page_squares_are_the_fragments(player_client, player):
    from games.cardoku.presenters import game_context

    game = deal(player)
    act(player_client, game, action="discard", step=0)
    game = fresh(game)
    html = page(player_client, game)
    for row in game_context(game)["rows"]:
        for sq in row:
            assert fragments.square(sq, True) in html


def queries_of(client, game, **data) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        act(client, game, **data)
    return [q["sql"].split()[0].upper() for q in queries.captured_queries]


def test_a_move_is_one_read_and_one_write_and_then_one_write(player_client, player, django_capture_on_commit_callbacks):
    game = deal(player)
    with django_capture_on_commit_callbacks(execute=True):  # committed: this process keeps the game
        assert queries_of(player_client, game, action="discard", step=0) == ["SELECT", "UPDATE"]
    assert queries_of(player_client, game, action="discard", step=1) == ["UPDATE"]
    assert fresh(game).discards == 2 and fresh(game).step == 2

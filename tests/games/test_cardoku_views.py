"""Cardoku through its views: setup, every move, every refusal, the finish and records."""

import re

import pytest
from django.urls import reverse

from games.cardoku import play, solo
from games.cardoku.models import CardokuGame
from games.engines import cardoku as ck
from tests.conftest import client_for, cookie_for

HX = {"HTTP_HX_REQUEST": "true"}


# --------------------------------------------------------------------------- helpers


def find_seed(test, start=1):
    """The first deal seed whose 45-card order passes ``test``."""
    for seed in range(start, start + 20_000):
        if test(ck.deal(seed)):
            return seed
    raise AssertionError("no seed found")


def code_of(test) -> str:
    return ck.deal_code(find_seed(test))


def new(client, **data):
    return client.post(reverse("cardoku_new"), {"layout": "default", **data})


def deal(player, test=lambda deck: True, **data) -> CardokuGame:
    """A fresh game for ``player`` on the default layout, with a deal passing ``test``."""
    return solo.start_game(player, {"layout": "default", "code": code_of(test), **data})


def act(client, game, **data):
    return client.post(reverse("cardoku_act", args=[game.pk]), data, **HX)


def fresh(game) -> CardokuGame:
    return CardokuGame.objects.get(pk=game.pk)


def above(digit: int) -> tuple[int, int]:
    """The square just above the staircase spade of ``digit``: next to it, same column."""
    row, col = ck.STAIRCASE[digit - 1]
    return row - 1, col


def finish(game, player, place=True) -> CardokuGame:
    """Play the deck out through the write path (placing where possible, else discarding),
    leaving the last card for the caller when ``place`` is None."""
    while True:
        state = game.engine_state()
        if state.finished or (place is None and state.cards_left == 1):
            return game
        legal = sorted(ck.legal_squares(state)) if place else []
        action = play.Action("place", *legal[0]) if legal else play.Action("discard")
        game, _ = solo.act(game.pk, player, action)


def card_codes(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def assert_no_future(html: str, game: CardokuGame):
    """Only cards on the board, the current card and discarded cards may be in the page."""
    state = game.engine_state()
    shown = {c.code for c in state.board if c} | {m.card.code for m in state.history}
    if state.current_card:
        shown.add(state.current_card.code)
    assert card_codes(html) <= shown
    for card in state.deck[state.position + 1 :]:
        if not card.is_joker:
            assert card.name not in html, card.name
    assert '"seed":' not in html and '"moves":' not in html


# --------------------------------------------------------------------------- setup


def test_setup_page_offers_three_layouts_and_a_deal_code(player_client):
    html = player_client.get(reverse("cardoku_setup")).content.decode()
    for value in ("default", "random", "custom"):
        assert f'name="layout" value="{value}"' in html
    assert "Shuffle &amp; Deal" in html and 'name="code"' in html
    assert "/how-to-play/#cardoku" in html
    assert html.count('data-spade="') == 9  # the custom editor's nine spades, all in the tray
    assert "Place the nine spades" in html and "ready to deal" not in html


def test_shuffle_and_deal_starts_a_game_and_shows_its_code(player_client, player):
    response = new(player_client)
    game = CardokuGame.objects.get(player=player)
    assert response.status_code == 302 and response["Location"] == reverse("cardoku_game", args=[game.pk])
    assert game.status == "playing" and game.cards_left == 45 and game.step == 0 and game.layout_kind == "default"
    html = player_client.get(response["Location"]).content.decode()
    assert f"<strong data-deal-code>{game.deal_code}</strong>" in html
    assert 'aria-label="Row 7, column 1, Ace of spades"' in html
    assert 'aria-label="Row 9, column 9, 9 of spades"' in html
    assert "<strong data-cards-left>45</strong>" in html


def test_htmx_deal_redirects_on_the_client(player_client, player):
    response = player_client.post(reverse("cardoku_new"), {"layout": "default"}, **HX)
    game = CardokuGame.objects.get(player=player)
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("cardoku_game", args=[game.pk])


def test_a_deal_code_replays_the_same_deal(player_client, player):
    code = ck.deal_code(123456789)
    new(player_client, code=code)
    new(player_client, code=code.lower()[:4] + "-" + code.lower()[4:])
    first, second = CardokuGame.objects.filter(player=player).order_by("pk")
    assert first.deal_code == second.deal_code == code
    assert first.engine_state().deck == second.engine_state().deck == ck.deal(123456789)


def test_random_layout_comes_from_the_deal_code(player_client, player):
    new(player_client, layout="random", code="00000ABC")
    new(player_client, layout="random", code="00000ABC")
    a, b = CardokuGame.objects.filter(player=player).order_by("pk")
    assert a.layout_kind == "random" and a.engine_state().layout == b.engine_state().layout
    assert a.engine_state().layout == ck.random_layout(ck.parse_deal_code("00000ABC"))


@pytest.mark.parametrize(
    "code, message",
    [
        ("ABC", "A deal code has 8 letters and digits"),
        ("ABCDEFGU", "cannot appear in a deal code"),
        ("!!!!!!!!", "cannot appear in a deal code"),
    ],
)
def test_bad_deal_code_is_refused_with_a_clear_message(player_client, code, message):
    response = new(player_client, code=code)
    html = response.content.decode()
    assert response.status_code == 400 and message in html and 'role="alert"' in html
    assert 'aria-invalid="true"' in html and not CardokuGame.objects.exists()


CUSTOM = {f"spade_{d}": f"{7 + (d - 1) // 3},{[2, 5, 8][(d - 1) % 3]}" for d in range(1, 10)}


def test_custom_layout_starts_with_the_players_spades(player_client, player):
    response = new(player_client, layout="custom", **CUSTOM)
    game = CardokuGame.objects.get(player=player)
    assert response.status_code == 302 and game.layout_kind == "custom"
    layout = game.engine_state().layout.as_mapping()
    assert layout[(7, 2)] == ck.spade(1) and layout[(9, 8)] == ck.spade(9)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"spade_4": "7,4"}, "Row 7 has 4 spades; at most three per row."),
        ({"spade_9": ""}, "missing: 9 of spades"),
        ({"spade_9": "6,8"}, "outside them"),
        ({"spade_9": "7,2"}, "on the same square"),
        ({"spade_9": "x"}, "must be written row,column"),
        ({"spade_9": "9,x"}, "The column must be a whole number"),
        ({"spade_2": "7,1"}, "Box 7 has 4 spades; at most three per box."),
    ],
)
def test_bad_custom_layout_is_refused_with_the_engines_reason(player_client, change, message):
    response = new(player_client, layout="custom", **{**CUSTOM, **change})
    assert response.status_code == 400 and message in response.content.decode()
    assert not CardokuGame.objects.exists()


def test_three_spades_in_one_column_are_fine(player_client, player):
    spades = {
        "spade_1": "7,1",
        "spade_2": "8,1",
        "spade_3": "9,1",
        "spade_4": "7,4",
        "spade_5": "8,5",
        "spade_6": "9,6",
        "spade_7": "7,9",
        "spade_8": "8,8",
        "spade_9": "9,7",
    }
    assert new(player_client, layout="custom", **spades).status_code == 302


def test_unknown_layout_is_malformed(player_client):
    response = new(player_client, layout="diagonal")
    assert response.status_code == 400 and b"Default staircase, Random or Custom" in response.content


def test_layout_check_gives_the_engines_verdict_while_arranging(player_client):
    url = reverse("cardoku_check_layout")
    assert b"ready to deal" in player_client.post(url, CUSTOM, **HX).content
    partial = player_client.post(url, {"spade_1": "7,1", "spade_2": "7,2"}, **HX).content.decode()
    assert "2 of 9 placed" in partial and "missing" in partial and "<html" not in partial
    crowded = player_client.post(url, {"spade_1": "7,1", "spade_2": "7,2", "spade_3": "7,3", "spade_4": "7,5"})
    assert b"Row 7 has 4 spades" in crowded.content
    assert b"Place the nine spades" in player_client.post(url, {}).content


def test_setup_offers_to_continue_a_game_in_progress(player_client, player):
    game = deal(player)
    html = player_client.get(reverse("cardoku_setup")).content.decode()
    assert reverse("cardoku_game", args=[game.pk]) in html and "Continue game" in html


# --------------------------------------------------------------------------- moves


def test_place_a_card_next_to_a_spade(player_client, player):
    game = deal(player, lambda d: d[0].digit not in (None, 1))  # first card: a digit other than Ace
    card = game.engine_state().current_card
    response = act(player_client, game, action="place", row=6, col=1, step=0)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="ck-game"' not in html  # the changes only
    assert f'aria-label="Row 6, column 1, {card.name}"' in html and f"Placed the {card.name}" in html
    game = fresh(game)
    assert game.engine_state().card_at(6, 1) == card and game.cards_placed == 1
    assert game.cards_left == 44 and game.step == 1


def test_place_by_square_field(player_client, player):
    game = deal(player, lambda d: d[0].digit not in (None, 1))
    assert act(player_client, game, action="place", square="6,1").status_code == 200
    assert fresh(game).cards_placed == 1


def test_discard_costs_nine_points(player_client, player):
    game = deal(player)
    card = game.engine_state().current_card
    response = act(player_client, game, action="discard")
    assert response.status_code == 200 and f"Discarded the {card.name}" in response.content.decode()
    game = fresh(game)
    assert game.score == -9 and game.discards == 1 and game.cards_left == 44
    assert "<strong data-score-total>-9</strong>" in response.content.decode()


def test_undo_takes_back_the_last_move(player_client, player):
    game = deal(player, lambda d: d[0].digit not in (None, 1))
    card = game.engine_state().current_card
    act(player_client, game, action="place", row=6, col=1)
    act(player_client, game, action="discard")
    act(player_client, game, action="undo")
    assert fresh(game).discards == 0 and fresh(game).score == 0
    response = act(player_client, game, action="undo")
    assert response.status_code == 200 and f"Took back the {card.name}" in response.content.decode()
    game = fresh(game)
    state = game.engine_state()
    assert state.card_at(6, 1) is None and state.current_card == card and game.step == 4
    assert 'aria-label="Row 6, column 1, empty"' in response.content.decode()


def test_completing_a_unit_scores_it(player):
    # Rows 7-9 of box 7 hold A-2-3 in row 7; fill box 7 through the write path with any
    # legal cards and check the stored score matches the engine's.
    game = finish(deal(player), player)
    assert game.finished and game.score == ck.score(game.engine_state()).total
    assert game.units == len(ck.score(game.engine_state()).units)


# --------------------------------------------------------------------------- refusals


def test_not_next_to_a_card_is_refused_and_changes_nothing(player_client, player):
    game = deal(player)
    response = act(player_client, game, action="place", row=1, col=1)
    html = response.content.decode()
    assert response.status_code == 409 and "is not next to a card" in html and "is-error" in html
    assert "is-tried" in html
    game = fresh(game)
    assert game.step == 0 and game.cards_left == 45 and game.engine_state().card_at(1, 1) is None


def test_digit_clash_is_refused_and_names_the_blocker(player_client, player):
    game = deal(player, lambda d: d[0].digit is not None)
    card = game.engine_state().current_card
    row, col = above(card.digit)
    response = act(player_client, game, action="place", row=row, col=col)
    html = response.content.decode()
    assert response.status_code == 409 and f"(the {ck.spade(card.digit).name})" in html
    assert "is-hit" in html  # the blocking spade is highlighted
    assert fresh(game).step == 0


def test_two_kings_in_a_box_are_refused(player_client, player):
    game = deal(player, lambda d: d[0].rank == "K" and d[1].rank == "K")
    assert act(player_client, game, action="place", row=6, col=1).status_code == 200
    response = act(player_client, game, action="place", row=6, col=2)
    html = response.content.decode()
    assert response.status_code == 409 and "two wilds of the same rank cannot share" in html
    game = fresh(game)
    assert game.cards_placed == 1 and game.engine_state().card_at(6, 2) is None


def test_two_wilds_of_one_suit_are_refused(player_client, player):
    game = deal(player, lambda d: d[0].is_wild and d[1].is_wild and not d[0].is_joker and d[0].suit == d[1].suit)
    act(player_client, game, action="place", row=6, col=1)
    response = act(player_client, game, action="place", row=6, col=2)
    assert response.status_code == 409 and b"two wilds of the same suit" in response.content


def test_occupied_square_is_refused(player_client, player):
    game = deal(player)
    response = act(player_client, game, action="place", row=7, col=1)
    assert response.status_code == 409 and b"already taken by the Ace of spades" in response.content


def test_undo_at_the_start_is_refused(player_client, player):
    game = deal(player)
    response = act(player_client, game, action="undo")
    assert response.status_code == 409 and b"Nothing to undo" in response.content
    assert fresh(game).step == 0


def test_a_stale_move_is_not_played(player_client, player):
    game = deal(player)
    assert act(player_client, game, action="discard", step=0).status_code == 200
    response = act(player_client, game, action="discard", step=0)  # a double click
    assert response.status_code == 409 and b"Nothing was played" in response.content
    assert fresh(game).discards == 1


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "Choose a move"),
        ({"action": "fly"}, "Unknown move"),
        ({"action": "place"}, "Pick a square"),
        ({"action": "place", "row": 0, "col": 1}, "The row must be a whole number from 1 to 9"),
        ({"action": "place", "row": "x", "col": 1}, "The row must be"),
        ({"action": "place", "row": 6, "col": 10}, "The column must be"),
        ({"action": "place", "square": "66"}, "written row,column"),
        ({"action": "discard", "step": "soon"}, "The step must be"),
    ],
)
def test_malformed_moves_are_400_and_change_nothing(player_client, player, data, message):
    game = deal(player)
    response = act(player_client, game, **data)
    assert response.status_code == 400 and message in response.content.decode()
    assert fresh(game).step == 0


def test_moves_after_the_end_are_refused_and_the_result_stays(player_client, player):
    game = finish(deal(player), player, place=False)
    assert game.finished and game.score == -405
    for data in ({"action": "undo"}, {"action": "discard"}, {"action": "place", "row": 6, "col": 1}):
        response = act(player_client, game, **data)
        assert response.status_code == 409 and b"The game is over" in response.content
    game = fresh(game)
    assert game.score == -405 and game.step == 45 and game.finished


def test_the_last_card_finishes_the_game_and_records_it(player_client, player):
    game = finish(deal(player), player, place=None)
    assert not game.finished and game.cards_left == 1
    response = act(player_client, game, action="discard")
    html = response.content.decode()
    assert response.status_code == 200 and "The deck is done!" in html and "Play this deal again" in html
    assert "the game is over" in html and 'data-drop' not in html and ">Undo<" not in html
    game = fresh(game)
    assert game.finished and game.finished_at is not None and game.cards_left == 0
    assert game.score == ck.score(game.engine_state()).total
    board = player_client.get(reverse("leaderboards")).content.decode()
    assert f"<strong data-cardoku-best>{game.score}</strong>" in board
    assert "<strong data-cardoku-finished>1</strong>" in board and game.deal_code in board


def test_finish_screen_shows_the_breakdown_and_best(player_client, player):
    first = finish(deal(player), player, place=False)  # -405
    second = finish(deal(player), player)
    html = player_client.get(reverse("cardoku_game", args=[second.pk])).content.decode()
    assert "New personal best!" in html and "Score breakdown" in html and "Total" in html
    html = player_client.get(reverse("cardoku_game", args=[first.pk])).content.decode()
    assert "New personal best!" in html  # it was the best when it finished
    third = finish(deal(player), player, place=False)
    html = player_client.get(reverse("cardoku_game", args=[third.pk])).content.decode()
    assert f"Your best so far: <strong>{second.score}</strong>" in html


def test_play_this_deal_again_keeps_a_custom_layout(player_client, player):
    new(player_client, layout="custom", **CUSTOM)
    game = finish(CardokuGame.objects.get(player=player), player, place=False)
    html = player_client.get(reverse("cardoku_game", args=[game.pk])).content.decode()
    fields = dict(re.findall(r'name="(spade_\d|code|layout)" value="([^"]*)"', html))
    assert fields["layout"] == "custom" and fields["code"] == game.deal_code
    assert new(player_client, **fields).status_code == 302
    again = CardokuGame.objects.filter(player=player).latest("pk")
    assert again.engine_state().layout == game.engine_state().layout and again.deal_code == game.deal_code


# --------------------------------------------------------------------------- pages, helpers, privacy


def test_reload_keeps_the_game(player_client, player):
    game = deal(player, lambda d: d[0].digit not in (None, 1))
    first = game.engine_state().current_card
    act(player_client, game, action="place", row=6, col=1)
    act(player_client, game, action="discard")
    html = player_client.get(reverse("cardoku_game", args=[game.pk])).content.decode()
    state = fresh(game).engine_state()
    assert f'aria-label="Row 6, column 1, {first.name}"' in html
    assert f"Place the {state.current_card.name}" in html and "<strong data-cards-left>43</strong>" in html
    assert 'data-step="2"' in html


def test_toggles_light_legal_squares_and_blockers_and_are_kept(player_client, player):
    game = deal(player, lambda d: d[0].digit is not None)
    url = reverse("cardoku_option", args=[game.pk])
    html = player_client.post(url, {"option": "moves", "on": "1"}, **HX).content.decode()
    legal = ck.legal_squares(game.engine_state())
    assert "show-moves" in html and html.count("is-legal") == len(legal)
    assert 'aria-checked="true" data-key="m"' in html
    html = player_client.post(url, {"option": "restrictions", "on": "1"}, **HX).content.decode()
    assert "show-restrictions" in html and html.count("is-blocker") == len(ck.blocking_cards(game.engine_state()))
    game = fresh(game)
    assert game.show_moves and game.show_restrictions
    assert player_client.post(url, {"option": "moves", "on": "1"}, **HX).status_code == 200  # idempotent
    nxt = deal(player)
    assert nxt.show_moves and nxt.show_restrictions  # carried over
    player_client.post(url, {"option": "moves", "on": "0"}, **HX)
    html = player_client.get(reverse("cardoku_game", args=[game.pk])).content.decode()
    assert "is-legal" not in html and not fresh(game).show_moves


@pytest.mark.parametrize("data", [{}, {"option": "colours", "on": "1"}, {"option": "moves", "on": "yes"}])
def test_malformed_option_is_400(player_client, player, data):
    game = deal(player)
    assert player_client.post(reverse("cardoku_option", args=[game.pk]), data, **HX).status_code == 400


def test_no_future_cards_in_any_response(player_client, player):
    game = deal(player)
    pages = [player_client.get(reverse("cardoku_game", args=[game.pk])).content.decode()]
    for i in range(12):
        state = fresh(game).engine_state()
        legal = sorted(ck.legal_squares(state))
        if i % 4 == 3:
            data = {"action": "undo"}
        elif legal and i % 3:
            data = {"action": "place", "row": legal[0][0], "col": legal[0][1]}
        else:
            data = {"action": "discard"}
        html = act(player_client, game, **data).content.decode()
        assert_no_future(html, fresh(game))
        pages.append(html)
    # refusals, toggles and reloads too
    assert_no_future(act(player_client, game, action="place", row=1, col=9).content.decode(), fresh(game))
    url = reverse("cardoku_option", args=[game.pk])
    assert_no_future(player_client.post(url, {"option": "moves", "on": "1"}, **HX).content.decode(), fresh(game))
    assert_no_future(player_client.post(url, {"option": "restrictions", "on": "1"}).content.decode(), fresh(game))
    assert_no_future(player_client.get(reverse("cardoku_game", args=[game.pk])).content.decode(), fresh(game))
    assert_no_future(pages[0], game)


def test_someone_elses_game_is_403(player, other_player):
    game = deal(player)
    other = client_for(other_player)
    page = other.get(reverse("cardoku_game", args=[game.pk]))
    assert page.status_code == 403 and b'role="grid"' not in page.content
    response = act(other, game, action="discard")
    assert response.status_code == 403 and b"not yours" in response.content
    assert other.post(reverse("cardoku_act", args=[game.pk]), {"action": "discard"}).status_code == 403
    assert (
        other.post(reverse("cardoku_option", args=[game.pk]), {"option": "moves", "on": "1"}, **HX).status_code == 403
    )
    game = fresh(game)
    assert game.step == 0 and not game.show_moves


def test_unknown_game(player_client):
    assert player_client.get(reverse("cardoku_game", args=[999999])).status_code == 404
    response = player_client.post(reverse("cardoku_act", args=[999999]), {"action": "discard"}, **HX)
    assert response.status_code == 403


@pytest.mark.parametrize(
    "method, name, needs_game",
    [
        ("get", "cardoku_act", True),
        ("get", "cardoku_option", True),
        ("get", "cardoku_new", False),
        ("get", "cardoku_check_layout", False),
        ("post", "cardoku_setup", False),
        ("post", "cardoku_game", True),
        ("put", "cardoku_act", True),
        ("delete", "cardoku_game", True),
    ],
)
def test_wrong_method_is_405(player_client, player, method, name, needs_game):
    args = [deal(player).pk] if needs_game else []
    assert getattr(player_client, method)(reverse(name, args=args)).status_code == 405


def test_csrf_is_enforced(player):
    from django.test import Client

    game = deal(player)
    client = Client(enforce_csrf_checks=True)
    client.cookies["showdown_player"] = cookie_for(player)
    assert client.post(reverse("cardoku_act", args=[game.pk]), {"action": "discard"}, **HX).status_code == 403
    assert client.post(reverse("cardoku_new"), {"layout": "default"}).status_code == 403
    assert fresh(game).step == 0 and CardokuGame.objects.count() == 1
    page = client.get(reverse("cardoku_game", args=[game.pk])).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(reverse("cardoku_act", args=[game.pk]), {"action": "discard"}, HTTP_X_CSRFTOKEN=token, **HX)
    assert response.status_code == 200 and fresh(game).discards == 1


def test_non_htmx_move_redirects_back(player_client, player):
    game = deal(player)
    response = player_client.post(reverse("cardoku_act", args=[game.pk]), {"action": "discard"})
    assert response.status_code == 302 and fresh(game).discards == 1
    refused = player_client.post(reverse("cardoku_act", args=[game.pk]), {"action": "place", "row": 1, "col": 1})
    assert refused.status_code == 409 and b"<html" in refused.content and b"not next to a card" in refused.content


def test_home_card_links_to_setup_then_to_the_game(player_client, player):
    html = player_client.get(reverse("home")).content.decode()
    assert 'class="panel game-card ck-home-card"' in html and f'href="{reverse("cardoku_setup")}"' in html
    game = deal(player)
    html = player_client.get(reverse("home")).content.decode()
    assert reverse("cardoku_game", args=[game.pk]) in html and "Continue Cardoku" in html


def test_how_to_play_has_the_cardoku_section(player_client):
    html = player_client.get(reverse("how_to_play")).content.decode()
    assert '<h2 id="cardoku">Cardoku</h2>' in html
    assert "90 × 9 = <strong>810</strong>" in html and "A finished game is final" in html


def test_leaderboards_without_games(player_client):
    html = player_client.get(reverse("leaderboards")).content.decode()
    assert "No finished Cardoku games yet." in html


def test_admin_lists_games(player, admin_client):
    game = deal(player)
    url = reverse("admin:cardoku_cardokugame_changelist")
    response = admin_client.get(url, {"q": game.deal_code, "status__exact": "playing"})
    assert response.status_code == 200 and game.deal_code in response.content.decode()
    assert admin_client.get(reverse("admin:cardoku_cardokugame_change", args=[game.pk])).status_code == 200

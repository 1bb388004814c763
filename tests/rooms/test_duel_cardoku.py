"""Cardoku duels through the room's write path: the same layout and deal for all, scoring
by the engine, ranking by score, the end when every deck is done, refusals. What every
game type does (spectators, countdown, settings, malformed messages) is checked in
test_game_type_contract.py."""

import datetime as dt

import pytest
from django.template.loader import render_to_string

from games.cardoku.play import Action
from games.engines import cardoku as ck
from rooms import actions as A
from rooms.api import act, create_room
from rooms.gametypes import GAME_TYPES
from rooms.gametypes.cardoku import Helper
from rooms.gametypes.duel import MoveRefused
from rooms.models import Room, RoomEvent, RoomResult, Seat
from rooms.presenters import room_context
from tests.rooms.conftest import CARDOKU_SEED, T0

GAME = GAME_TYPES["cardoku"]
SEED = CARDOKU_SEED  # the deal of every room here (fixed_seeds): the seed's own code shows
PLAY = T0 + dt.timedelta(seconds=3.5)

pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture
def cardoku_duel(players, fixed_seeds, make_room):
    """Ada's Cardoku room, Grace joined."""
    return make_room(players[0], players[1], game="cardoku", now=T0)


def start(room, seated):
    for p in seated:
        act(room.code, p, A.SetReady(True), now=T0)
    act(room.code, seated[0], A.Start(), now=T0)


def seat(room, player) -> Seat:
    return Seat.objects.get(room__code=room.code, player=player)


def engine(room, player) -> ck.GameState:
    return ck.from_dict(seat(room, player).state)


def move(room, player, action, now=PLAY):
    return act(room.code, player, A.GameMove(action), now=now)


def discard_all(room, player):
    while engine(room, player).current_card is not None:
        move(room, player, Action("discard"))


def set_layout(room, player, layout):
    action, _ = A.parse_message({"action": "rules", "layout": layout}, GAME)
    act(room.code, player, action, now=T0)


def test_every_player_gets_the_same_layout_and_deal(cardoku_duel, players):
    act(cardoku_duel.code, players[2], A.Join(), now=T0)
    start(cardoku_duel, players[:3])
    cardoku_duel.refresh_from_db()
    states = [engine(cardoku_duel, p) for p in players[:3]]
    # The deck lives only in the seats' server-side state (a long seed does not fit Room.seed).
    assert cardoku_duel.seed is None and all(s.seed == SEED for s in states)
    assert len({s.deck for s in states}) == 1 and states[0].layout == ck.default_layout()
    assert seat(cardoku_duel, players[0]).to_fill == 45


def test_random_layout_uses_the_room_seed_so_everyone_gets_the_same(cardoku_duel, players):
    set_layout(cardoku_duel, players[0], "random")
    start(cardoku_duel, players[:2])
    layouts = {engine(cardoku_duel, p).layout for p in players[:2]}
    assert layouts == {ck.random_layout(SEED)}


def test_moves_are_scored_by_the_engine(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    expected = engine(cardoku_duel, players[0])
    row, col = sorted(ck.legal_squares(expected))[0]
    result = move(cardoku_duel, players[0], Action("place", row, col))
    assert result.outcome.kind == "placed" and "Placed the" in result.outcome.message
    move(cardoku_duel, players[0], Action("discard"))
    expected = ck.discard(ck.place(expected, row, col))
    mine = seat(cardoku_duel, players[0])
    assert engine(cardoku_duel, players[0]) == expected
    assert mine.score == ck.score(expected).total == -ck.DISCARD_PENALTY
    assert (mine.progress, GAME.standing_line(mine)) == (2, "-9 pts · 43 cards left")
    assert engine(cardoku_duel, players[1]).position == 0  # each plays their own board


def test_a_finished_deck_ranks_by_score_and_ties_share_the_place(cardoku_duel, players):
    act(cardoku_duel.code, players[2], A.Join(), now=T0)
    start(cardoku_duel, players[:3])
    state = engine(cardoku_duel, players[0])
    move(cardoku_duel, players[0], Action("place", *sorted(ck.legal_squares(state))[0]))
    discard_all(cardoku_duel, players[0])
    assert (
        seat(cardoku_duel, players[0]).status == "finished" and Room.objects.get(pk=cardoku_duel.pk).state == "playing"
    )
    with pytest.raises(MoveRefused, match="Your deck is done"):
        move(cardoku_duel, players[0], Action("discard"))
    discard_all(cardoku_duel, players[1])
    discard_all(cardoku_duel, players[2])
    cardoku_duel.refresh_from_db()
    assert cardoku_duel.state == "finished"  # every deck is done
    results = {r.player.display_name: r for r in RoomResult.objects.select_related("player")}
    assert results["Ada"].score == -44 * ck.DISCARD_PENALTY and results["Grace"].score == -45 * ck.DISCARD_PENALTY
    assert {n: r.placement for n, r in results.items()} == {"Ada": 1, "Grace": 2, "Linus": 2}
    assert (results["Ada"].game, results["Ada"].summary, results["Ada"].in_totals) == (
        "cardoku",
        {"layout": "default"},
        True,
    )


def test_there_is_no_undo_in_a_duel(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    move(cardoku_duel, players[0], Action("discard"))
    with pytest.raises(MoveRefused, match="no undo"):
        move(cardoku_duel, players[0], Action("undo"))
    assert engine(cardoku_duel, players[0]).position == 1


def test_an_illegal_square_is_refused_with_the_engines_reason(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    with pytest.raises(MoveRefused, match=r"next to|adjacent|touch|neighbour"):
        move(cardoku_duel, players[0], Action("place", 1, 9))
    assert engine(cardoku_duel, players[0]).position == 0


def test_a_stale_step_is_refused(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    move(cardoku_duel, players[0], Action("discard", step=0))
    with pytest.raises(MoveRefused, match="board changed"):
        move(cardoku_duel, players[0], Action("discard", step=0))


def test_helpers_are_a_private_view_kept_on_the_seat(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    act(cardoku_duel.code, players[0], A.Sync(), now=PLAY)
    version = Room.objects.get(pk=cardoku_duel.pk).version
    result = move(cardoku_duel, players[0], Helper("moves", True))
    assert not result.changed and Room.objects.get(pk=cardoku_duel.pk).version == version
    assert not RoomEvent.objects.filter(room=cardoku_duel, version__gt=version).exists()
    assert seat(cardoku_duel, players[0]).state["helpers"]["moves"] is True
    move(cardoku_duel, players[0], Action("discard"))
    assert seat(cardoku_duel, players[0]).state["helpers"]["moves"] is True  # kept across moves


def test_nobody_sees_the_deck_and_the_deal_code_only_after_the_end(cardoku_duel, players):
    start(cardoku_duel, players[:2])
    move(cardoku_duel, players[0], Action("discard"))
    state = engine(cardoku_duel, players[0])
    upcoming = state.deck[state.position + 1]
    cardoku_duel = Room.objects.get(pk=cardoku_duel.pk)
    own = render_to_string("rooms/room.html#body", room_context(cardoku_duel, players[0], now=PLAY))
    assert f'data-card="{state.current_card.code}"' in own
    assert f'data-card="{upcoming.code}"' not in own and state.deal_code not in own
    watcher = render_to_string("rooms/room.html#body", room_context(cardoku_duel, players[3], now=PLAY))
    assert "data-card" not in watcher and "ck-board" not in watcher
    assert "which squares each player filled shows when the duel is over" in watcher
    assert 'class="g" d="M' in watcher  # the silhouettes show the spades' squares, never the cards
    for p in players[:2]:
        discard_all(cardoku_duel, p)
    cardoku_duel = Room.objects.get(pk=cardoku_duel.pk)
    after = render_to_string("rooms/room.html#body", room_context(cardoku_duel, players[1], now=PLAY))
    assert cardoku_duel.state == "finished" and state.deal_code in after
    watcher = render_to_string("rooms/room.html#body", room_context(cardoku_duel, players[3], now=PLAY))
    assert "Boards show which squares are filled, never the cards." in watcher


def test_duel_decks_come_from_128_random_bits_kept_on_the_server(players):
    """Nine visible cards singled out a 40-bit random.Random seed (issue 12, section 2). The
    code shown after the end has 8 characters like a solo code (issue 27, 13): U and 35 bits
    that only the server's key expands to the 128-bit seed."""
    deals = [GAME.new_deal() for _ in range(50)]
    seeds = {seed for _code, seed in deals}
    assert len(seeds) == 50 and all(ck.is_long_seed(s) for s in seeds)
    assert all(len(code) == 8 and code[0] == "U" for code, _seed in deals)
    room = create_room(players[0], game="cardoku", now=T0)
    act(room.code, players[1], A.Join(), now=T0)
    start(room, players[:2])
    room.refresh_from_db()
    state = engine(room, players[0])
    shown = Seat.objects.get(room=room, player=players[0]).state["duel_code"]
    assert room.seed is None and ck.is_long_seed(state.seed) and len(shown) == 8
    playing = render_to_string("rooms/room.html#body", room_context(room, players[0], now=PLAY))
    assert shown not in playing and state.deal_code not in playing and str(state.seed) not in playing
    for p in players[:2]:
        act(room.code, p, A.Forfeit(), now=PLAY)
    room.refresh_from_db()
    after = render_to_string("rooms/room.html#body", room_context(room, players[0], now=PLAY))
    assert room.state == "finished" and shown in after and state.deal_code not in after
    watcher = render_to_string("rooms/room.html#body", room_context(room, players[3], now=PLAY))
    assert "Boards show which squares are filled, never the cards." in watcher
    # The short code replays the same deck in solo Cardoku.
    from games.cardoku.solo import start_game

    game = start_game(players[0], {"layout": "default", "code": shown.lower()})
    assert game.deal_code == shown and ck.from_dict(game.state).deck == state.deck


def test_an_old_duels_26_character_code_still_replays_in_solo_cardoku(players):
    from games.cardoku.solo import start_game

    seed = ck.long_seed(0xC0FFEE << 64)
    game = start_game(players[0], {"layout": "random", "code": ck.deal_code(seed)})
    game.refresh_from_db()
    replay = ck.from_dict(game.state)
    assert game.deal_code == ck.deal_code(seed) and len(game.deal_code) == 26
    assert replay.deck == ck.deal(seed) and replay.layout == ck.random_layout(seed)


def test_the_duel_board_is_solo_cardokus_play_area_sent_over_the_socket(cardoku_duel, players, rf):
    """One play area (templates/cardoku/play.html) for both: the same elements, by the same
    ids a solo answer swaps; the duel's forms go over the room socket, solo's are posts."""
    import re

    from django.template.loader import render_to_string as render

    from games.cardoku import solo
    from games.cardoku.presenters import game_context

    start(cardoku_duel, players[:2])
    cardoku_duel = Room.objects.get(pk=cardoku_duel.pk)
    duel = render_to_string("rooms/room.html#mygame", room_context(cardoku_duel, players[0], now=PLAY))
    request = rf.get("/")
    request.player = players[0]
    game = solo.start_game(players[0], {"layout": "default"})
    alone = render("cardoku/game.html#game", game_context(game), request=request)

    def ids(html):
        return set(re.findall(r'\sid="(ck-[^"]*)"', html))

    # Solo alone has a title, a message line with an id (its answers swap it) and Undo.
    assert ids(duel) == ids(alone) - {"ck-title", "ck-message", "ck-undo"}
    assert {"ck-sq-5-5", "ck-current", "ck-deck", "ck-score", "ck-place"} <= ids(duel)
    forms = re.findall(r"<form[^>]*>", duel)
    assert len(forms) == 4 and all(" ws-send" in form for form in forms)
    assert "hx-post" not in duel and "csrfmiddlewaretoken" not in duel and 'value="undo"' not in duel
    assert alone.count('hx-post="/cardoku/') == 4 and alone.count("csrfmiddlewaretoken") == 4
    assert 'value="undo"' in alone


def test_a_done_deck_watches_the_others_only_while_the_duel_runs(cardoku_duel, players):
    from django.urls import reverse

    from tests.conftest import client_for

    def page(player) -> str:
        return client_for(player).get(reverse("room", args=[cardoku_duel.code])).content.decode()

    start(cardoku_duel, players[:2])
    discard_all(cardoku_duel, players[0])
    html = page(players[0])  # Grace still plays
    assert "Your deck is done" in html and "Watch the others finish" in html
    discard_all(cardoku_duel, players[1])
    html = page(players[0])  # the duel is over: the podium and Play again instead
    assert "Your deck is done" in html and "Watch the others finish" not in html and ">Play again</button>" in html

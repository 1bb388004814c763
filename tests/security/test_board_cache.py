"""Board pages are never stored by the browser or a proxy (issue 12, section 7): Back after
a pause must not show a board the server now hides."""

from django.urls import reverse

from games.cardoku import solo as cardoku_solo
from games.domino import solo as domino_solo
from rooms.api import create_room


def no_store(response):
    return "no-store" in response.get("Cache-Control", "")


def test_every_board_page_and_move_answer_is_no_store(player_client, player, run, bank_puzzle):
    room = create_room(player, level="easy")
    cardoku = cardoku_solo.start_game(player, {})
    domino = domino_solo.start_game(player, "easy")
    pages = [
        reverse("solo_run", args=[run.pk]),
        reverse("room", args=[room.code]),
        reverse("cardoku_game", args=[cardoku.pk]),
        reverse("domino_game", args=[domino.pk]),
    ]
    for url in pages:
        response = player_client.get(url)
        assert response.status_code == 200 and no_store(response), url
    moved = player_client.post(reverse("solo_act", args=[run.pk]), {"action": "pause"}, HTTP_HX_REQUEST="true")
    assert no_store(moved)


def test_pages_without_a_board_stay_cacheable(client, db):
    assert not no_store(client.get(reverse("how_to_play")))
    assert not no_store(client.get("/"))

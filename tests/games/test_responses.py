"""games/common/responses.py: an htmx refusal is the message alone, retargeted to the page's
flash line; a plain request gets the message page. Every game's "not yours" uses it."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from games.common.responses import flash, refusal
from tests.conftest import client_for
from tests.games.test_cardoku_views import deal

HX = {"HTTP_HX_REQUEST": "true"}


def request(htmx: bool):
    made = RequestFactory().post("/")
    made.htmx = htmx  # type: ignore[attr-defined]  # what django-htmx's middleware sets, as a plain truth value
    return made


def test_an_htmx_refusal_is_the_message_in_the_flash_line():
    response = refusal(request(True), "No <b>way</b>.", 409, title="Refused")
    assert response.status_code == 409
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#flash", "innerHTML")
    html = response.content.decode()
    assert html.startswith('<p class="message is-error" role="alert">') and "No &lt;b&gt;way&lt;/b&gt;." in html
    assert "<h1>" not in html
    assert flash(request(True), "No <b>way</b>.", 409).content == response.content


def test_a_plain_refusal_is_the_message_page():
    response = refusal(request(False), "Slow down, please.", 429, title="Slow down")
    assert response.status_code == 429 and "HX-Retarget" not in response
    assert b"<h1>Slow down</h1>" in response.content and b"Slow down, please." in response.content


@pytest.mark.parametrize("url, data", [("solo_act", {"cell": 2, "digit": 4}), ("cardoku_act", {"action": "discard"})])
def test_someone_elses_game_answers_htmx_in_the_flash_line(url, data, run, player, other_player):
    game = run if url == "solo_act" else deal(player)
    response = client_for(other_player).post(reverse(url, args=[game.pk]), data, **HX)
    assert response.status_code == 403 and b"not yours" in response.content
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#flash", "innerHTML")

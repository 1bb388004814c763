"""HEAD and OPTIONS on the pages that only display (issue 28, item 10): `require_GET`
answered both with 405. HEAD is a GET without its body; OPTIONS lists the methods."""

import pytest
from django.urls import reverse

from rooms.api import create_room


@pytest.fixture
def page_urls(run, player):
    """A page of each kind, a Solo Run's and a room's among them."""
    room = create_room(player, level="easy")
    return [
        "/",
        reverse("how_to_play"),
        reverse("leaderboards"),
        reverse("cardoku_setup"),
        reverse("domino_home"),
        reverse("solo_run", args=[run.pk]),
        reverse("room", args=[room.code]),
    ]


def test_head_is_a_get_without_its_body(player_client, page_urls):
    for path in page_urls:
        got, head = player_client.get(path), player_client.head(path)
        assert got.status_code == head.status_code == 200, path
        assert head.content == b"" and head["Content-Type"] == got["Content-Type"], path


def test_options_lists_the_methods_and_looks_nothing_up(player_client, page_urls):
    for path in [*page_urls, "/r/ZZZZZZ/", "/solo/999999/"]:
        response = player_client.options(path)
        assert response.status_code == 204 and response["Allow"] == "GET, HEAD, OPTIONS", path
        assert response.content == b""


def test_writes_to_a_page_are_still_refused(player_client, page_urls):
    for path in page_urls:
        response = player_client.post(path)
        assert response.status_code == 405 and response["Allow"] == "GET, HEAD", path

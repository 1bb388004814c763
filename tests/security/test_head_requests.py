"""HEAD answers what GET answers, without the body (issue 45 item 9): never 405 where GET works."""

from django.test import Client

from rooms.api import create_room
from tests.conftest import client_for


def test_head_works_wherever_get_does(player):
    room = create_room(player)
    client = client_for(player)
    for path in ("/profile/", f"/r/{room.code}/join/", f"/r/{room.code}/", "/", "/race/"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code != 405, path
        assert head.content == b"", path
    assert Client().head("/r/ZZZZZZ/join/").status_code == Client().get("/r/ZZZZZZ/join/").status_code

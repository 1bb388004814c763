"""A signed-in browser joins a room over HTTP (the view's request.player is a lazy object:
the kick check's lookup of the account's profiles once answered 500 for it)."""

import pytest

from rooms.api import create_room
from rooms.models import Seat
from tests.conftest import client_for
from tests.stats.rated_rooms import signed_in

pytestmark = pytest.mark.django_db


def test_a_signed_in_player_joins_by_code(bank_puzzle):
    ada, grace = signed_in("Ada"), signed_in("Grace")
    room = create_room(ada, level="easy", preset="standard")
    browser = client_for(grace)
    browser.force_login(grace.account)
    response = browser.post("/rooms/join/", {"code": room.code})
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"
    assert Seat.objects.filter(room=room, player=grace).exists()

"""The Showdown finish (issue 14): a podium for the top three with their times, above the
standings that keep every player's line; spectators see large silhouettes."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.sudoku.play import Enter
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import EMPTY, SOLUTION, client_for


@pytest.fixture
def racers(make_players):
    """Four in a race: Barbara forfeits (finished_room)."""
    return make_players("Ada", "Grace", "Linus", "Barbara")


def finished_room(players):
    room = create_room(players[0], level="easy")
    for p in players[1:]:
        act(room.code, p, A.Join())
    for p in players:
        act(room.code, p, A.SetReady(True))
    now = timezone.now()
    act(room.code, players[0], A.Start(), now=now)
    after = now + dt.timedelta(seconds=3.5)
    # Grace first (1:00), Ada second (2:00), Linus third (3:00), Barbara forfeits.
    for who, seconds in ((players[1], 60), (players[0], 120), (players[2], 180)):
        for cell in EMPTY:
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=after + dt.timedelta(seconds=seconds))
    act(room.code, players[3], A.Forfeit(), now=after + dt.timedelta(seconds=200))
    room.refresh_from_db()
    assert room.state == "finished"
    return room


def test_the_finished_room_shows_a_podium_of_three_and_everyone_in_the_standings(racers, bank_puzzle):
    room = finished_room(racers)
    html = client_for(racers[0]).get(reverse("room", args=[room.code])).content.decode()
    podium = html[html.index('class="podium') : html.index("</section>", html.index('class="podium'))]
    steps = re.findall(
        r'<li class="step place-(\d)( is-me)?">\s*<strong class="name">(\w+)</strong>'
        r'(<span class="step-you">\(you\)</span>)?\s*'
        r'<span class="time">([\d:]+)</span>',
        podium,
    )
    you = '<span class="step-you">(you)</span>'  # its own line: beside the name it cut the name off on a phone
    assert steps == [
        ("1", "", "Grace", "", "1:00"),
        ("2", " is-me", "Ada", you, "2:00"),
        ("3", "", "Linus", "", "3:00"),
    ]
    assert "Barbara" not in podium
    assert 'data-sound="finish"' in podium and f'data-sound-key="room-{room.code}"' in podium
    standings = html[html.index('id="standings"') :]
    assert all(name in standings for name in ("Grace", "Ada", "Linus", "Barbara"))


def test_no_podium_while_the_race_runs_and_spectators_get_the_large_boards(racers, bank_puzzle):
    room = create_room(racers[0], level="easy")
    act(room.code, racers[1], A.Join())
    for p in racers[:2]:
        act(room.code, p, A.SetReady(True))
    act(room.code, racers[0], A.Start(), now=timezone.now() - dt.timedelta(seconds=10))
    html = client_for(racers[3]).get(reverse("room", args=[room.code])).content.decode()
    assert 'class="race spectating"' in html and 'class="silhouette"' in html
    assert "podium" not in html

"""A running room for browser tests, set up through the write path before any browser
connects (the daphne process's live owner then loads it from the rows)."""

import datetime as dt

from django.utils import timezone

from games.models import Puzzle
from players.models import Profile
from rooms import actions as A
from rooms.api import create_room
from rooms.models import Room
from tests.browser.conftest import act
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION


def running_room(game="showdown", names=("Ada", "Grace"), preset="standard", finished_ago=None):
    """(room, [profiles]): a room of `game` already playing (its countdown ran out a few
    seconds ago)."""
    if not Puzzle.objects.filter(level="easy").exists():
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    players = [Profile.objects.create(display_name=name) for name in names]
    room = create_room(players[0], game, "easy", preset)
    for p in players[1:]:
        act(room.code, p, A.Join())
    for p in players:
        act(room.code, p, A.SetReady(True))
    past = timezone.now() - dt.timedelta(seconds=30)
    act(room.code, players[0], A.Start(), now=past)
    act(room.code, players[0], A.Sync())
    return Room.objects.get(pk=room.pk), players

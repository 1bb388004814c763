"""Signed-in players and Showdown rooms raced to the end through the write path (rooms.api),
for the rating tests."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Puzzle
from games.sudoku.play import Enter
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Room
from tests.conftest import EMPTY, PUZZLE, SOLUTION


def signed_in(name: str) -> Profile:
    """A profile linked to an account of its own (what signing in makes of a browser's profile)."""
    account = get_user_model().objects.create(username=name.lower(), email=f"{name.lower()}@example.com")
    return Profile.objects.create(display_name=name, account=account)


def wrong_digit(cell: int) -> int:
    return int(SOLUTION[cell]) % 9 + 1


def race(players, finish=(), leave=(), eliminate=(), preset="standard", rules=None, now=None, cells=20) -> Room:
    """A room of `players` (the first hosts) raced to its end: `finish` [(player, seconds)]
    solve the puzzle at those seconds (equal seconds finish together), `eliminate` make three
    mistakes (a Hardcore room), `leave` fill `cells` cells and forfeit; in that order."""
    now = now or timezone.now()
    # Each room takes a puzzle of its own from the bank: put this one there (again).
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=["naked single"], seed=1)
    room = create_room(players[0], level="easy", preset=preset)
    for p in players[1:]:
        act(room.code, p, A.Join(), now=now)
    if rules is not None:
        act(room.code, players[0], rules, now=now)
    for p in players:
        act(room.code, p, A.SetReady(True), now=now)
    act(room.code, players[0], A.Start(), now=now)
    play = now + dt.timedelta(seconds=3.5)
    for who in leave:
        for cell in EMPTY[:cells]:
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=play + dt.timedelta(seconds=1))
    for who in eliminate:
        for _ in range(3):
            act(
                room.code, who, A.GameMove(Enter(EMPTY[-1], wrong_digit(EMPTY[-1]))), now=play + dt.timedelta(seconds=2)
            )
    for who in leave:  # after the first 30 s: a forfeit sooner leaves the room unrated (stats/ratings.py)
        act(room.code, who, A.Forfeit(), now=play + dt.timedelta(seconds=31))
    for who, seconds in finish:
        at = play + dt.timedelta(seconds=seconds)
        for cell in EMPTY:
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    room.refresh_from_db()
    assert room.state == "finished", room.state
    return room

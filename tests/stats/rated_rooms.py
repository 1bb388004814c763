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
from tests.conftest import SOLUTION

# The rooms race a puzzle of 12 blanks (one a box and three more), not the 51 of tests.conftest's
# PUZZLE: a rating reads places and times, not how many cells a finish took, and every cell is a
# move through the write path (the rating tests raced 51 a player a room, 20-30 s a test).
BLANKS = (0, 3, 6, 13, 27, 30, 33, 40, 54, 57, 60, 80)
SHORT = "".join("0" if i in BLANKS else digit for i, digit in enumerate(SOLUTION))


def signed_in(name: str) -> Profile:
    """A profile linked to an account of its own (what signing in makes of a browser's profile)."""
    account = get_user_model().objects.create(username=name.lower(), email=f"{name.lower()}@example.com")
    return Profile.objects.create(display_name=name, account=account)


def wrong_digit(cell: int) -> int:
    return int(SOLUTION[cell]) % 9 + 1


def blanks(room: Room) -> list[int]:
    """The empty cells of the room's puzzle."""
    assert room.puzzle is not None, "the room has not started"
    return [i for i, ch in enumerate(room.puzzle.givens) if ch == "0"]


def race(players, finish=(), leave=(), eliminate=(), preset="standard", rules=None, now=None, cells=20) -> Room:
    """A room of `players` (the first hosts) raced to its end: `finish` [(player, seconds)]
    solve the puzzle at those seconds (equal seconds finish together), `eliminate` make three
    mistakes (a Hardcore room), `leave` fill `cells` cells and forfeit; in that order."""
    now = now or timezone.now()
    # Each room takes a puzzle of its own from the bank: put this one there (again).
    Puzzle.objects.create(level="easy", givens=SHORT, solution=SOLUTION, clues=69, techniques=["naked single"], seed=1)
    room = create_room(players[0], level="easy", preset=preset)
    for p in players[1:]:
        act(room.code, p, A.Join(), now=now)
    if rules is not None:
        act(room.code, players[0], rules, now=now)
    for p in players:
        act(room.code, p, A.SetReady(True), now=now)
    act(room.code, players[0], A.Start(), now=now)
    room.refresh_from_db()
    empty = blanks(room)  # the bank's oldest: a test's own bank_puzzle (51 blanks) for its first room
    play = now + dt.timedelta(seconds=3.5)
    for who in leave:
        for cell in empty[: min(cells, len(empty) - 1)]:  # never the whole puzzle: that would finish it
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=play + dt.timedelta(seconds=1))
    for who in eliminate:
        for _ in range(3):
            act(
                room.code, who, A.GameMove(Enter(empty[-1], wrong_digit(empty[-1]))), now=play + dt.timedelta(seconds=2)
            )
    for who in leave:  # after the first 30 s: a forfeit sooner leaves the room unrated (stats/ratings.py)
        act(room.code, who, A.Forfeit(), now=play + dt.timedelta(seconds=31))
    for who, seconds in finish:
        at = play + dt.timedelta(seconds=seconds)
        for cell in empty:
            act(room.code, who, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=at)
    room.refresh_from_db()
    assert room.state == "finished", room.state
    return room

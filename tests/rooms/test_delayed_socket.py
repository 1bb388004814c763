"""Delayed feedback over the room socket (issue 25): the live owner answers an entry and a
submission as small as an immediate move, and says nothing of which entry is right."""

import datetime as dt
import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.engines import race
from games.models import Puzzle
from games.sudoku.play import Enter
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import EMPTY, PUZZLE, SOLUTION
from tests.rooms.test_consumer import connect, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def fill(room, player, cells, wrong_cell):
    for cell in cells:
        digit = int(SOLUTION[cell]) % 9 + 1 if cell == wrong_cell else int(SOLUTION[cell])
        act(room.code, player, A.GameMove(Enter(cell, digit)))


@sync_to_async
def tournament_room():
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    ada, grace = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace"))
    room = create_room(ada, level="easy")
    act(room.code, grace, A.Join())
    act(room.code, ada, A.SetRules("easy", race.TOURNAMENT))
    for p in (ada, grace):
        act(room.code, p, A.SetReady(True))
    act(room.code, ada, A.Start(), now=timezone.now() - dt.timedelta(seconds=5))
    return room, ada, grace


async def test_an_entry_and_a_wrong_submission_over_the_socket():
    room, ada, grace = await tournament_room()
    a, *_ = await connect(room.code, ada)
    g, *_ = await connect(room.code, grace)
    for c in (a, g):
        await c.receive_from(timeout=5)
    wrong_cell, last = EMPTY[0], EMPTY[-1]
    await sync_to_async(fill)(room, ada, EMPTY[:-1], wrong_cell)  # through the owner as well (one writer)
    for n, digit in enumerate((int(SOLUTION[last]) % 9 + 1, int(SOLUTION[last]))):  # a wrong digit, overwritten
        await a.send_to(text_data=json.dumps({"cell": last, "digit": digit, "mode": "enter", "mid": f"e{n}"}))
        mine = await receive_until(a, f'aria-label="Row 9, column 7, {digit}"', limit=200)
        # Entries look like the player's own: never right or wrong, no flash, no message.
        assert not re.search(r'class="cell [^"]*(wrong|fresh)', mine) and "is correct" not in mine
        assert "not right" not in mine and f'data-value="{digit}"' in mine
    frame = await receive_until(g, "51 of 51", limit=200)  # the standings count filled cells
    # The standings panel, whether it came alone or inside a full state (a busy process
    # coalesces refreshes into one full render, which also holds the player's own stats).
    theirs = re.search(r'<section id="standings".*?</section>', frame, re.DOTALL).group(0)
    # Filling only: no points (nothing scores while filling), no mistakes, no right or wrong.
    assert "51/51 filled" in theirs and "pts" not in theirs and "mistake" not in theirs
    await a.send_to(text_data=json.dumps({"action": "submit", "mid": "s1"}))
    answer = await receive_until(a, "cell is wrong")
    assert "1 cell is wrong (2 submissions left, +60 s)" in answer and "gridcell" not in answer
    await a.send_to(text_data=json.dumps({"action": "submit", "mid": "s2"}))
    assert "already checked" in await receive_until(a, "already checked")
    for c in (a, g):
        await c.disconnect()

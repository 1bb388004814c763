"""Public races filled with ghosts (docs/rules.md 10): one player alone for 15 s races ghosts
of real past runs of one puzzle; never a daily's, never unrated people counted."""

import datetime as dt

import pytest
from django.utils import timezone

from games.daily.models import Daily
from games.sudoku.play import Enter
from pool import service
from replays import record
from rooms import actions as A
from rooms.api import act
from rooms.models import Room, RoomResult
from stats.models import RatingChange
from tests.conftest import SOLUTION
from tests.stats.rated_rooms import blanks, race, signed_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def past_race(*names, seconds=(40, 50)):
    players = [signed_in(n) for n in names]
    room = race(players, finish=list(zip(players, seconds, strict=False)))
    record.record_room(room)
    return room


def test_alone_for_fifteen_seconds_races_two_ghosts_of_one_puzzle_unrated():
    old = past_race("Ben", "Cleo")
    ada = signed_in("Ada")
    now = timezone.now()
    service.ask(ada, "easy", now)
    assert service.tick("easy", now + dt.timedelta(seconds=14), force=True) == []
    (code,) = service.tick("easy", now + dt.timedelta(seconds=15), force=True)
    room = Room.objects.get(code=code)
    assert room.public and room.puzzle_id == old.puzzle_id and room.state == "countdown"
    assert sorted(g["name"] for g in room.ghosts) == ["Ben", "Cleo"] and room.seats.count() == 1
    assert all("line" in g and "events" not in g for g in room.ghosts)  # cells, never digits
    play = room.starts_at + dt.timedelta(seconds=1)
    for cell in blanks(room):
        act(code, ada, A.GameMove(Enter(cell, int(SOLUTION[cell]))), now=play)
    room.refresh_from_db()
    assert room.state == "finished"
    result = RoomResult.objects.get(player=ada)
    assert (result.placement, result.player_count, result.in_totals) == (1, 1, False)
    assert not RatingChange.objects.filter(account=ada.account).exists()


def test_no_ghosts_of_a_daily_and_none_of_the_players_own_puzzle():
    old = past_race("Ben", "Cleo")
    Daily.objects.create(date=timezone.now().date(), level="easy", puzzle=old.puzzle)
    ada = signed_in("Ada")
    now = timezone.now()
    service.ask(ada, "easy", now)
    assert service.tick("easy", now + dt.timedelta(seconds=16), force=True) == []  # a daily's runs stay secret
    Daily.objects.all().delete()
    ben = Room.objects.get(code=old.code).seats.get(player__display_name="Ben").player
    service.cancel(ada)
    service.ask(ben, "easy", now)
    assert service.tick("easy", now + dt.timedelta(seconds=16), force=True) == []  # Ben raced it: he knows it


def test_two_waiting_race_one_ghost_at_fifteen_seconds():
    past_race("Ben", "Cleo")
    ada, dan = signed_in("Ada"), signed_in("Dan")
    now = timezone.now()
    service.ask(ada, "easy", now)
    service.ask(dan, "easy", now + dt.timedelta(seconds=3))
    (code,) = service.tick("easy", now + dt.timedelta(seconds=15), force=True)
    room = Room.objects.get(code=code)
    assert room.seats.count() == 2 and len(room.ghosts) == 1

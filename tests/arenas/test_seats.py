"""Nothing on an arena page polls (arenas/live.py, arenas/seats.py): the tick pushes "your room
is ready" to each seated player's open page, a page that opens after its player was seated
hears it at once, and each process ticks the arenas it has open pages of while they are open."""

import asyncio
import datetime as dt

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from arenas import live, service
from arenas.models import Arena, Entry
from friends import presence
from games.models import Puzzle
from tests.conftest import PUZZLE, SOLUTION
from tests.friends.people import browser_of, member
from tests.friends.test_presence import socket

pytestmark = pytest.mark.django_db(transaction=True)


def running_arena(names) -> tuple[Arena, list]:
    now = timezone.now()
    for _ in range(2):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    arena = Arena.objects.create(
        level="easy", starts_at=now - dt.timedelta(minutes=1), minutes=30, ends_at=now + dt.timedelta(minutes=29)
    )
    players = [member(name) for name in names]
    for p in players:
        service.join(arena, p)
    return arena, players


async def seated_frame(page, timeout=5.0) -> str:
    """The next frame that seats the page's player (the bell and the table may come before)."""
    async with asyncio.timeout(timeout):
        while True:
            frame = await page.receive_from(timeout=timeout)
            if "data-seated=" in frame:
                return frame


def room_of(arena, profile) -> str:
    return Entry.objects.get(arena=arena, account=profile.account).room_code


async def test_the_tick_tells_each_seated_players_page_its_room(settings):
    settings.ARENA_PAGE_TICK_SECONDS = 0  # the test ticks
    arena, (ana, bo) = await sync_to_async(running_arena)(["Ana", "Bo"])
    pages = [await socket(p.account_id, presence.token("arena", arena.code), panel=False) for p in (ana, bo)]
    for page in pages:
        assert (await page.connect(timeout=5))[0]
        assert await page.receive_from(timeout=5)  # the bell
        assert await page.receive_nothing(timeout=0.2)  # waiting: nothing says "go"
    (code,) = await sync_to_async(service.tick)(arena, force=True)
    for page in pages:
        frame = await seated_frame(page)
        assert f'data-seated="{code}"' in frame and 'id="arena-status" hx-swap-oob="true"' in frame
        assert reverse("arena_status", args=[arena.code]) in frame and 'hx-trigger="load"' in frame
        await page.disconnect()


async def test_a_page_opened_after_its_player_was_seated_hears_it_at_once(settings):
    settings.ARENA_PAGE_TICK_SECONDS = 0
    arena, (ana, _bo) = await sync_to_async(running_arena)(["Ana", "Bo"])
    (code,) = await sync_to_async(service.tick)(arena, force=True)
    page = await socket(ana.account_id, presence.token("arena", arena.code), panel=False)
    assert (await page.connect(timeout=5))[0]
    assert f'data-seated="{code}"' in await seated_frame(page)
    await page.disconnect()


async def test_open_pages_keep_their_process_ticking_the_arena_and_only_while_open(settings):
    settings.ARENA_PAGE_TICK_SECONDS = 0.1
    arena, (ana, bo) = await sync_to_async(running_arena)(["Ana", "Bo"])
    page = await socket(ana.account_id, presence.token("arena", arena.code), panel=False)
    assert (await page.connect(timeout=5))[0]
    assert arena.code in live._LOOPS  # nobody ticks but the page's process
    frame = await seated_frame(page, timeout=10)
    assert await sync_to_async(room_of)(arena, ana) == await sync_to_async(room_of)(arena, bo) != ""
    assert f'data-seated="{await sync_to_async(room_of)(arena, ana)}"' in frame
    await page.disconnect()
    for _ in range(50):  # the loop ends at its next turn once no page is open
        if arena.code not in live._LOOPS:
            break
        await asyncio.sleep(0.05)
    assert arena.code not in live._LOOPS and arena.code not in live._WATCHERS


def test_the_seated_players_status_sends_them_to_their_room_and_the_waiting_page_never_polls(settings):
    settings.ARENA_PAGE_TICK_SECONDS = 0
    arena, (ana,) = running_arena(["Ana"])
    waiting = browser_of(ana).get(reverse("arena", args=[arena.code])).content.decode()
    assert 'data-entry-state="waiting"' in waiting and "hx-trigger=\"every" not in waiting
    bo = member("Bo")
    service.join(arena, bo)
    (code,) = service.tick(arena, force=True)
    answer = browser_of(bo).get(reverse("arena_status", args=[arena.code]), headers={"HX-Request": "true"})
    assert answer.status_code == 204 and answer["HX-Redirect"] == reverse("room", args=[code])

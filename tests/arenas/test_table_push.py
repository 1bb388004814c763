"""The arena table's push (arenas/table.py frame, friends/consumers.py): each process ranks an
arena once per table version and renders its top once per language and viewer's place in it,
whatever the number of open pages; each page gets the same table the page itself shows (its
own row marked, its place with a neighbour each side), and never an older one than it shows."""

import asyncio
import datetime as dt

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone

from arenas import pages as arena_pages
from arenas import service
from arenas import table as arena_table
from arenas.models import Arena, Entry
from friends import presence
from tests.friends.people import member
from tests.friends.test_presence import socket


def running_arena(names) -> tuple[Arena, list]:
    now = timezone.now()
    arena = Arena.objects.create(
        level="easy", starts_at=now - dt.timedelta(minutes=1), minutes=30, ends_at=now + dt.timedelta(minutes=29)
    )
    players = [member(name) for name in names]
    for points, p in enumerate(reversed(players)):  # the first name leads
        service.join(arena, p)
        Entry.objects.filter(arena=arena, account=p.account).update(points=points, rooms=1)
    service.changed(arena)
    arena.refresh_from_db()
    return arena, players


def page_table(arena, account_id) -> str:
    """The table as the arena page renders it (arenas/views.py), pushed out of band."""
    top, around = arena_table.table(arena, account_id)
    return render_to_string("arenas/arena.html#table", {"arena": arena, "top": top, "around": around, "oob": True})


@pytest.mark.django_db(transaction=True)
def test_a_pushed_table_is_the_pages_own_for_each_viewer(monkeypatch):
    monkeypatch.setattr(arena_table, "TOP", 2)
    arena, (ana, bo, _cy, di, ed) = running_arena(["Ana", "Bo", "Cy", "Di", "Ed"])
    for viewer in (ana, bo, di, ed, None):
        account = viewer.account_id if viewer else None
        html, version = asyncio.run(arena_table.frame(arena.code, arena.table_version, "en", account))
        top, around = arena_table.table(arena, account, top=2)
        expected = render_to_string(
            "arenas/arena.html#table", {"arena": arena, "top": top, "around": around, "oob": True}
        )
        assert html == expected and version == arena.table_version
    # Di, fourth: the top two, then Cy, Di (marked) and Ed; Ana, first: marked in the top
    html, _ = asyncio.run(arena_table.frame(arena.code, arena.table_version, "en", di.account_id))
    assert html.index('data-arena-row="Bo"') < html.index("board-gap") < html.index('data-arena-row="Cy"')
    assert html.count("is-mine") == 1 and 'is-mine" aria-current="true" data-arena-row="Di"' in html
    html, _ = asyncio.run(arena_table.frame(arena.code, arena.table_version, "en", ana.account_id))
    assert "board-gap" not in html and 'is-mine" aria-current="true" data-arena-row="Ana"' in html
    dutch, _ = asyncio.run(arena_table.frame(arena.code, arena.table_version, "nl", ana.account_id))
    assert "Punten" in dutch and "Points" not in dutch


@pytest.mark.django_db(transaction=True)
def test_many_pages_waiting_for_one_version_cost_one_load(monkeypatch):
    arena, players = running_arena(["Ana", "Bo", "Cy"])
    loads = []
    real_load = arena_table._load

    def counted(code):
        loads.append(code)
        return real_load(code)

    monkeypatch.setattr(arena_table, "_load", counted)
    arena_table._RANKED.clear()

    async def pages(version):
        return await asyncio.gather(
            *(arena_table.frame(arena.code, version, "en", players[i % 3].account_id) for i in range(60))
        )

    first = asyncio.run(pages(arena.table_version))
    assert len(loads) == 1 and {v for _, v in first} == {arena.table_version}
    asyncio.run(pages(arena.table_version))  # the same version again: nothing loaded
    assert len(loads) == 1
    Entry.objects.filter(arena=arena, account=players[2].account).update(points=9)
    service.changed(arena)
    later = asyncio.run(pages(arena.table_version + 1))
    assert len(loads) == 2 and {v for _, v in later} == {arena.table_version + 1}
    assert later[2][0].index('data-arena-row="Cy"') < later[2][0].index('data-arena-row="Ana"')  # Cy leads now


@pytest.mark.django_db(transaction=True)
async def test_an_arena_page_gets_each_new_table_once_and_never_an_older_one(settings):
    settings.ARENA_PAGE_TICK_SECONDS = 0  # the page's process would seat Ana and Bo: not this test's subject
    arena, (ana, _bo) = await sync_to_async(running_arena)(["Ana", "Bo"])
    page = await socket(ana.account_id, presence.token("arena", arena.code), panel=False)
    assert (await page.connect(timeout=5))[0]
    await page.receive_from(timeout=5)  # the bell
    await sync_to_async(service.push_table)(arena)
    pushed = await page.receive_from(timeout=5)
    assert f'data-table-version="{arena.table_version}"' in pushed and "is-mine" in pushed
    assert pushed == await sync_to_async(page_table)(arena, ana.account_id)
    layer = get_channel_layer()
    group = arena_pages.group(arena.code)  # one member per process with open pages of it
    for version in (arena.table_version, arena.table_version - 1):  # shown, older: nothing sent
        await layer.group_send(group, {"type": "arena.table", "code": arena.code, "version": version})
    assert await page.receive_nothing(timeout=0.3)
    await sync_to_async(service.changed)(arena)
    await sync_to_async(service.push_table)(arena)
    newer = await page.receive_from(timeout=5)
    assert f'data-table-version="{arena.table_version + 1}"' in newer
    await page.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_change_is_one_message_for_the_process_however_many_of_its_pages_are_open(settings, monkeypatch):
    """arenas/pages.py: the process hears of a change once and hands it to each of its open
    pages; a message per page through Redis (channels-redis receives a process's messages one
    at a time, four round trips each) left the last pages seconds behind at 500 players."""
    settings.ARENA_PAGE_TICK_SECONDS = 0
    arena, players = await sync_to_async(running_arena)(["Ana", "Bo", "Cy"])
    pages = []
    for p in players:
        page = await socket(p.account_id, presence.token("arena", arena.code), panel=False)
        assert (await page.connect(timeout=5))[0]
        await page.receive_from(timeout=5)  # the bell
        pages.append(page)
    heard = []
    deliver = arena_pages.deliver

    async def counted(message):
        heard.append(message["type"])
        await deliver(message)

    monkeypatch.setattr(arena_pages, "deliver", counted)
    await sync_to_async(service.push_table)(arena)
    for page, p in zip(pages, players, strict=True):
        assert await page.receive_from(timeout=5) == await sync_to_async(page_table)(arena, p.account_id)
    assert heard == ["arena.table"]  # one message for three pages
    # A seating round: one message too, each page told only its own player's room
    await sync_to_async(arena_pages.send)(
        arena.code, {"type": "arena.seated", "seated": {str(players[1].account_id): "ABC123"}}
    )
    assert 'data-seated="ABC123"' in await pages[1].receive_from(timeout=5)
    assert await pages[0].receive_nothing(timeout=0.3) and await pages[2].receive_nothing(timeout=0.1)
    assert heard == ["arena.table", "arena.seated"]
    for page in pages:
        await page.disconnect()

"""An arena's open pages in this process, and how a change reaches them (docs/rules.md 12):
one message per process, handed here to every open page of the arena, as the rooms' pushes
are (rooms/channel.py). Each page used to be a member of the arena's group itself, so a new
table was one message per open page through Redis, and channels-redis takes each message a
process receives in four round trips, one message at a time: at 500 players a table reached
the last pages seconds late and held up every other message of the process behind it
(bench/README.md, Arenas).

The pages are friends/consumers.py's MeConsumer, opened with an arena's token; each is told
`arena_table(event)` (the table changed) and `arena_seated({"room": code})` (its player was
seated), and keeps the table versions it shows in order itself.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

# (event loop, arena code) -> the open pages of that arena in this process
_PAGES: dict[tuple[int, str], set] = {}
# id(event loop) -> (that loop, this process's channel for its arenas, the task reading it);
# the loop is kept to tell a new loop from a closed one that had the same id (tests run many)
_CHANNELS: dict[int, tuple[asyncio.AbstractEventLoop, str, asyncio.Task]] = {}


def group(code: str) -> str:
    """The processes with an open page of the arena (one member each: its channel)."""
    return f"arena.{code}"


async def _channel(layer) -> str:
    loop = asyncio.get_running_loop()
    found = _CHANNELS.get(id(loop))
    if found is not None and found[0] is loop and not found[2].done():
        return found[1]
    # The layer's own prefix: channels-redis reads every channel of a process through one
    # Redis key per prefix, and a second prefix took turns with the sockets' (seconds each).
    channel = await layer.new_channel()
    _CHANNELS[id(loop)] = (loop, channel, asyncio.ensure_future(_read(layer, channel)))
    return channel


async def open_page(page) -> None:
    """`page` shows arena `page.arena` from now on; the process hears of it once it shows one."""
    key = (id(asyncio.get_running_loop()), page.arena)
    pages = _PAGES.setdefault(key, set())
    pages.add(page)
    layer = get_channel_layer()
    await layer.group_add(group(page.arena), await _channel(layer))  # again for each page: renews its expiry


async def close_page(page) -> None:
    key = (id(asyncio.get_running_loop()), page.arena)
    pages = _PAGES.get(key)
    if pages is None:
        return
    pages.discard(page)
    if not pages:
        del _PAGES[key]
        layer = get_channel_layer()
        await layer.group_discard(group(page.arena), await _channel(layer))


def open_pages(code: str) -> list:
    return list(_PAGES.get((id(asyncio.get_running_loop()), code), ()))


async def _read(layer, channel: str) -> None:
    """Every message for this process's arena pages, handed to each page of its arena in
    turn (a page that fails is passed over); the reader never stops while the loop runs."""
    while True:
        try:
            message = await layer.receive(channel)
        except asyncio.CancelledError:
            raise
        except Exception:  # Redis away: wait for it, the pages stay open
            logger.warning("arena pages' channel read failed", exc_info=True)
            await asyncio.sleep(1)
            continue
        await deliver(message)


async def deliver(message: dict) -> None:
    code = message.get("code", "")
    seated = message.get("seated") or {}
    for page in open_pages(code):
        try:
            if message.get("type") == "arena.table":
                await page.arena_table(message)
            elif message.get("type") == "arena.seated" and str(page.account_id) in seated:
                await page.arena_seated({"room": seated[str(page.account_id)]})
        except Exception:  # one closed or failing page must not stop the others
            logger.warning("arena push to a page of %s failed", code, exc_info=True)


def send(code: str, message: dict) -> None:
    """From sync code (the tick): one message to every process with an open page of `code`."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group(code), {**message, "code": code})
    except Exception:  # the pages catch up when their sockets (re)connect or the next change comes
        logger.warning("arena push failed", exc_info=True)

"""An arena's tick while its pages are open (docs/rules.md 12): each process ticks the arenas
it has open pages of, once a second (the tick's cache turn leaves the work to one process), so
a waiting page need not ask: it hears "your room is ready" on its own socket (arenas/seats.py).
A waiting page used to poll every 2 s and tick; at a few hundred players that kept each
process's one sync thread busy and every push waited behind it (bench/README.md, Arenas)."""

import asyncio
import logging

from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from . import service
from .models import Arena

logger = logging.getLogger(__name__)


# --- the tick while pages watch: one loop per arena per process -------------------------------

_WATCHERS: dict[str, int] = {}  # arena code -> open pages of it in this process
_LOOPS: dict[str, asyncio.Task] = {}


def _tick(code: str) -> bool:
    """One tick of the arena (scores finished rooms, seats the waiting); False once it is over
    and every room of it is scored (its last rooms end with it: the tick sees them ended and
    scored, as beat's does for five minutes, arenas/tasks.py)."""
    arena = Arena.objects.filter(code=code).first()
    if arena is None:
        return False
    if service.state_of(arena, timezone.now()) == "finished" and not arena.arena_rooms.filter(scored=False).exists():
        return False
    service.tick(arena)  # its turn: one tick at a time across processes
    return True


async def _loop(code: str) -> None:
    every = settings.ARENA_PAGE_TICK_SECONDS
    try:
        while _WATCHERS.get(code):
            await asyncio.sleep(every)
            try:
                # In a context of its own, as Django runs each request's view: the tick starts
                # rooms through rooms.api, and the owner's tasks (a room's refresh) keep the
                # caller's context; one left marked "inside the sync thread" later refused to
                # use it ("Single thread executor already being used, would deadlock" in
                # bench/arena.py, and those rooms never ended).
                async with ThreadSensitiveContext():
                    ticked = await database_sync_to_async(_tick)(code)
                if not ticked:
                    return
            except Exception:  # a failed tick is tried again at the next
                logger.warning("arena %s tick failed", code, exc_info=True)
    finally:
        _LOOPS.pop(code, None)


def watch(code: str, **kwargs) -> None:
    """An arena page opened in this process: tick its arena while any is open."""
    _WATCHERS[code] = _WATCHERS.get(code, 0) + 1
    if settings.ARENA_PAGE_TICK_SECONDS > 0 and code not in _LOOPS:
        _LOOPS[code] = asyncio.ensure_future(_loop(code))


def unwatch(code: str, **kwargs) -> None:
    left = _WATCHERS.get(code, 0) - 1
    if left > 0:
        _WATCHERS[code] = left
    else:
        _WATCHERS.pop(code, None)  # its loop ends at its next turn

"""A room's full view rendered again for this process's sockets of it (a `room.refresh`: play
starts, a finish, a stale owner's drop, the channel layer back after failing): once per
distinct viewer and language, a burst of refreshes within REFRESH_COALESCE_SECONDS rendered
once, and a render the database refused tried again a few times (an open socket never resyncs
by itself). The hub (rooms/hub.py) builds it with its sockets by room.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from .answers import render_views

logger = logging.getLogger(__name__)

REFRESH_COALESCE_SECONDS = 0.05  # refreshes of one room within this window render once
REFRESH_RETRIES, REFRESH_RETRY_SECONDS = 5, 1.0  # a refresh the database refused, tried again


class Refresher:
    def __init__(self, sockets: dict[str, set]):
        self.sockets = sockets  # the hub's own
        self._refreshing: set[str] = set()
        self._tries: dict[str, int] = {}
        self._retries: set[asyncio.Task] = set()

    async def _later(self, code: str) -> None:
        await asyncio.sleep(REFRESH_RETRY_SECONDS)
        await self.soon(code)

    async def soon(self, code: str) -> None:
        """Every local socket of the room gets its view again, rendered once per distinct
        viewer, and a burst of refreshes (a client toggling ready) renders once."""
        if code in self._refreshing:
            return
        self._refreshing.add(code)
        try:
            await asyncio.sleep(REFRESH_COALESCE_SECONDS)
        finally:
            self._refreshing.discard(code)  # a refresh from now on needs another render
        sockets = [s for s in self.sockets.get(code, ()) if s.player is not None]
        if not sockets:
            return
        viewers = {(s.player.pk, s.language): s.player for s in sockets}
        try:
            views = await database_sync_to_async(render_views)(code, viewers)
        except Exception:  # the database is away: tried again in a moment, a few times
            logger.warning("room refresh of %s failed", code, exc_info=True)
            tries = self._tries.get(code, 0) + 1
            self._tries[code] = tries
            if tries <= REFRESH_RETRIES:
                # an open socket never resyncs by itself: a finish pushed into a database outage
                # was lost to every client (tests/resilience/test_faults.py, a dropped connection)
                retry = asyncio.ensure_future(self._later(code))
                self._retries.add(retry)
                retry.add_done_callback(self._retries.discard)
            return
        self._tries.pop(code, None)
        for consumer in sockets:
            html = views.get((consumer.player.pk, consumer.language))
            if html:
                try:
                    await consumer.send(text_data=html)
                except Exception:
                    logger.warning("refresh of a socket of %s failed", code, exc_info=True)

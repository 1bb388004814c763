"""Which process owns a running room: a lease per room, held by the owner's process
channel and renewed while it lives. With Redis: SET NX PX (a dead owner's lease runs out
after TTL_MS and the next message makes another process the owner). Without Redis (the
embedded default: one process) the lease is a dict in this process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import redis
import redis.asyncio
from django.conf import settings

logger = logging.getLogger(__name__)

TTL_MS = 5000
RENEW_SECONDS = 1.5
PREFIX = "showdown:owner:"
POOL_SIZE = 50  # a process's connections for leases: more lookups than this wait their turn

# Compare-and-renew / compare-and-release: only the holder may extend or drop its lease.
# A lease nobody holds (it ran out while this owner could not reach Redis, or a restarted
# Redis forgot it) is taken again: dropping the room would send its next moves down the
# locked path. Another owner meanwhile is refused, and the log's version fence guards the gap.
_RENEW = (
    "local held = redis.call('get', KEYS[1]) "
    "if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "if not held then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end "
    "return 0"
)
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class LocalLeases:
    # code -> (channel, expiry, event loop): one dict per process. A lease taken in an
    # event loop that has closed since (tests run one loop per test) holds nothing.
    held: dict[str, tuple[str, float, asyncio.AbstractEventLoop]] = {}

    def _live(self, code):
        entry = self.held.get(code)
        if entry is None or entry[1] < time.monotonic() or entry[2].is_closed():
            return None
        return entry[0]

    async def acquire(self, code: str, channel: str) -> bool:
        holder = self._live(code)
        if holder not in (None, channel):
            return False
        self.held[code] = (channel, time.monotonic() + TTL_MS / 1000, asyncio.get_running_loop())
        return True

    async def renew(self, code: str, channel: str) -> bool:
        return await self.acquire(code, channel)

    async def renew_many(self, codes: list[str], channel: str) -> list[bool]:
        return [await self.acquire(code, channel) for code in codes]

    async def release(self, code: str, channel: str) -> None:
        if self._live(code) == channel:
            del self.held[code]

    async def holder(self, code: str) -> str | None:
        return self._live(code)

    def holder_sync(self, code: str) -> str | None:
        return self._live(code)


class RedisLeases:
    """Redis away: nobody can be asked who owns a room, so rooms fall back to the locked
    path (rows and log stay the truth; a stale owner is fenced by the log's version index)."""

    _sync_client = None

    def __init__(self, url: str):
        self.url = url
        # A blocking pool: a burst of lookups (2,000 arena players' sockets at a round's start,
        # bench/arena.py) waits for a free connection; redis-py's plain pool raised "Too many
        # connections" past its limit, read here as Redis away (no owner: the locked path).
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url, max_connections=POOL_SIZE, timeout=2, socket_timeout=2, socket_connect_timeout=2
        )
        self.client = redis.asyncio.Redis(connection_pool=pool)

    async def acquire(self, code: str, channel: str) -> bool:
        try:
            if await self.client.set(PREFIX + code, channel, nx=True, px=TTL_MS):
                return True
        except Exception:
            logger.warning("lease unavailable", exc_info=True)
            return False
        return await self.holder(code) == channel and await self.renew(code, channel)

    async def renew(self, code: str, channel: str) -> bool:
        try:
            return bool(await self.client.eval(_RENEW, 1, PREFIX + code, channel, TTL_MS))
        except Exception:  # keep owning through a blip; the fence guards a split
            logger.warning("lease renewal unavailable", exc_info=True)
            return True

    async def renew_many(self, codes: list[str], channel: str) -> list[bool]:
        """`renew` for every room of a process in one round trip (a pipeline)."""
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.eval(_RENEW, 1, PREFIX + code, channel, TTL_MS)
                return [bool(held) for held in await pipe.execute()]
        except Exception:  # keep owning through a blip; the fence guards a split
            logger.warning("lease renewal unavailable", exc_info=True)
            return [True] * len(codes)

    async def release(self, code: str, channel: str) -> None:
        with contextlib.suppress(Exception):  # Redis away: the lease runs out by itself
            await self.client.eval(_RELEASE, 1, PREFIX + code, channel)

    async def holder(self, code: str) -> str | None:
        try:
            value = await self.client.get(PREFIX + code)
        except Exception:
            logger.warning("lease unavailable", exc_info=True)
            return None
        return value.decode() if isinstance(value, bytes) else value

    def holder_sync(self, code: str) -> str | None:
        return self.holder_sync_url(self.url, code)

    @classmethod
    def holder_sync_url(cls, url: str, code: str) -> str | None:
        if cls._sync_client is None:
            cls._sync_client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            value = cls._sync_client.get(PREFIX + code)
        except Exception:
            logger.warning("lease unavailable", exc_info=True)
            return None
        return value.decode() if isinstance(value, bytes) else value


def for_settings():
    return RedisLeases(settings.REDIS_URL) if settings.REDIS_URL else LocalLeases()


def holder_sync(code: str) -> str | None:
    """For the locked path (a sync thread): who owns `code` now, if anyone."""
    if settings.REDIS_URL:
        return RedisLeases.holder_sync_url(settings.REDIS_URL, code)
    return LocalLeases().holder_sync(code)

"""A burst of sockets joining their rooms at once. Each connect adds the socket to its
room's group (one Redis call each, all in flight together); redis-py 8's pool raised
"Too many connections" past 100, which daphne answered with HTTP 500 on the handshake."""

import asyncio

from channels.layers import get_channel_layer
from django.conf import settings

from tests.conftest import require_service


async def test_three_hundred_sockets_join_their_groups_at_the_same_moment():
    require_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    layer = get_channel_layer()
    channels = [await layer.new_channel() for _ in range(300)]
    await asyncio.gather(*(layer.group_add(f"burst-{i % 60}", name) for i, name in enumerate(channels)))
    await layer.group_send("burst-0", {"type": "room.refresh"})
    received = await asyncio.wait_for(asyncio.gather(*(layer.receive(name) for name in channels[::60])), 10)
    assert [m["type"] for m in received] == ["room.refresh"] * 5
    await asyncio.gather(*(layer.group_discard(f"burst-{i % 60}", name) for i, name in enumerate(channels)))


async def test_a_burst_of_owner_lookups_past_the_pool_waits_its_turn_and_is_answered():
    """A round of 2,000 arena players connects its room sockets at once, each asking Redis who
    owns its room (rooms/lease.py): past the pool's size redis-py raised "Too many
    connections", read as Redis away (no owner), 273 times in one bench/arena.py run."""
    require_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    from rooms import lease

    leases = lease.RedisLeases(settings.REDIS_URL)
    codes = [f"BURST{i}" for i in range(lease.POOL_SIZE * 6)]
    assert all(await asyncio.gather(*(leases.acquire(code, "live.burst") for code in codes)))
    holders = await asyncio.gather(*(leases.holder(code) for code in codes))
    assert holders == ["live.burst"] * len(codes)
    await asyncio.gather(*(leases.release(code, "live.burst") for code in codes))
    assert await leases.holder(codes[0]) is None

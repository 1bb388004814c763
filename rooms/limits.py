"""Room-code guessing (issue 12): one counter per client IP of misses (a join with an
unknown or malformed code, a room page that is not found, a socket refused for an unknown
room). Past ROOM_MISS_LIMIT misses in ROOM_MISS_WINDOW seconds, lookups by that IP are
refused (429 / socket close 4429), except for rooms the player already sits in, so hits
and misses look the same to a guesser. The room sockets' connect budget (GCRA) and its
refusals. The rooms' admission policy only: every formula (the fixed window, the GCRA, the
token bucket) and the client's IP are games/common/limits.py's; the IP and the creation
limits are re-exported here for the rooms' views.

Socket handshake (for rooms/consumers.py connect):
    ip = client_ip(scope)
    if not await alookup_allowed(ip, player, code): close(4429)
    ... unknown room: await acount_miss(ip); close(4404)
"""

import asyncio

from asgiref.sync import sync_to_async
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext

from games.common import limits as base
from games.common.limits import client_ip, creation_limit, creation_limited
from games.engines.text import _
from players.identity import record_filter
from players.middleware import cookie_token

from .models import Seat

__all__ = ["client_ip", "creation_limit", "creation_limited"]

TOO_MANY_MISSES = _("Too many failed join attempts from your network. Wait a few minutes and try again.")


# --- room-code guessing: one counter per client IP ---


def _miss_key(ip: str) -> str:
    return f"{base.prefix}:miss:{ip}"


def limited(ip: str) -> bool:
    """True when this IP has used up its room-lookup misses for the window."""
    return base.over(_miss_key(ip), settings.ROOM_MISS_LIMIT)


def count_miss(ip: str) -> None:
    base.count(_miss_key(ip), settings.ROOM_MISS_WINDOW)


def lookup_allowed(ip: str, player, code: str) -> bool:
    """May this client look room `code` up? Always, until its IP is limited; then only a room
    the player sits in (a limited guesser gets the same refusal for every code)."""
    if not limited(ip):
        return True
    if player is None or not player.pk:
        return False
    return Seat.objects.filter(record_filter(player), room__code=code).exists()  # the account's seat counts


# --- socket connects and resyncs: each renders the full state; one budget per IP and per
# profile (a connect and a `sync` message each spend one) ---


def connect_allowed(ip: str, key) -> bool:
    """Charge one connect (or resync) to this IP's and this player's budget; False once either
    is spent. Each budget is ROOM_CONNECTS_PER_* per ROOM_CONNECT_WINDOW as a steady rate with
    a burst (GCRA: up to a tenth of it at once, at least 10, then one per window/limit), so no
    address puts seconds' worth of full renders in front of everyone else's moves: 180 a
    minute taken at once held the sockets' shared thread for seconds (issue 28, item 2).
    Charged before anything is rendered, refused ones included (up to one window ahead), so
    a cut-off client that knocks again at once only stays out longer."""
    budgets = (
        (f"{base.prefix}:connect:ip:{ip}", settings.ROOM_CONNECTS_PER_IP),
        (f"{base.prefix}:connect:p:{key}", settings.ROOM_CONNECTS_PER_PROFILE),
    )
    return base.gcra(
        [(name, limit, min(limit, max(10, limit // 10))) for name, limit in budgets],
        settings.ROOM_CONNECT_WINDOW,
        unavailable="connect budget unavailable",
    )


# Off the sockets' shared thread (thread_sensitive=False): a refusal neither waits behind
# the rooms' database calls and renders nor holds them up (the cache is thread-safe).
aconnect_allowed = sync_to_async(connect_allowed, thread_sensitive=False)
alimited = sync_to_async(limited)
acount_miss = sync_to_async(count_miss)
alookup_allowed = sync_to_async(lookup_allowed)


def too_many_misses(request):
    return render(
        request,
        "message.html",
        {"title": gettext("Too many attempts"), "message": TOO_MANY_MISSES, "error": True},
        status=429,
    )


class ConnectBudget:
    """ASGI middleware in front of the player lookup (config/asgi.py): a room socket's connect
    is charged to its address and its player cookie (the token, read without a query) before
    anything touches the database, and past either budget it is refused 4429 there (accepted,
    then closed: the page reads the code). A socket without a player cookie is refused 4401
    the same way. A cut-off client that reconnects at once costs a signature check and a cache
    count, off the thread the rooms' database calls and renders share."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        token = cookie_token(scope)
        if token is None:
            return await refuse(receive, send, CLOSE_NO_PROFILE)
        if not await aconnect_allowed(client_ip(scope), token):
            return await refuse(receive, send, CLOSE_TOO_MANY)
        return await self.inner(dict(scope, budget_key=token), receive, send)


CLOSE_NO_PROFILE = 4401
CLOSE_TOO_MANY = 4429


async def refuse(receive, send, code: int) -> None:
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await hold(code)
        await send({"type": "websocket.close", "code": code})


async def hold(code: int) -> None:
    """A "try later" refusal (4429) waits before its close: a flooder that reconnects the
    moment it is closed then costs a sleeping socket, not a handshake loop (54 sockets
    reconnecting at once ran 450 refused handshakes a second)."""
    if code == CLOSE_TOO_MANY:
        await asyncio.sleep(settings.ROOM_REFUSAL_HOLD)

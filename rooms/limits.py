"""Room-code guessing (issue 12): one counter per client IP of misses (a join with an
unknown or malformed code, a room page that is not found, a socket refused for an unknown
room). Past ROOM_MISS_LIMIT misses in ROOM_MISS_WINDOW seconds, lookups by that IP are
refused (429 / socket close 4429), except for rooms the player already sits in, so hits
and misses look the same to a guesser. The client's IP, the counters and the creation
limits are games/limits.py's (shared with the solo games), re-exported here.

Socket handshake (for rooms/consumers.py connect):
    ip = client_ip(scope)
    if not await alookup_allowed(ip, player, code): close(4429)
    ... unknown room: await acount_miss(ip); close(4404)
"""

from asgiref.sync import sync_to_async
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext

from games import limits as base
from games.engines.text import _
from games.limits import client_ip, creation_limit, creation_limited
from players.identity import record_filter

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


def connect_allowed(ip: str, player_id: int) -> bool:
    """Charge one connect to this IP and this profile; False once either has spent its
    budget for the window. Charged before anything is rendered, refused ones included, so
    reconnecting at once after being cut off buys nothing."""
    window = settings.ROOM_CONNECT_WINDOW
    keys = (
        (f"{base.prefix}:connect:ip:{ip}", settings.ROOM_CONNECTS_PER_IP),
        (f"{base.prefix}:connect:p:{player_id}", settings.ROOM_CONNECTS_PER_PROFILE),
    )
    for key, _limit in keys:
        base.count(key, window)
    return not any(base.over(key, limit + 1) for key, limit in keys)


aconnect_allowed = sync_to_async(connect_allowed)
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

"""The site's one home of rate limits (issue 12, issue 42): the client's IP and the three
primitives every limit is built on, each with its formula here only:

- a fixed window counted in the shared cache (`count`, `over`): the creation limits below
  (rooms, solo games, dailies, the pool, follows, invites), the room-code guesses
  (rooms/limits.py), reactions (rooms/reactions.py), sign-in code requests (accounts/views.py);
- a steady rate with a burst in the shared cache (`gcra`): the room sockets' connects and
  resyncs (rooms/limits.py connect_allowed);
- a token bucket in memory (`TokenBucket`): a socket's own message allowance
  (rooms/consumers.py) and a player's over all their sockets in a process (rooms/hub.py).

The creation limits are counted per profile and per IP; past the limit the request gets a
429 with a clear message. rooms/limits.py holds the rooms' admission policy on top.

The client IP comes from client_ip(): REMOTE_ADDR (or the socket's peer), or, when that peer
is one of TRUSTED_PROXIES, the nearest X-Forwarded-For address that is not a trusted proxy.
A cache failure (Redis down) lets requests through rather than answering 500.
"""

import functools
import ipaddress
import logging
import time
from collections.abc import Sequence

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, gettext_lazy

from players.middleware import known_player

from .responses import refusal

logger = logging.getLogger(__name__)
# Tests give each test fresh counters by changing this prefix (tests/conftest.py).
prefix = "limit"


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]):
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def _forwarded_client(peer: str, forwarded: str) -> str:
    """The client behind a chain of trusted proxies: X-Forwarded-For read from the right
    (the left end is whatever the client wrote), stopping at the first untrusted hop."""
    if not _trusted(peer):
        return peer
    for hop in reversed([part.strip() for part in forwarded.split(",") if part.strip()]):
        if not _trusted(hop):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # garbage in the header: fall back to the proxy, never trust it
    return peer


def client_ip(scope_or_request) -> str:
    """The client's IP for a Django request or an ASGI (socket) scope."""
    if isinstance(scope_or_request, dict):
        client = scope_or_request.get("client") or ("", 0)
        peer = client[0] or ""
        forwarded = ""
        for name, value in scope_or_request.get("headers", []):
            if name == b"x-forwarded-for":
                forwarded = value.decode("latin1")
    else:
        peer = scope_or_request.META.get("REMOTE_ADDR", "") or ""
        forwarded = scope_or_request.META.get("HTTP_X_FORWARDED_FOR", "")
    return _forwarded_client(peer, forwarded) if forwarded else peer


def count(key: str, window: int) -> None:
    try:
        if not cache.add(key, 1, window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, window)
    except Exception:  # the cache (Redis) is down: the answer itself still reaches the client
        logger.warning("rate limit unavailable", exc_info=True)


def over(key: str, limit: int) -> bool:
    try:
        return cache.get(key, 0) >= limit
    except Exception:  # the cache (Redis) is down: let requests through rather than fail
        logger.warning("rate limit unavailable", exc_info=True)
        return False


def gcra(budgets: Sequence[tuple[str, int, int]], window: float, unavailable: str = "rate limit unavailable") -> bool:
    """Charge one arrival to each budget, a (cache key, limit, burst): `limit` per `window`
    seconds as a steady rate, up to `burst` at once (GCRA: each key holds its theoretical next
    arrival). False once any budget is spent. Refused arrivals are charged too (up to one
    window ahead), so a client that knocks again at once only stays out longer. A cache
    failure lets the arrival through (logged as `unavailable`)."""
    now = time.time()
    try:
        arrivals = cache.get_many([name for name, _limit, _burst in budgets])
        allowed, due = True, {}
        for name, limit, burst in budgets:
            interval = window / limit
            theoretical = max(arrivals.get(name, now), now)
            allowed = allowed and theoretical - now <= (burst - 1) * interval
            due[name] = min(theoretical + interval, now + window)
        cache.set_many(due, timeout=window + 1)
    except Exception:  # the cache (Redis) is down: let the client in rather than fail
        logger.warning(unavailable, exc_info=True)
        return True
    return allowed


class TokenBucket:
    """`rate` messages a second, up to `burst` at once, in this process's memory: a socket's
    own allowance (rooms/consumers.py) and a player's over all their sockets in a process
    (rooms/hub.py)."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.last = rate, burst, float(burst), time.monotonic()

    def has(self, now: float) -> bool:
        """Is there a message's token at `now` (refilled for the time since the last look)?"""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1

    def spend(self) -> None:
        self.tokens -= 1

    def take(self, now: float) -> bool:
        if not self.has(now):
            return False
        self.spend()
        return True


# --- creation: per profile and per IP ---

CREATION_MESSAGES = {
    "room": gettext_lazy(
        "You have started too many rooms in a short time. Wait a few minutes (at most %(minutes)s) and try again."
    ),
    "game": gettext_lazy(
        "You have started too many new games in a short time. Wait a few minutes (at most %(minutes)s) and try again."
    ),
    "daily": gettext_lazy(
        "You have started too many ranked dailies in a short time. Wait a few minutes "
        "(at most %(minutes)s) and try again."
    ),
    "pool": gettext_lazy(
        "You have asked to race (or cancelled) too often in a short time. Wait a few minutes "
        "(at most %(minutes)s) and try again."
    ),
    "follow": gettext_lazy(
        "You have followed, unfollowed or blocked too often in a short time. Wait a few minutes "
        "(at most %(minutes)s) and try again."
    ),
    "invite": gettext_lazy(
        "You have sent too many invites in a short time. Wait a few minutes (at most %(minutes)s) and try again."
    ),
}


def creation_limited(request, kind: str) -> bool:
    """Count one creation of `kind` for this profile and IP; True when either is past its limit."""
    per_profile, per_ip = settings.CREATION_LIMITS[kind]
    window = settings.CREATION_WINDOW
    profile = known_player(request)
    keys = [(f"{prefix}:create:{kind}:ip:{client_ip(request)}", per_ip)]
    if profile is not None:
        keys.append((f"{prefix}:create:{kind}:p:{profile.pk}", per_profile))
    if any(over(key, limit) for key, limit in keys):
        return True
    for key, _limit in keys:
        count(key, window)
    return False


def creation_limit(kind: str):
    """View decorator: past the creation limit, a 429 with a clear message and nothing created."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            if creation_limited(request, kind):
                minutes = max(1, settings.CREATION_WINDOW // 60)
                message = CREATION_MESSAGES[kind] % {"minutes": minutes}
                return refusal(request, message, 429, title=gettext("Slow down"))
            before = known_player(request)
            response = view(request, *args, **kwargs)
            made = known_player(request) if before is None else None
            if made is not None:  # the first creation made the profile: it counts for it too
                count(f"{prefix}:create:{kind}:p:{made.pk}", settings.CREATION_WINDOW)
            return response

        return wrapper

    return decorate

"""When this server process started and when the site was last seen alive before it, so that
a Solo Run's clock does not count the time the server was down (games/sudoku/solo.advance_clock).

Every server process writes a heartbeat to the cache (Redis in production, shared by all
processes) every HEARTBEAT seconds. At start, before its own first heartbeat, a process reads
the last one: the site was down from then until now. `config/asgi.py` calls `start()` when
daphne (or runserver) loads the app, so the start is the process's, not its first request's."""

import logging
import threading
import time
from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.utils import timezone
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

HEARTBEAT = 5.0  # seconds between heartbeats: the downtime is known to within this
HEARTBEAT_KEY = "uptime:alive"
# Without a heartbeat from before the start (the in-memory cache of a dev server, or Redis
# lost it), RESTART_GRACE seconds after the last request are taken as play time, the rest
# of the gap until the start as downtime.
RESTART_GRACE = 30.0

STARTED: datetime = timezone.now()  # read at call time: start() and tests set it
LAST_ALIVE: datetime | None = None  # the last heartbeat before STARTED, if one was found


def downtime_after(since: datetime) -> float:
    """Seconds the site was down between `since` and now (0 unless a restart came after it)."""
    if since >= STARTED:
        return 0.0
    down_from = LAST_ALIVE if LAST_ALIVE is not None else since + timedelta(seconds=RESTART_GRACE)
    return max(0.0, (STARTED - max(since, down_from)).total_seconds())


def start(heartbeat: bool = True) -> None:
    """Take this process's start, read the last heartbeat before it, then keep beating."""
    global STARTED, LAST_ALIVE
    STARTED = timezone.now()
    try:
        seen = cache.get(HEARTBEAT_KEY)
    except RedisError:  # the cache is down: fall back to RESTART_GRACE
        seen = None
    LAST_ALIVE = datetime.fromtimestamp(seen, UTC) if isinstance(seen, (int, float)) else None
    if LAST_ALIVE is not None and LAST_ALIVE > STARTED:  # another process is up: no downtime
        LAST_ALIVE = STARTED
    if heartbeat:
        threading.Thread(target=_beat, name="uptime-heartbeat", daemon=True).start()


def beat() -> None:
    cache.set(HEARTBEAT_KEY, time.time(), timeout=7 * 24 * 3600)


def _beat() -> None:
    while True:
        try:
            beat()
        except RedisError as error:  # the cache is down for a while: beat again later
            log.debug("heartbeat not written: %s", error)
        time.sleep(HEARTBEAT)

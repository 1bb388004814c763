"""Parallel test workers (pytest-xdist) share nothing but the machine.

Loaded early (`-p tests.workers` in pytest.ini), before pytest-django reads the settings, so
that the settings and every process a test starts (daphne, soak clients) see the same
environment:

- each worker gets a Redis database of its own (the channel layer, the cache with its rate
  limits, the room leases, Celery's queues): worker gw0 uses the database after REDIS_URL's,
  gw1 the next, and so on. It is emptied when the worker starts, so no run sees another's keys;
- the test database is one per worker already (pytest-django suffixes its name with the
  worker id; SQLite's is named per process in config/settings.py);
- ports are never fixed: every server a test starts binds port 0 first.
"""

import contextlib
import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default `databases`


def worker_number() -> int | None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ...; unset without -n
    return int(worker[2:]) if worker.startswith("gw") else None


def worker_redis_url(url: str, number: int) -> str:
    """The same server, the worker's own database: redis://h:p/0 -> redis://h:p/(1 + number)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = (base + 1 + number) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


def _isolate() -> None:
    number = worker_number()
    url = os.environ.get("REDIS_URL")
    if number is None or not url:
        return
    os.environ["REDIS_URL"] = worker_redis_url(url, number)
    import redis

    with contextlib.suppress(redis.RedisError):  # no server: the tests needing one say so
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=2).flushdb()


_isolate()

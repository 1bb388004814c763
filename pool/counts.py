"""How many wait and race in public races now: written by each level's tick, read by the home
page in one cache read (never a query per page view). Cache only, so any page may show it."""

from django.core.cache import cache

from rooms.actions import LEVELS

KEY = "pool:count:{}"


def write(level: str, waiting: int, racing: int) -> None:
    cache.set(KEY.format(level), (waiting, racing), 60)  # a pool nobody ticks for a minute is empty


def read() -> tuple[int, int]:
    """(waiting, racing) over every level."""
    found = cache.get_many([KEY.format(level) for level in LEVELS]).values()
    return sum(w for w, _r in found), sum(r for _w, r in found)

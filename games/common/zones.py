"""The time zones a scheduled showdown can be set in (the home page's form, the room's
schedule), from the system's tz database."""

import zoneinfo
from functools import lru_cache

# Not places: "localtime" is whatever the server's clock is set to, "Factory" is tzdata's "-00".
NOT_ZONES = {"Factory", "localtime", "posixrules"}


@lru_cache(maxsize=1)
def time_zones() -> list[str]:
    return sorted(
        name
        for name in zoneinfo.available_timezones()
        if name not in NOT_ZONES and not name.startswith(("posix/", "right/"))
    )

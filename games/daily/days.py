"""Whose "today" a daily is (docs/rules.md section 7), pure: no Django.

A player's today is their own local date, from the browser's IANA time zone. The daily of a
date opens when that date begins anywhere on Earth (UTC+14: 10:00 UTC the day before) and
stays open for ranked play until it has ended everywhere (UTC-12: 12:00 UTC the day after),
50 hours in all. At any moment two or three dates are open.
"""

import datetime as dt
import zoneinfo

EARLIEST = dt.timedelta(hours=14)  # the first zone to start a date: UTC+14 (Kiribati)
LATEST = dt.timedelta(hours=-12)  # the last zone to end one: UTC-12 (Baker Island)
NOT_ZONES = {"Factory", "localtime", "posixrules"}


class UnknownZone(ValueError):
    """The page sent a time zone the server does not know."""


def zone(name: str | None) -> zoneinfo.ZoneInfo:
    """The time zone called `name` (an IANA name), or UnknownZone."""
    name = (name or "").strip()
    if not name or len(name) > 64 or name in NOT_ZONES or name.startswith(("posix/", "right/")) or ".." in name:
        raise UnknownZone(name)
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise UnknownZone(name) from None


def local_date(now: dt.datetime, tz: dt.tzinfo) -> dt.date:
    return now.astimezone(tz).date()


def opens_at(date: dt.date) -> dt.datetime:
    """When `date` begins in UTC+14."""
    return dt.datetime.combine(date, dt.time(), dt.UTC) - EARLIEST


def closes_at(date: dt.date) -> dt.datetime:
    """When `date` has ended in UTC-12."""
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), dt.UTC) - LATEST


def is_open(date: dt.date, now: dt.datetime) -> bool:
    return opens_at(date) <= now < closes_at(date)


def open_dates(now: dt.datetime) -> list[dt.date]:
    """Every date open for ranked play at `now`, oldest first."""
    utc = now.astimezone(dt.UTC).date()
    return [d for d in (utc - dt.timedelta(days=1), utc, utc + dt.timedelta(days=1)) if is_open(d, now)]


def streaks(dates: set[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, longest) runs of consecutive dates in `dates`. The current streak ends today,
    or yesterday while today's daily is still to be played."""
    longest = run = 0
    previous = None
    for date in sorted(dates):
        run = run + 1 if previous is not None and date - previous == dt.timedelta(days=1) else 1
        longest = max(longest, run)
        previous = date
    current = 0
    day = today if today in dates else today - dt.timedelta(days=1)
    while day in dates:
        current += 1
        day -= dt.timedelta(days=1)
    return current, longest

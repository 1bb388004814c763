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


STREAK_STEP = dt.timedelta(hours=20)  # the least real time between two days' steps of a streak


def streaks(dates: set[dt.date] | dict[dt.date, dt.datetime | None], today: dt.date) -> tuple[int, int]:
    """(current, longest) runs of consecutive dates in `dates`. The current streak ends today,
    or yesterday while today's daily is still to be played. Given each date's finish time
    (a dict), a streak advances at most once per STREAK_STEP of real time: two dates' dailies
    finished hours apart (a time zone switched to reach the next date early) count as one
    step; the date still keeps the streak alive."""
    finished = dates if isinstance(dates, dict) else dict.fromkeys(dates)
    run_at: dict[dt.date, int] = {}
    run, previous, counted_at = 0, None, None
    for date in sorted(finished):
        at = finished[date]
        if previous is not None and date - previous == dt.timedelta(days=1):
            if at is None or counted_at is None or at - counted_at >= STREAK_STEP:
                run, counted_at = run + 1, at
        else:
            run, counted_at = 1, at
        run_at[date] = run
        previous = date
    day = today if today in finished else today - dt.timedelta(days=1)
    return run_at.get(day, 0), max(run_at.values(), default=0)

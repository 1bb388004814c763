"""The daily's day window (docs/rules.md section 7): a date opens when it begins in UTC+14 and
closes when it has ended in UTC-12, 50 hours; the streak over the player's dates."""

import datetime as dt

import pytest

from games.daily import days

D = dt.date(2026, 12, 3)


def utc(*args):
    return dt.datetime(*args, tzinfo=dt.UTC)


def test_a_date_is_open_fifty_hours_from_kiribati_to_baker_island():
    assert days.opens_at(D) == utc(2026, 12, 2, 10, 0)
    assert days.closes_at(D) == utc(2026, 12, 4, 12, 0)
    assert days.closes_at(D) - days.opens_at(D) == dt.timedelta(hours=50)
    assert not days.is_open(D, utc(2026, 12, 2, 9, 59, 59))
    assert days.is_open(D, utc(2026, 12, 2, 10, 0))
    assert days.is_open(D, utc(2026, 12, 4, 11, 59, 59))
    assert not days.is_open(D, utc(2026, 12, 4, 12, 0))


def test_every_real_zones_today_is_open():
    now = utc(2026, 12, 3, 11, 0)
    assert days.open_dates(now) == [dt.date(2026, 12, 2), dt.date(2026, 12, 3), dt.date(2026, 12, 4)]
    assert days.local_date(now, days.zone("Etc/GMT+12")) == dt.date(2026, 12, 2)  # UTC-12: still the 2nd
    for name in ("Pacific/Kiritimati", "Pacific/Pago_Pago", "Etc/GMT+12", "Europe/Amsterdam", "Asia/Tokyo"):
        assert days.local_date(now, days.zone(name)) in days.open_dates(now)
    assert days.local_date(now, days.zone("Pacific/Kiritimati")) == dt.date(2026, 12, 4)
    assert days.open_dates(utc(2026, 12, 3, 12, 30)) == [dt.date(2026, 12, 3), dt.date(2026, 12, 4)]


@pytest.mark.parametrize("name", ["", "Mars/Olympus", "../etc/passwd", "localtime", "posix/UTC", "x" * 80, None])
def test_a_zone_the_server_does_not_know(name):
    with pytest.raises(days.UnknownZone):
        days.zone(name)


def test_streaks():
    d = lambda n: D - dt.timedelta(days=n)  # noqa: E731
    assert days.streaks(set(), D) == (0, 0)
    assert days.streaks({d(0)}, D) == (1, 1)
    assert days.streaks({d(1), d(2)}, D) == (2, 2)  # today still to play: the streak lives
    assert days.streaks({d(2), d(3)}, D) == (0, 2)  # a day missed
    assert days.streaks({d(0), d(1), d(5), d(6), d(7)}, D) == (2, 3)


def test_a_streak_advances_at_most_once_per_20_hours_of_real_time():
    """Issue 45 item 9: a browser's time zone switched to reach tomorrow's daily at once gave
    a two-day streak within one real day."""
    noon = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
    d = lambda n: D - dt.timedelta(days=n)  # noqa: E731
    # Yesterday's and today's dailies finished two hours apart: one step, the streak alive.
    assert days.streaks({d(1): noon, d(0): noon + dt.timedelta(hours=2)}, D) == (1, 1)
    # A day apart, as a person plays: two steps.
    assert days.streaks({d(1): noon, d(0): noon + dt.timedelta(hours=21)}, D) == (2, 2)
    # Three dates in 22 hours: the third is 22 h after the first counted step, so two steps.
    times = {d(2): noon, d(1): noon + dt.timedelta(hours=1), d(0): noon + dt.timedelta(hours=22)}
    assert days.streaks(times, D) == (2, 2)

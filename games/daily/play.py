"""Playing the dailies (docs/rules.md section 7): which date is the player's today, starting or
continuing the one ranked run per player (or account) per daily, practice runs of past
dailies, each daily's state for the player, the streak and the share line.

A daily run is a Solo Run (games/sudoku/solo.py plays it: the same page and write path) with a
`daily` link; a ranked one also has `closes_at` (moves after it are refused: a DNF) and a
move log with server times (fair play, review.py).
"""

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from games.common.times import format_seconds
from games.engines.errors import Illegal, Malformed
from games.models import Level, SoloRun
from games.sudoku import solo
from players.identity import record_filter

from . import days
from .models import Daily

LEVEL_ORDER = {level: n for n, level in enumerate(Level.values)}


class DailyRefused(Illegal):
    """A daily start the rules refuse (not open, not today for the player, unknown); str() says why."""


class DailyMalformed(Malformed):
    """A start whose fields cannot be read (zone, date, level)."""


def parse_date(text: str | None) -> dt.date:
    try:
        return dt.date.fromisoformat((text or "").strip())
    except ValueError:
        raise DailyMalformed(gettext("That is not a date (YYYY-MM-DD).")) from None


def parse_level(text: str | None) -> str:
    if text not in Level.values:
        raise DailyMalformed(gettext("Pick Easy, Medium, Hard or Expert."))
    return str(text)


def parse_zone(name: str | None):
    """The zone the page sent; none (no script ran) is UTC, the zone the page was shown in."""
    if not name:
        return dt.UTC
    try:
        return days.zone(name)
    except days.UnknownZone:
        raise DailyMalformed(
            gettext("The time zone %(zone)s is not one we know: reload the page, or set your device's time zone.")
            % {"zone": (name or "")[:64] or "?"}
        ) from None


def today(tz, now: dt.datetime | None = None) -> dt.date:
    return days.local_date(now or timezone.now(), tz)


def dailies_of(date: dt.date) -> list[Daily]:
    return sorted(Daily.objects.filter(date=date).select_related("puzzle"), key=lambda d: LEVEL_ORDER[d.level])


def ranked_run(player, daily_id: int) -> SoloRun | None:
    """The player's (or their account's) ranked run of the daily, if any."""
    if player is None or player.pk in (None, 0):
        return None
    return (
        SoloRun.objects.filter(record_filter(player), daily_id=daily_id, practice=False).order_by("started_at").first()
    )


def start_ranked(player, date: dt.date, level: str, tz, now: dt.datetime | None = None) -> tuple[SoloRun, bool]:
    """The player's ranked run of the daily of `date` and `level`: (run, started). An existing
    run (a reload, a second tab, another signed-in device) is continued: it moves to this
    browser's profile, so it is played here from now on."""
    now = now or timezone.now()
    local = today(tz, now)
    if date > local:
        raise DailyRefused(gettext("The daily of %(date)s has not begun for you yet.") % {"date": _day(date)})
    if date < local or not days.is_open(date, now):
        raise DailyRefused(
            gettext("The daily of %(date)s is over for you: play it as practice from the archive.")
            % {"date": _day(date)}
        )
    daily = Daily.objects.filter(date=date, level=level).select_related("puzzle").first()
    if daily is None:
        raise DailyRefused(gettext("There is no daily of that date and level yet: try again in a minute."))
    with transaction.atomic():
        if player.account_id is not None:  # one ranked run per account: its starts one at a time
            get_user_model().objects.select_for_update().filter(pk=player.account_id).first()
        existing = ranked_run(player, daily.pk)
        if existing is None:
            try:
                with transaction.atomic():
                    run = solo.new_run(player, daily.puzzle, daily=daily, closes_at=days.closes_at(date))
                return run, True
            except IntegrityError:  # two tabs of this browser at once: the other one started it
                existing = ranked_run(player, daily.pk)
                if existing is None:
                    raise
    return take_over(existing, player), False


def take_over(run: SoloRun, player) -> SoloRun:
    """Continue an account's run in this browser: it moves to this browser's profile (another
    device of the same account played it so far). The revision moves on, so a copy the other
    device's process kept is never written back."""
    if run.player_id != player.pk and run.state != SoloRun.State.FINISHED:
        SoloRun.objects.filter(pk=run.pk, player_id=run.player_id).update(player=player, revision=F("revision") + 1)
        run.refresh_from_db()
    return run


def joined_account(profile, now: dt.datetime | None = None) -> int:
    """`profile` was just linked to an account: its ranked daily runs of dailies that have
    closed, or of dailies the account already had a ranked run of, stay off the board
    ("unlisted"). Returns how many."""
    now = now or timezone.now()
    runs = SoloRun.objects.filter(player=profile, daily__isnull=False, practice=False, review=SoloRun.Review.NONE)
    late = runs.filter(closes_at__lte=now).update(review=SoloRun.Review.UNLISTED, review_reason="late")
    others = SoloRun.objects.filter(player__account_id=profile.account_id, daily__isnull=False, practice=False).exclude(
        player=profile
    )
    twice = runs.filter(daily__in=others.values("daily_id")).update(
        review=SoloRun.Review.UNLISTED, review_reason="twice"
    )
    return late + twice


def start_practice(player, date: dt.date, level: str, now: dt.datetime | None = None) -> SoloRun:
    """An unranked run of a past daily (the archive): it never counts on a board or a streak."""
    now = now or timezone.now()
    daily = Daily.objects.filter(date=date, level=level).select_related("puzzle").first()
    if daily is None or days.opens_at(date) > now:
        raise DailyRefused(gettext("There is no daily of that date and level to practise."))
    if days.is_open(date, now) and ranked_run(player, daily.pk) is None:
        raise DailyRefused(gettext("This daily is still open: play it ranked from the daily page first."))
    return solo.new_run(player, daily.puzzle, daily=daily, practice=True)


def _day(date: dt.date) -> str:
    return date_format(date, "j F Y")


# --- what the pages show ---------------------------------------------------------------------


@dataclass(frozen=True)
class DailyState:
    daily: Daily
    run: SoloRun | None  # the ranked run (this player's or their account's)
    share: str = ""  # the share line, after a finish

    @property
    def state(self) -> str:
        if self.run is None:
            return "new"
        if self.run.state == SoloRun.State.FINISHED:
            return "finished"
        if self.run.closes_at is not None and timezone.now() >= self.run.closes_at:
            return "dnf"
        return "playing"


def states(player, dailies: list[Daily]) -> list[DailyState]:
    runs = {}
    if player is not None and player.pk not in (None, 0) and dailies:
        for run in SoloRun.objects.filter(record_filter(player), daily__in=dailies, practice=False):
            runs[run.daily_id] = run
    return [DailyState(daily, runs.get(daily.pk)) for daily in dailies]


def finished_dates(player) -> set[dt.date]:
    """The dates with a ranked daily finished (not voided): the streak's days."""
    if player is None or player.pk in (None, 0):
        return set()
    return set(
        SoloRun.objects.filter(record_filter(player), daily__isnull=False, practice=False, state=SoloRun.State.FINISHED)
        .exclude(review=SoloRun.Review.VOIDED)
        .values_list("daily__date", flat=True)
    )


def finish_times(player) -> dict[dt.date, dt.datetime | None]:
    """Each streak day (finished_dates) with its first finish's real time."""
    if player is None or player.pk in (None, 0):
        return {}
    found: dict[dt.date, dt.datetime | None] = {}
    rows = (
        SoloRun.objects.filter(record_filter(player), daily__isnull=False, practice=False, state=SoloRun.State.FINISHED)
        .exclude(review=SoloRun.Review.VOIDED)
        .values_list("daily__date", "finished_at")
    )
    for date, at in rows:
        known = found.get(date)
        if date not in found or (at is not None and (known is None or at < known)):
            found[date] = at
    return found


def streak(player, local_today: dt.date) -> tuple[int, int]:
    return days.streaks(finish_times(player), local_today)


def share_line(run: SoloRun, current_streak: int) -> str:
    """Spoiler-free: date, level, time, Classic or Assisted, mistakes, streak."""
    daily = run.daily
    if daily is None or run.elapsed is None:
        return ""
    kind = gettext("Assisted") if run.assisted else gettext("Classic")
    return ngettext(
        "Sudoku Showdown daily %(date)s · %(level)s · %(time)s %(kind)s · %(mistakes)s mistake · streak %(streak)s",
        "Sudoku Showdown daily %(date)s · %(level)s · %(time)s %(kind)s · %(mistakes)s mistakes · streak %(streak)s",
        run.mistakes,
    ) % {
        "date": daily.date.isoformat(),
        "level": daily.get_level_display(),
        "time": format_seconds(run.elapsed),
        "kind": kind,
        "mistakes": run.mistakes,
        "streak": current_streak,
    }


# --- the archive -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchiveDay:
    date: dt.date
    in_month: bool
    entries: list  # (Daily, mark) in level order; mark: "day" finished on the day, "later", "open", ""


def archive_month(
    player, month: dt.date, local_today: dt.date, now: dt.datetime | None = None
) -> list[list[ArchiveDay]]:
    """The month's calendar (weeks from Monday) with each daily's mark for the player: finished
    on its day (the ranked run), finished later (practice only), open (still playable ranked),
    or not played. Two queries: the month's dailies, the player's finished runs of them."""
    now = now or timezone.now()
    first = month.replace(day=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    start = first - dt.timedelta(days=first.weekday())
    end = following + dt.timedelta(days=(7 - following.weekday()) % 7)
    dailies = [
        d
        for d in Daily.objects.filter(date__gte=first, date__lt=following, date__lte=local_today)
        if d.date <= local_today
    ]
    marks: dict[int, str] = {}
    if player is not None and player.pk not in (None, 0) and dailies:
        finished = (
            SoloRun.objects.filter(record_filter(player), daily__in=dailies, state=SoloRun.State.FINISHED)
            .exclude(review=SoloRun.Review.VOIDED)
            .values_list("daily_id", "practice")
        )
        for daily_id, practice in finished:
            if not practice:
                marks[daily_id] = "day"
            else:
                marks.setdefault(daily_id, "later")
    by_date: dict[dt.date, list] = {}
    for daily in sorted(dailies, key=lambda d: LEVEL_ORDER[d.level]):
        mark = marks.get(daily.pk) or ("open" if days.is_open(daily.date, now) else "")
        by_date.setdefault(daily.date, []).append((daily, mark))
    weeks, week = [], []
    day = start
    while day < end:
        week.append(ArchiveDay(day, first <= day < following, by_date.get(day, [])))
        if len(week) == 7:
            weeks.append(week)
            week = []
        day += dt.timedelta(days=1)
    return weeks


def runs_hidden(viewer, daily: Daily | None, now: dt.datetime | None = None) -> bool:
    """A daily's runs (their replays and ghosts, docs/rules.md 10) stay hidden from `viewer`
    until the viewer finished that daily, or the daily closed everywhere: a replay shows
    the solution."""
    if daily is None or days.closes_at(daily.date) <= (now or timezone.now()):
        return False
    if viewer is None or viewer.pk is None:
        return True
    return not SoloRun.objects.filter(record_filter(viewer), daily=daily, state=SoloRun.State.FINISHED).exists()

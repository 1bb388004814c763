"""A player's daily statistics per level (issue 43): ranked dailies played and finished, the
current and best streak of that level, and how the finish times spread (a small bar chart).
`level_stats` is pure, over plain rows; `player_stats` reads them in one query."""

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext

from games.models import Level, SoloRun
from players.identity import record_filter

from . import days

# The times' bars, in whole minutes: [lower, upper) with None open-ended. The same for every
# level, so two levels' charts compare at a glance.
BUCKETS = ((0, 3), (3, 5), (5, 8), (8, 12), (12, 20), (20, None))


@dataclass(frozen=True)
class Row:
    """One ranked daily run: its level and date, finished or not, the time and the moment."""

    level: str
    date: dt.date
    finished: bool
    seconds: float | None = None
    finished_at: dt.datetime | None = None


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    percent: int  # of the level's tallest bar, for the bar's length


@dataclass(frozen=True)
class LevelStats:
    level: str
    label: str
    played: int
    finished: int
    streak: int
    best_streak: int
    bars: tuple[Bar, ...]


def bucket_label(lower: int, upper: int | None) -> str:
    if upper is None:
        return gettext("%(n)s+ min") % {"n": lower}
    return gettext("%(lower)s-%(upper)s min") % {"lower": lower, "upper": upper}


def bars(seconds: list[float]) -> tuple[Bar, ...]:
    """The finish times counted into BUCKETS; each bar's length relative to the tallest."""
    counts = [
        sum(1 for s in seconds if lower * 60 <= s and (upper is None or s < upper * 60)) for lower, upper in BUCKETS
    ]
    tallest = max(counts, default=0) or 1
    return tuple(
        Bar(bucket_label(lower, upper), count, round(100 * count / tallest))
        for (lower, upper), count in zip(BUCKETS, counts, strict=True)
    )


def level_stats(rows: list[Row], today: dt.date) -> list[LevelStats]:
    """Every level's numbers, in level order (a level never played has zeros)."""
    out = []
    for level, label in Level.choices:
        mine = [row for row in rows if row.level == level]
        done = [row for row in mine if row.finished]
        firsts: dict[dt.date, dt.datetime | None] = {}
        for row in done:  # each date's first finish, as the overall streak counts it (days.streaks)
            known = firsts.get(row.date)
            if row.date not in firsts or (row.finished_at and (known is None or row.finished_at < known)):
                firsts[row.date] = row.finished_at
        current, best = days.streaks(firsts, today)
        times = [row.seconds for row in done if row.seconds is not None]
        out.append(LevelStats(level, str(label), len(mine), len(done), current, best, bars(times)))
    return out


def player_stats(player, today: dt.date) -> list[LevelStats]:
    """`level_stats` of the player's ranked daily runs (their account's, when signed in);
    voided runs do not count."""
    if player is None or player.pk in (None, 0):
        return level_stats([], today)
    runs = (
        SoloRun.objects.filter(record_filter(player), daily__isnull=False, practice=False)
        .exclude(review=SoloRun.Review.VOIDED)
        .values_list("daily__level", "daily__date", "state", "elapsed", "finished_at")
    )
    rows = [
        Row(level, date, state == SoloRun.State.FINISHED, elapsed, finished_at)
        for level, date, state, elapsed, finished_at in runs
    ]
    return level_stats(rows, today)

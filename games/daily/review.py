"""Fair play for ranked daily runs (docs/rules.md section 7, issue 23): a finish whose moves no
person could make is held back from the board as "under review" until an admin clears or
voids it (the admin's review list, games/daily/admin.py).

A ranked daily run logs each move with the server's time (SoloRun.log, written by the Solo
Run write path: [ms since the start, kind, cell, digit]). A finish is held when

- DAILY_FAST_ENTRIES (20) or more consecutive entries came with a median gap under
  DAILY_FAST_GAP_MS (150 ms): faster than a person types, whatever the page does; or
- its time is under DAILY_MEDIAN_FRACTION (one third) of the daily's median finish time,
  once DAILY_MEDIAN_MIN_FINISHES (20) players have finished that daily.

The reason is kept as a code with its figures (`review_reason`), said in the reader's
language by `reason_text`.
"""

import itertools
import statistics

from django.conf import settings
from django.db.models import F
from django.utils.translation import gettext

from games.models import SoloRun

ENTRY_KINDS = ("e",)  # digits entered (right or wrong): what a typist's speed limits


def fast_entries(log: list, count: int, gap_ms: float) -> tuple[int, float] | None:
    """The first window of `count` consecutive entries whose gaps have a median under `gap_ms`:
    (entries, median gap in ms), or None."""
    times = [entry[0] for entry in log if entry[1] in ENTRY_KINDS]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    window = count - 1  # gaps between `count` entries
    for start in range(len(gaps) - window + 1):
        median = statistics.median(gaps[start : start + window])
        if median < gap_ms:
            return count, median
    return None


def daily_median(run: SoloRun) -> tuple[int, float] | None:
    """(finishers, median time) of the other ranked finishes of the run's daily by signed-in
    players, held by nobody: throwaway cookies finishing slowly cannot move it (20 of them
    made an honest finish look too fast, issue 45 item 3)."""
    finished = (
        SoloRun.objects.filter(
            daily=run.daily_id,
            practice=False,
            state=SoloRun.State.FINISHED,
            elapsed__isnull=False,
            player__account__isnull=False,
            review__in=(SoloRun.Review.NONE, SoloRun.Review.CLEARED),
        )
        .exclude(pk=run.pk)
        .values_list("elapsed", flat=True)
    )
    times = [float(t) for t in finished if t is not None]
    if len(times) < settings.DAILY_MEDIAN_MIN_FINISHES:
        return None
    return len(times), statistics.median(times)


def run_gap(log: list) -> float | None:
    """The median gap in ms between the run's entries, over the whole run."""
    times = [entry[0] for entry in log if entry[1] in ENTRY_KINDS]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    return statistics.median(gaps) if len(gaps) >= 10 else None


def floor_seconds(run: SoloRun) -> float:
    """The least time a person needs for the run's puzzle: its empty cells x the level's floor."""
    per_cell = settings.DAILY_FLOOR_SECONDS_PER_CELL.get(run.level, 0.0)
    return per_cell * run.puzzle.givens.count("0")


# How sure each reason is, surest first: the review list shows the surest holds on top.
CERTAINTY = {"fast": 0, "floor": 1, "pace": 2, "median": 3}


def judge(run: SoloRun) -> str:
    """Hold the just finished ranked daily `run` if its moves say so; returns the reason code
    written ("" when it stays on the board)."""
    reason = ""
    fast = fast_entries(run.log or [], settings.DAILY_FAST_ENTRIES, settings.DAILY_FAST_GAP_MS)
    gap = run_gap(run.log or [])
    if fast is not None:
        reason = f"fast:{fast[0]}:{round(fast[1])}"
    elif run.elapsed is not None and run.elapsed < floor_seconds(run):
        reason = f"floor:{round(run.elapsed, 1)}:{round(floor_seconds(run))}"
    elif gap is not None and gap < settings.DAILY_RUN_GAP_MS:
        reason = f"pace:{round(gap)}"
    elif run.elapsed is not None:
        field = daily_median(run)
        if field is not None and run.elapsed < field[1] * settings.DAILY_MEDIAN_FRACTION:
            reason = f"median:{field[0]}:{round(field[1], 1)}"
    if reason:
        SoloRun.objects.filter(pk=run.pk, review=SoloRun.Review.NONE).update(
            review=SoloRun.Review.HELD, review_reason=reason, revision=F("revision") + 1
        )
        run.review, run.review_reason = SoloRun.Review.HELD, reason
        run.revision += 1
    return reason


def reason_text(code: str) -> str:
    """The held run's reason, for its player and the admin."""
    from games.common.times import format_seconds

    kind, _, figures = (code or "").partition(":")
    parts = figures.split(":")
    try:
        if kind == "fast":
            return gettext(
                "%(n)s entries in a row came with a median gap of %(gap)s ms: faster than a person types."
            ) % {"n": parts[0], "gap": parts[1]}
        if kind == "floor":
            return gettext("Solved in %(time)s: faster than a person can solve this level (at least %(floor)s).") % {
                "time": format_seconds(float(parts[0])),
                "floor": format_seconds(float(parts[1])),
            }
        if kind == "pace":
            return gettext(
                "Over the whole run, entries came %(gap)s ms apart (median): nobody solves without stopping to think."
            ) % {"gap": parts[0]}
        if kind == "median":
            return gettext(
                "The time is under a third of the median of the %(n)s players who finished this daily (%(median)s)."
            ) % {"n": parts[0], "median": format_seconds(float(parts[1]))}
    except (IndexError, ValueError):
        pass
    if kind == "late":
        return gettext("The account was signed in to after this daily closed.")
    if kind == "twice":
        return gettext("The account already had a ranked run of this daily.")
    return code

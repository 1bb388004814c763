"""The job that keeps the dailies chosen (docs/rules.md section 7): every open date and the next
DAILY_DAYS_AHEAD days get one daily per level, each a freshly generated puzzle, graded again
here (the grader's level must be the daily's), marked in the bank so nothing else gets it.

Idempotent: a date and level that has its daily is left alone, and the unique (date, level)
constraint refuses a second one written at the same moment by another worker (its puzzle
goes with the refused transaction). Celery beat runs it (config/settings.py), and so does
`manage.py run_jobs` in the embedded default; never a request.
"""

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.bank import generate_into_bank
from games.engines import sudoku
from games.models import Level

from . import days
from .models import Daily

logger = logging.getLogger(__name__)

GRADE_ATTEMPTS = 5  # generations per daily before giving up until the next run


def wanted_dates(now: dt.datetime, ahead: int | None = None) -> list[dt.date]:
    """The dates that should have their dailies at `now`: the open ones and the next `ahead` days."""
    ahead = settings.DAILY_DAYS_AHEAD if ahead is None else ahead
    first = days.open_dates(now)[0]
    last = now.astimezone(dt.UTC).date() + dt.timedelta(days=ahead)
    return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]


def choose_dailies(now: dt.datetime | None = None, ahead: int | None = None) -> int:
    """Choose every missing daily of the wanted dates; returns how many were chosen."""
    now = now or timezone.now()
    dates = wanted_dates(now, ahead)
    have = set(Daily.objects.filter(date__in=dates).values_list("date", "level"))
    chosen = 0
    for date in dates:
        for level in Level.values:
            if (date, level) not in have and _choose(date, level):
                chosen += 1
    return chosen


def _choose(date: dt.date, level: str) -> bool:
    for _attempt in range(GRADE_ATTEMPTS):
        try:
            with transaction.atomic():
                puzzle = generate_into_bank(level, for_daily=True)
                if sudoku.grade(sudoku.parse(puzzle.givens)).level != sudoku.Level.coerce(level):
                    raise _Misgraded
                Daily.objects.create(date=date, level=level, puzzle=puzzle)
            return True
        except _Misgraded:
            logger.warning("a generated %s puzzle graded otherwise; generating another for %s", level, date)
        except IntegrityError:  # another run chose it meanwhile: its puzzle stays, ours is rolled back
            return False
    logger.error("no %s puzzle graded %s in %s attempts for the daily of %s", level, level, GRADE_ATTEMPTS, date)
    return False


class _Misgraded(Exception):
    pass

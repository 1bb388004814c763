import datetime as dt

import pytest

from tests.conftest import PUZZLE, SOLUTION


@pytest.fixture
def dailies(db):
    """Today's (UTC) and yesterday's dailies, every level on the known test puzzle."""
    from django.utils import timezone

    from games.daily.models import Daily
    from games.models import Puzzle

    today = timezone.now().date()
    made = {}
    for date in (today - dt.timedelta(days=1), today):
        for level in ("easy", "medium", "hard", "expert"):
            puzzle = Puzzle.objects.create(
                level=level, givens=PUZZLE, solution=SOLUTION, clues=30, seed=1, for_daily=True, used_at=timezone.now()
            )
            made[(date, level)] = Daily.objects.create(date=date, level=level, puzzle=puzzle)
    return made


@pytest.fixture(autouse=True)
def _fresh_boards():
    from django.core.cache import cache

    from games.common import rowwriter
    from games.daily import boards

    cache.clear()
    boards._dailies.clear()
    rowwriter.forget()
    yield

"""The arenas' fixtures: arenas made to order (make_arena, as allauth's tests make users with
user_factory)."""

import datetime as dt

import pytest

from tests.conftest import PUZZLE, SOLUTION


@pytest.fixture
def make_arena(db):
    """make_arena(puzzles): an easy arena running since a minute, 30 minutes long, with that many
    bank puzzles for its rooms (each room takes one)."""
    from django.utils import timezone

    from arenas.models import Arena
    from games.models import Puzzle

    def make(puzzles: int):
        now = timezone.now()
        for _ in range(puzzles):
            Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
        return Arena.objects.create(
            level="easy", starts_at=now - dt.timedelta(minutes=1), minutes=30, ends_at=now + dt.timedelta(minutes=29)
        )

    return make

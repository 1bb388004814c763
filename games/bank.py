"""The puzzle bank: ready puzzles per level, so requests never wait for the generator."""

import secrets

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import Level, Puzzle


def generate_into_bank(level: str, seed: int | None = None) -> Puzzle:
    from games.engines import sudoku  # the generator is only needed when the bank runs dry

    seed = secrets.randbits(62) if seed is None else seed
    made = sudoku.generate(level, seed)
    return Puzzle.objects.create(
        level=level,
        givens=sudoku.format_grid(made.puzzle, empty="0"),
        solution=sudoku.format_grid(made.solution, empty="0"),
        clues=made.clues,
        techniques=list(made.grade.techniques),
        seed=seed,
    )


def take_puzzle(level: str) -> Puzzle:
    """Claim an unused puzzle (skip rows another request is claiming); generate inline
    only when the bank is empty."""
    with transaction.atomic():
        puzzle = (
            Puzzle.objects.select_for_update(skip_locked=True)
            .filter(level=level, used_at__isnull=True)
            .order_by("id")
            .first()
        )
        if puzzle is not None:
            puzzle.used_at = timezone.now()
            puzzle.save(update_fields=["used_at"])
            return puzzle
    puzzle = generate_into_bank(level)
    Puzzle.objects.filter(pk=puzzle.pk).update(used_at=timezone.now())
    return puzzle


def fill_bank(target: int | None = None, levels=None) -> dict[str, int]:
    """Top up every level to `target` unused puzzles; returns how many were made."""
    target = settings.PUZZLE_BANK_TARGET if target is None else target
    made = {}
    for level in levels or Level.values:
        ready = Puzzle.objects.filter(level=level, used_at__isnull=True).count()
        for _ in range(max(0, target - ready)):
            generate_into_bank(level)
        made[level] = max(0, target - ready)
    return made

"""The puzzle bank: ready puzzles per level, so requests never wait for the generator.

A request never generates a puzzle when a worker can (issue 12, section 6: 150 Expert
runs from one client emptied the bank and made every later request generate inline).
When a level runs low or empty, a top-up task is queued (at most one per level at a
time); a request that finds the level empty waits up to BANK_WAIT seconds for it, then
gets `BankEmpty` ("busy, try again": a 503 on pages, a refusal over the socket). At most
BANK_WAITERS requests per process wait at once (each holds a worker thread); the rest
get the answer at once. Only in the embedded no-broker mode (no REDIS_URL, so
CELERY_TASK_ALWAYS_EAGER: no worker to ask) is a puzzle still generated inline.
"""

import logging
import secrets
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.engines.errors import Refusal
from games.engines.text import _

from .models import Level, Puzzle

logger = logging.getLogger(__name__)

BANK_WAIT = 2.0  # seconds a request waits for a top-up of an empty level
POLL = 0.2
BANK_WAITERS = threading.BoundedSemaphore(2)
TOP_UP_GUARD = 30  # seconds: one queued top-up per level at a time
BUSY = _("Puzzles for that level are being prepared: please try again in a few seconds.")


class BankEmpty(Refusal):
    """No puzzle of that level is ready and none came within the wait; str() says so."""

    def __init__(self, message: str = BUSY):
        super().__init__(message)


def generate_into_bank(level: str, seed: int | None = None, for_daily: bool = False) -> Puzzle:
    """A freshly generated puzzle of `level` in the bank; `for_daily`: a daily's, marked and
    used at once, so the bank never gives it out (games/daily/schedule.py)."""
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
        for_daily=for_daily,
        used_at=timezone.now() if for_daily else None,
    )


def inline_allowed() -> bool:
    """True where no worker can top the bank up: the embedded no-broker mode."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER or settings.PUZZLE_BANK_INLINE)


def _claim(level: str) -> Puzzle | None:
    """Claim an unused puzzle (skip rows another request is claiming)."""
    with transaction.atomic():
        puzzle = (
            Puzzle.objects.select_for_update(skip_locked=True)
            .filter(level=level, used_at__isnull=True, for_daily=False)
            .order_by("id")
            .first()
        )
        if puzzle is not None:
            puzzle.used_at = timezone.now()
            puzzle.save(update_fields=["used_at"])
    return puzzle


def request_top_up(level: str) -> bool:
    """Queue a top-up of `level` for a worker, unless one was queued in the last
    TOP_UP_GUARD seconds. False when nothing was queued (guarded, or the broker is away)."""
    if inline_allowed() or not cache.add(f"bank-top-up-{level}", 1, TOP_UP_GUARD):
        return False
    from .tasks import fill_puzzle_bank

    try:
        fill_puzzle_bank.delay(levels=[level])
    except Exception:  # a broker outage must not turn into a 500; beat retries
        cache.delete(f"bank-top-up-{level}")
        logger.warning("could not queue a puzzle bank top-up for %s", level, exc_info=True)
        return False
    return True


def take_puzzle(level: str, wait: float = BANK_WAIT) -> Puzzle:
    """An unused puzzle of `level`, or BankEmpty after waiting at most `wait` seconds (see
    the module). Room starts pass 0: they run on the socket consumers' one shared sync
    thread, where a wait would stall every socket of the process."""
    puzzle = _claim(level)
    if puzzle is not None:
        low = max(1, settings.PUZZLE_BANK_TARGET // 2)
        if (
            not inline_allowed()
            and Puzzle.objects.filter(level=level, used_at__isnull=True, for_daily=False)[:low].count() < low
        ):
            request_top_up(level)  # running low: top up before anyone finds it empty
        return puzzle
    if inline_allowed():
        puzzle = generate_into_bank(level)
        Puzzle.objects.filter(pk=puzzle.pk).update(used_at=timezone.now())
        return puzzle
    request_top_up(level)
    if wait <= 0 or not BANK_WAITERS.acquire(blocking=False):
        raise BankEmpty()
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            time.sleep(POLL)
            puzzle = _claim(level)
            if puzzle is not None:
                return puzzle
    finally:
        BANK_WAITERS.release()
    raise BankEmpty()


def fill_bank(target: int | None = None, levels=None) -> dict[str, int]:
    """Top up every level to `target` unused puzzles; returns how many were made."""
    target = settings.PUZZLE_BANK_TARGET if target is None else target
    made = {}
    for level in levels or Level.values:
        ready = Puzzle.objects.filter(level=level, used_at__isnull=True, for_daily=False).count()
        for _n in range(max(0, target - ready)):
            generate_into_bank(level)
        made[level] = max(0, target - ready)
    return made

"""The pool's periodic tick (Celery beat, or `run_jobs` in the embedded default): pairs every
level somebody waits at even when no waiting page polls, and keeps the home page's counts
fresh while public races run. The waiting pages' polls and the asks tick too; the per-level
turn keeps it to one pairing a second, whoever calls."""

from celery import shared_task

from . import service
from .models import PoolEntry


@shared_task
def tick_pools() -> int:
    """Tick every level; returns how many public rooms were formed."""
    waiting = set(PoolEntry.objects.filter(state=PoolEntry.State.WAITING).values_list("level", flat=True))
    formed = 0
    for level in service.LEVELS:
        if level in waiting:
            formed += len(service.tick(level))
        else:
            service.refresh_count(level)  # nobody waits: only the racing count can change
    return formed

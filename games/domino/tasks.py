from celery import shared_task

from . import solo


@shared_task
def sweep_overdue_domino_games() -> int:
    """End every game whose 10 minutes are up. Idempotent: `settle` locks each row and
    only finishes games still playing, so a redelivered run does nothing twice."""
    return solo.settle_overdue()

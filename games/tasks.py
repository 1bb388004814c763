from celery import shared_task

from .bank import fill_bank


@shared_task
def fill_puzzle_bank() -> dict[str, int]:
    # Idempotent: it only tops up to the target, so a redelivered run does little.
    return fill_bank()

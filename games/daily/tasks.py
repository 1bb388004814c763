from celery import shared_task

from .schedule import choose_dailies


@shared_task
def choose_daily_puzzles() -> int:
    # Idempotent (games/daily/schedule.py): a redelivered or doubled run chooses nothing twice.
    return choose_dailies()

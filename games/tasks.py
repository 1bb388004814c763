from celery import shared_task
from django.core.cache import cache

from .bank import fill_bank
from .models import Level


@shared_task
def fill_puzzle_bank(levels=None) -> dict[str, int]:
    # Idempotent: it only tops up to the target, so a redelivered run does little.
    # `levels`: only those (a request found one running low; games/bank.request_top_up).
    levels = [level for level in (levels or ()) if level in Level.values] or None
    try:
        return fill_bank(levels=levels)
    finally:
        for level in levels or ():
            cache.delete(f"bank-top-up-{level}")  # the next shortage may queue again

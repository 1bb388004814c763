from celery import shared_task

from .models import Presence
from .presence import fresh_since


@shared_task
def sweep_presence() -> int:
    """Rows of pages whose process died (nobody refreshed them): gone from the table too."""
    return Presence.objects.filter(seen_at__lt=fresh_since()).delete()[0]

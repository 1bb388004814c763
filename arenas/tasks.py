import datetime as dt

from celery import shared_task
from django.utils import timezone

from . import service
from .models import Arena, ArenaRoom


def room_finished(sender, room_id, **kwargs):
    pending = ArenaRoom.objects.filter(room_id=room_id, scored=False).values_list("pk", flat=True).first()
    if pending is not None:
        score_room.delay(pending)


@shared_task
def score_room(arena_room_id: int) -> None:
    """A finished arena room's points (its players wait again: the arena's next tick, a
    waiting page's or beat's, pairs them; nothing here acts on rooms)."""
    if service.score_room(arena_room_id):
        arena = ArenaRoom.objects.select_related("arena").get(pk=arena_room_id).arena
        service.push_table(arena)


@shared_task
def tick_arenas() -> int:
    """Beat's tick of every running arena (a waiting page also ticks its own)."""
    now = timezone.now()
    formed = 0
    for arena in Arena.objects.filter(starts_at__lte=now, ends_at__gt=now - dt.timedelta(minutes=5)):
        formed += len(service.tick(arena, now))
    return formed


@shared_task
def schedule_arenas() -> int:
    return service.schedule()

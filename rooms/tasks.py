"""Room lifecycle jobs. Each one finds candidates with a cheap query and hands every room
to the one write path (`perform(..., Sync())`), which locks the row and re-checks the
room's state: running a job twice, even at once, changes each room once."""

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from . import actions as A
from .gametypes import GAME_TYPES
from .models import Room
from .services import LOBBY_IDLE, RESULTS_KEPT, SAFETY_LIMIT, SCHEDULED_GRACE, RoomError, perform


def due_rooms(now):
    timed = Q(pk__in=[])  # nothing, unless a game type has a time limit (Domino duels: 10 minutes)
    for key, game in GAME_TYPES.items():
        if game.time_limit:
            timed |= Q(game=key, state__in=[Room.State.COUNTDOWN, Room.State.PLAYING],
                       starts_at__lte=now - game.time_limit)
    return Room.objects.filter(
        timed
        | Q(state=Room.State.LOBBY, scheduled_for__isnull=True, last_activity__lt=now - LOBBY_IDLE)
        | Q(state=Room.State.LOBBY, scheduled_for__lt=now - SCHEDULED_GRACE)
        | Q(state__in=[Room.State.COUNTDOWN, Room.State.PLAYING], starts_at__lt=now - SAFETY_LIMIT)
        | Q(state=Room.State.COUNTDOWN, starts_at__lte=now)
        | Q(state=Room.State.FINISHED, finished_at__lt=now - RESULTS_KEPT)
    ).values_list("code", flat=True)


@shared_task
def sweep_rooms() -> int:
    """Expire idle lobbies and stale results, end showdowns past the safety limit and
    timed duels at their time limit."""
    now = timezone.now()
    changed = 0
    for code in list(due_rooms(now)):
        try:
            changed += perform(code, None, A.Sync(), now=now).changed
        except RoomError:
            continue
    return changed

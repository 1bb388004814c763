"""Room lifecycle jobs. Each one finds candidates with a cheap query and hands every room
to the one write path (`api.act(..., Sync())`), which locks the row and re-checks the
room's state: running a job twice, even at once, changes each room once."""

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from . import actions as A
from . import api
from .api import RoomError
from .gametypes import GAME_TYPES
from .lifecycle import RULES
from .models import Room


def _due(rule, now, after) -> Q:
    """The rooms `rule` (rooms/lifecycle.py) makes due at `now`, as a query."""
    moment = f"{rule.since}__{'lt' if rule.strict else 'lte'}"
    query = Q(state__in=rule.states, **{moment: now - after})
    return query & Q(scheduled_for__isnull=True) if rule.unscheduled else query


def due_rooms(now):
    """The codes of the rooms some lifecycle rule makes due at `now`."""
    due = Q(pk__in=[])  # nothing, until a rule adds its rooms
    for rule in RULES:
        if rule.after is not None:
            due |= _due(rule, now, rule.after)
            continue
        for key, game in GAME_TYPES.items():  # the game types' own time limits (Domino duels: 10 minutes)
            if game.time_limit is not None:
                due |= _due(rule, now, game.time_limit) & Q(game=key)
    return Room.objects.filter(due).values_list("code", flat=True)


@shared_task
def sweep_rooms() -> int:
    """Expire idle lobbies and stale results, end rooms past the safety limit and
    timed duels at their time limit."""
    now = timezone.now()
    changed = 0
    for code in list(due_rooms(now)):
        try:
            changed += api.act(code, None, A.Sync(), now=now).changed
        except RoomError:
            continue
    return changed

"""An arena's table (docs/rules.md 12): points, then fewer rooms, then less solving time; pushed
to every open arena page's own socket when it changes (friends/consumers.py renders it)."""

import logging
from dataclasses import dataclass, replace

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db.models import F

from .models import Arena, Entry

logger = logging.getLogger(__name__)
TOP = 20


def group(code: str) -> str:
    return f"arena.{code}"


ORDER = [F("points").desc(), F("rooms").asc(), F("solving_seconds").asc(), F("joined_at").asc()]


@dataclass
class Row:
    place: int
    entry: Entry
    name: str
    mine: bool


# arena pk -> ((code, table_version), the ranked rows): each process ranks an arena once per change,
# not once per open page (a push makes every page of the arena render its table at once).
_RANKED: dict[int, tuple[tuple[str, int], list[Row]]] = {}


def ranked(arena: Arena) -> list[Row]:
    """Every entry in table order with its place; equal points, rooms and time share a place."""
    cached = _RANKED.get(arena.pk)
    version = (arena.code, arena.table_version)  # the code too: a test database reuses pks
    if cached is not None and cached[0] == version:
        return cached[1]
    rows = list(Entry.objects.filter(arena=arena).select_related("player").order_by(*ORDER))
    placed, place, previous = [], 0, None
    for i, e in enumerate(rows, start=1):
        key = (e.points, e.rooms, round(e.solving_seconds, 1))
        if key != previous:
            place, previous = i, key
        placed.append(Row(place, e, e.player.display_name, False))
    if len(_RANKED) > 50:  # old arenas: drop them all, the running ones are ranked again
        _RANKED.clear()
    _RANKED[arena.pk] = (version, placed)
    return placed


def table(arena: Arena, viewer_account: int | None, top: int = TOP) -> tuple[list[Row], list[Row]]:
    """The top rows and, when the viewer is further down, their place with a neighbour each side."""
    placed = ranked(arena)
    mine = next((i for i, r in enumerate(placed) if r.entry.account_id == viewer_account), None)
    around = placed[max(top, mine - 1) : mine + 2] if mine is not None and mine >= top else []

    def shown(rows):
        return [replace(r, mine=r.entry.account_id == viewer_account) for r in rows]

    return shown(placed[:top]), shown(around)


def push_table(arena: Arena) -> None:
    """Tell every open arena page (their own sockets, friends/consumers.py) the table changed;
    each renders it for its viewer. Sent at most once per tick: a second at the least."""
    layer = get_channel_layer()
    if layer is not None:
        try:
            async_to_sync(layer.group_send)(group(arena.code), {"type": "arena.table", "code": arena.code})
        except Exception:
            logger.warning("arena push failed", exc_info=True)

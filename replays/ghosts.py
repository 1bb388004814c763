"""Ghosts for a public race nobody else came to (docs/rules.md 10): real past runs of one
puzzle, at about the waiting players' pace. A daily's puzzle is never used (its runs are
secret until it closes), nor one a waiting player has raced before."""

from __future__ import annotations

import statistics

from django.db.models import Q

from .models import Track
from .presenters import ghost_data

RECENT = 500  # tracks looked at per choice, the newest first


def choose(level: str, profiles: list, needed: int):
    """(puzzle, [ghost dicts]) of `needed` different players' finished runs of one puzzle of
    `level`, the nearest to the waiting players' usual time; (None, []) when there is none."""
    mine = Q(player__in=profiles) | Q(player__account_id__in=[p.account_id for p in profiles if p.account_id])
    played = set(Track.objects.filter(mine).values_list("puzzle_id", flat=True))
    finished = Track.objects.filter(mine, level=level, finish_ms__isnull=False)
    own_times = list(finished.order_by("-id").values_list("finish_ms", flat=True)[:50])  # the latest
    found = list(
        Track.objects.filter(
            level=level, status="finished", finish_ms__isnull=False, daily__isnull=True, puzzle__daily__isnull=True
        )
        .exclude(mine)
        .exclude(puzzle_id__in=played)
        .select_related("puzzle", "player")
        .order_by("-id")[:RECENT]
    )
    if not found:
        return None, []
    times = [ms for ms in own_times if ms is not None] or [t.finish_ms or 0 for t in found]
    target = statistics.median(times)
    by_puzzle: dict[int, dict] = {}
    for track in found:
        who = track.player.account_id or -track.player_id  # one ghost per person
        by_puzzle.setdefault(track.puzzle_id, {}).setdefault(who, track)
    best, best_cost = None, None
    for runs in by_puzzle.values():
        if len(runs) < needed:
            continue
        picked = sorted(runs.values(), key=lambda t: abs(t.finish_ms - target))[:needed]
        cost = sum(abs(t.finish_ms - target) for t in picked)
        if best_cost is None or cost < best_cost:
            best, best_cost = picked, cost
    if best is None:
        return None, []
    return best[0].puzzle, [ghost_data(t) for t in sorted(best, key=lambda t: t.finish_ms)]

"""A player's finished domino games: best score per level, recent games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Count, Max

from games.models import Level
from players.identity import record_filter

from .models import DominoGame

RECENT = 10


def player_records(player) -> dict:
    finished = DominoGame.objects.filter(record_filter(player), status=DominoGame.Status.FINISHED)
    per_level: dict[str, Mapping[str, Any]] = {
        row["level"]: row
        for row in finished.values("level").annotate(
            best=Max("score"), games=Count("id"), most_stones=Max("stones_placed")
        )
    }
    levels = []
    for value, label in Level.choices:
        row = per_level.get(value, {})
        recent = list(finished.filter(level=value).order_by("-finished_at").values_list("score", flat=True)[:RECENT])
        levels.append(
            {
                "level": value,
                "label": label,
                "games": row.get("games", 0),
                "best": row.get("best"),
                "most_stones": row.get("most_stones"),
                "recent_average": round(sum(recent) / len(recent)) if recent else None,
                "full_grids": finished.filter(level=value, end_reason=DominoGame.EndReason.FULL).count() if row else 0,
            }
        )
    return {
        "levels": levels,
        "recent": list(finished.order_by("-finished_at", "-pk")[:RECENT]),
        "total": sum(level["games"] for level in levels),
    }

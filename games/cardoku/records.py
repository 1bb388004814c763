"""A player's Cardoku records: finished games only (a game in progress never counts)."""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.ranking import places
from players.identity import record_filter

from .models import CardokuGame

TOP = 10
RECENT = 10


def finished_games(player):
    return CardokuGame.objects.filter(record_filter(player), status=CardokuGame.Status.FINISHED)


@dataclass
class CardokuRecords:
    finished: int
    best: CardokuGame | None
    recent_average: float | None
    top: list  # (place, game)
    recent: list  # games, newest first


def records_for(player) -> CardokuRecords:
    games = finished_games(player)
    top = list(games.order_by("-score", "finished_at", "pk")[:TOP])
    recent = list(games.order_by("-finished_at", "-pk")[:RECENT])
    average = sum(g.score for g in recent) / len(recent) if recent else None
    return CardokuRecords(
        finished=games.count(),
        best=top[0] if top else None,
        recent_average=average,
        top=places(top, key=lambda game: game.score),
        recent=recent,
    )


def previous_best(game: CardokuGame) -> int | None:
    """The player's best score in games finished before ``game`` (None if none)."""
    earlier = finished_games(game.player).exclude(pk=game.pk)
    if game.finished_at is not None:
        earlier = earlier.filter(finished_at__lte=game.finished_at)
    return earlier.order_by("-score").values_list("score", flat=True).first()

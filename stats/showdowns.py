"""Showdown history and totals. Custom-rule rooms stay in the history, marked, and are
left out of the totals that compare results across rooms."""

from .models import ShowdownResult


def showdown_summary(player) -> dict:
    history = list(ShowdownResult.objects.filter(player=player).order_by("-finished_at")[:50])
    compared = ShowdownResult.objects.filter(player=player).exclude(preset="custom")
    total = compared.count()
    wins = compared.filter(placement=1).count()
    podiums = compared.filter(placement__lte=3).count()
    return {"history": history, "total": total, "wins": wins, "podiums": podiums,
            "win_rate": round(100 * wins / total) if total else None}

"""Room history and totals. Custom-rule rooms stay in the history, marked, and are left
out of the totals that compare results across rooms. Each game type keeps its own totals:
Showdown races and the Sudoku Domino and Cardoku duels are never mixed into one count."""

from .models import ShowdownResult

DUELS = (("domino", "Sudoku Domino duels"), ("cardoku", "Cardoku duels"))


def _totals(results) -> dict:
    total = results.count()
    wins = results.filter(placement=1).count()
    podiums = results.filter(placement__lte=3).count()
    return {"total": total, "wins": wins, "podiums": podiums,
            "win_rate": round(100 * wins / total) if total else None}


def showdown_summary(player) -> dict:
    history = list(ShowdownResult.objects.filter(player=player).order_by("-finished_at")[:50])
    mine = ShowdownResult.objects.filter(player=player)
    summary = {"history": history, **_totals(mine.filter(game="showdown").exclude(preset="custom"))}
    summary["duels"] = [{"game": game, "label": label, **_totals(mine.filter(game=game))} for game, label in DUELS]
    return summary

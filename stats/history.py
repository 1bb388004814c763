"""Room history and totals, for every room game type alike (rooms.models.RoomResult).
Results a game type leaves out of its totals (custom-rule showdowns) stay in the history,
marked. Each game type keeps its own totals: Showdown races and the Sudoku Domino and
Cardoku duels are never mixed into one count."""

from django.utils.translation import gettext

from players.identity import record_filter
from rooms.gametypes import GAME_TYPES
from rooms.models import RoomResult


def _totals(results) -> dict:
    total = results.count()
    wins = results.filter(placement=1).count()
    podiums = results.filter(placement__lte=3).count()
    return {"total": total, "wins": wins, "podiums": podiums, "win_rate": round(100 * wins / total) if total else None}


def room_history(player) -> dict:
    """The history as (result, its game type) pairs, newest first, and each game type's totals."""
    mine = RoomResult.objects.filter(record_filter(player))
    history = [(r, GAME_TYPES[r.game]) for r in mine.order_by("-finished_at")[:50]]
    counted = mine.filter(in_totals=True)
    totals = [
        {"game": key, "label": gettext(game.totals_label), **_totals(counted.filter(game=key))}
        for key, game in GAME_TYPES.items()
    ]
    return {"history": history, "totals": totals}

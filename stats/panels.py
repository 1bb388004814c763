"""What the home page and the leaderboards show of each game, loaded by their views so
that templates and tags only present (issue 10). Overdue Domino games are settled here,
in the view's request, never during a render."""

from django.utils import timezone

from games import solo
from games.cardoku import records as cardoku_records
from games.cardoku import solo as cardoku_solo
from games.cardoku.models import CardokuGame
from games.domino import records as domino_records
from games.domino import solo as domino_solo
from games.domino.models import DominoGame
from games.domino.views import LEVELS as DOMINO_LEVELS
from games.domino.views import RECOMMENDED_LEVEL as DOMINO_RECOMMENDED
from games.models import SoloRun
from games.presenters import format_seconds
from rooms.gametypes import GAME_TYPES

from .models import ShowdownResult

RECENT_RESULTS = 4


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# Finished games with a finish time (every list here is ordered by it).
def _solo_done(player):
    return SoloRun.objects.filter(player=player, state=SoloRun.State.FINISHED, finished_at__isnull=False)


def _cardoku_done(player):
    return CardokuGame.objects.filter(player=player, status=CardokuGame.Status.FINISHED, finished_at__isnull=False)


def _domino_done(player):
    return DominoGame.objects.filter(player=player, status=DominoGame.Status.FINISHED, finished_at__isnull=False)


def recent_results(player, limit=RECENT_RESULTS) -> list[dict]:
    """The player's latest finishes across every game, newest first, as short lines."""
    lines = []
    for run in _solo_done(player).order_by("-finished_at")[:limit]:
        lines.append({"game": "solo", "title": f"Solo Run · {run.get_level_display()}",
                      "result": format_seconds(run.elapsed), "detail": f"{run.score} points",
                      "when": run.finished_at})
    for r in ShowdownResult.objects.filter(player=player).order_by("-finished_at")[:limit]:
        lines.append({"game": r.game, "title": GAME_TYPES[r.game].short_label,
                      "result": f"{_ordinal(r.placement)} of {r.player_count}",
                      "detail": format_seconds(r.seconds) if r.seconds else f"{r.score} points",
                      "when": r.finished_at, "win": r.placement == 1})
    for game in _cardoku_done(player).order_by("-finished_at")[:limit]:
        lines.append({"game": "cardoku", "title": "Cardoku", "result": f"{game.score} points",
                      "detail": f"{game.units} units", "when": game.finished_at})
    for game in _domino_done(player).order_by("-finished_at")[:limit]:
        lines.append({"game": "domino", "title": f"Domino · {game.get_level_display()}",
                      "result": f"{game.score} points", "detail": game.get_end_reason_display(),
                      "when": game.finished_at})
    lines.sort(key=lambda line: line["when"], reverse=True)
    return lines[:limit]


def home_panels(player) -> dict:
    """Context for the home page's four game tiles and the player's strip."""
    domino_solo.settle_overdue(player=player)  # a game past its clock is over before we offer it
    domino_game = domino_solo.current_game(player)
    return {
        "current_run": solo.current_run(player),
        "cardoku_game": cardoku_solo.current_game(player),
        "domino_game": domino_game,
        "domino_seconds_left": domino_game.seconds_left(timezone.now()) if domino_game else None,
        "domino_levels": DOMINO_LEVELS, "domino_recommended": DOMINO_RECOMMENDED,
        "recent_results": recent_results(player),
    }


def game_records(player) -> dict:
    """Cardoku and Domino records for the leaderboards."""
    domino_solo.settle_overdue(player=player)
    return {"cardoku_records": cardoku_records.records_for(player),
            "domino_records": domino_records.player_records(player)}


def latest_game(player) -> str | None:
    """Which leaderboard the player last added to: solo, rooms, cardoku or domino."""
    finishes = {"solo": _solo_done(player), "rooms": ShowdownResult.objects.filter(player=player),
                "cardoku": _cardoku_done(player), "domino": _domino_done(player)}
    latest = {game: rows.order_by("-finished_at").values_list("finished_at", flat=True).first()
              for game, rows in finishes.items()}
    played = [(when, game) for game, when in latest.items() if when is not None]
    return max(played)[1] if played else None


def room_count(player) -> int:
    return ShowdownResult.objects.filter(player=player).count()

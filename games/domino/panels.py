"""Sudoku Domino on the home page and the leaderboards (games/common/panels.py)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext

from games.common.i18n import points
from games.common.panels import Panel
from games.models import Level
from players.identity import record_filter

from . import solo
from .models import DominoGame
from .records import player_records

RECOMMENDED_LEVEL = Level.EASY


class DominoPanel(Panel):
    key = "domino"
    label = "Domino"

    def settle(self, player) -> None:
        solo.settle_overdue(player=player)  # a game past its clock is over before we show or offer it

    def home_panel(self, player) -> dict:
        game = solo.current_game(player)
        return {
            "domino_game": game,
            "domino_seconds_left": game.seconds_left(timezone.now()) if game else None,
            "domino_levels": Level.choices,
            "domino_recommended": RECOMMENDED_LEVEL,
        }

    def finished(self, player):
        return DominoGame.objects.filter(
            record_filter(player), status=DominoGame.Status.FINISHED, finished_at__isnull=False
        )

    def count(self, player) -> int:
        return DominoGame.objects.filter(record_filter(player), status=DominoGame.Status.FINISHED).count()

    def recent_results(self, player, limit: int) -> list[dict]:
        return [
            {
                "game": "domino",
                "title": f"Domino · {game.get_level_display()}",
                "result": points(game.score),
                "detail": game.get_end_reason_display(),
                "when": game.finished_at,
            }
            for game in self.finished(player).order_by("-finished_at")[:limit]
        ]

    def stats_panel(self, player, params, problems: list[str]) -> dict:
        from stats.charts import line_chart

        records = player_records(player)
        scores = [game.score for game in reversed(records["recent"])]
        return {
            "domino_records": records,
            "chart": line_chart(scores, lambda v: f"{v:.0f}", lower_is_better=False, what=gettext("Domino scores")),
        }

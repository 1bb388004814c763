"""Cardoku on the home page and the leaderboards (games/common/panels.py)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from games.common.i18n import points
from games.common.panels import Panel
from players.identity import record_filter

from . import records, solo
from .models import CardokuGame


class CardokuPanel(Panel):
    key = "cardoku"
    label = "Cardoku"

    def home_panel(self, player) -> dict:
        return {"cardoku_game": solo.current_game(player)}

    def finished(self, player):
        return CardokuGame.objects.filter(
            record_filter(player), status=CardokuGame.Status.FINISHED, finished_at__isnull=False
        )

    def count(self, player) -> int:
        return records.finished_games(player).count()

    def recent_results(self, player, limit: int) -> list[dict]:
        return [
            {
                "game": "cardoku",
                "title": "Cardoku",
                "result": points(game.score),
                "detail": ngettext("%(n)s unit", "%(n)s units", game.units) % {"n": game.units},
                "when": game.finished_at,
            }
            for game in self.finished(player).order_by("-finished_at")[:limit]
        ]

    def stats_panel(self, player, params, problems: list[str]) -> dict:
        from stats.charts import line_chart

        mine = records.records_for(player)
        scores = [game.score for game in reversed(mine.recent)]
        return {
            "cardoku_records": mine,
            "chart": line_chart(scores, lambda v: f"{v:.0f}", lower_is_better=False, what=gettext("Cardoku scores")),
        }

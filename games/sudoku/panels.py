"""Solo Run on the home page and the leaderboards (games/common/panels.py)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from games.common.i18n import points
from games.common.panels import Panel, pick, tab_url
from games.common.times import format_seconds
from games.models import Level, SoloRun
from players.identity import record_filter

from . import solo

BOARDS = (("classic", gettext_lazy("Classic")), ("assisted", gettext_lazy("Assisted")))


class SoloRunPanel(Panel):
    key = "solo"
    label = gettext_lazy("Solo Run")

    def home_panel(self, player) -> dict:
        return {"current_run": solo.current_run(player)}

    def finished(self, player):
        return SoloRun.objects.filter(
            record_filter(player), practice=False, state=SoloRun.State.FINISHED, finished_at__isnull=False
        )

    def count(self, player) -> int:
        return SoloRun.objects.filter(record_filter(player), practice=False, state=SoloRun.State.FINISHED).count()

    def recent_results(self, player, limit: int) -> list[dict]:
        return [
            {
                "game": "solo",
                "title": gettext("Solo Run") + f" · {run.get_level_display()}",
                "result": format_seconds(run.elapsed),
                "detail": points(run.score),
                "when": run.finished_at,
            }
            for run in self.finished(player).order_by("-finished_at")[:limit]
        ]

    def stats_panel(self, player, params, problems: list[str]) -> dict:
        """One level's Classic and Assisted boards (the player's latest board unless asked)."""
        from stats.charts import line_chart
        from stats.leaderboards import board_counts, latest_solo, recent_times, solo_board

        last_run = latest_solo(player)
        level = pick(params, "level", Level.choices, last_run.level if last_run else Level.EASY, problems)
        board = pick(
            params,
            "board",
            BOARDS,
            "assisted" if last_run and last_run.assisted and last_run.level == level else "classic",
            problems,
        )
        counts = board_counts(player)
        levels = [
            {
                "value": value,
                "label": label,
                "current": value == level,
                "count": counts.get((value, False), 0) + counts.get((value, True), 0),
                "url": tab_url(game="solo", level=value),
            }
            for value, label in Level.choices
        ]
        pair = [solo_board(player, level, False), solo_board(player, level, True)]
        for kind, shown in zip(("classic", "assisted"), pair, strict=True):
            shown.url, shown.current = tab_url(game="solo", level=level, board=kind), kind == board
        chart = line_chart(
            recent_times(player, level, board == "assisted"),
            format_seconds,
            what=(gettext("Assisted %(level)s times") if board == "assisted" else gettext("Classic %(level)s times"))
            % {"level": Level(level).label},
        )
        return {"levels": levels, "pair": pair, "board": pair[board == "assisted"], "chart": chart}

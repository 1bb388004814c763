"""The registry of what the home page and the leaderboards show of each game: one Panel
per game (games/common/panels.py), in the leaderboards' tab order. The views load everything
through here, so templates and tags only present (issue 10); overdue games are settled
(each panel's `settle`, the games' write path) in the view's request, never during a render."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.cardoku.panels import CardokuPanel
from games.common.i18n import place_of, points
from games.common.panels import Panel
from games.common.times import format_seconds
from games.domino.panels import DominoPanel
from games.sudoku.panels import SoloRunPanel
from players.identity import record_filter
from rooms.gametypes import GAME_TYPES
from rooms.models import RoomResult

from .history import room_history

RECENT_RESULTS = 4


class RoomsPanel(Panel):
    """Showdowns and duels: the room games the player finished (rooms.models.RoomResult)."""

    key = "rooms"
    label = _("Showdowns & duels")

    def finished(self, player):
        return RoomResult.objects.filter(record_filter(player))

    def recent_results(self, player, limit: int) -> list[dict]:
        return [
            {
                "game": r.game,
                "title": gettext(GAME_TYPES[r.game].short_label),
                "result": place_of(r.placement, r.player_count),
                "detail": format_seconds(r.seconds) if r.seconds else points(r.score),
                "when": r.finished_at,
                "win": r.placement == 1,
            }
            for r in self.finished(player).order_by("-finished_at")[:limit]
        ]

    def stats_panel(self, player, params, problems: list[str]) -> dict:
        return {"rooms": room_history(player)}


PANELS: dict[str, Panel] = {panel.key: panel for panel in (SoloRunPanel(), RoomsPanel(), CardokuPanel(), DominoPanel())}


def settle(player) -> None:
    for panel in PANELS.values():
        panel.settle(player)


def recent_results(player, limit=RECENT_RESULTS) -> list[dict]:
    """The player's latest finishes across every game, newest first, as short lines."""
    lines = [line for panel in PANELS.values() for line in panel.recent_results(player, limit)]
    lines.sort(key=lambda line: line["when"], reverse=True)
    return lines[:limit]


def home_panels(player) -> dict:
    """Context for the home page's game tiles and the player's strip."""
    settle(player)
    context = {"recent_results": recent_results(player)}
    for panel in PANELS.values():
        context.update(panel.home_panel(player))
    return context


def latest_game(player) -> str | None:
    """Which leaderboard the player last added to (a panel's key), None before any finish."""
    played = [(when, key) for key, panel in PANELS.items() if (when := panel.latest(player)) is not None]
    return max(played)[1] if played else None

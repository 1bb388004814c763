"""What a game shows on the home page and the leaderboards, as plain context loaded by the
views (templates and their tags only present, never query). Each game has one `Panel`;
the views go through the registry (stats/panels.py), never a chain of ifs per game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

FILTER_NAMES = {"game": gettext_lazy("game"), "level": gettext_lazy("level"), "board": gettext_lazy("board")}


class Panel:
    key = ""  # the leaderboards' tab: ?game=<key>
    label: str | StrPromise = ""  # translated lazily

    def settle(self, player) -> None:
        """End what time has ended before anything is shown (nothing by default)."""

    def home_panel(self, player) -> dict:
        """Context for the game's tile on the home page."""
        return {}

    def finished(self, player):
        """The player's results with a finish time (a queryset with `finished_at`)."""
        raise NotImplementedError

    def count(self, player) -> int:
        """How many results the game's leaderboard tab counts."""
        return self.finished(player).count()

    def latest(self, player):
        """When the player last finished this game (None: never)."""
        return self.finished(player).order_by("-finished_at").values_list("finished_at", flat=True).first()

    def recent_results(self, player, limit: int) -> list[dict]:
        """The latest finishes as short lines (game, title, result, detail, when), newest first."""
        return []

    def stats_panel(self, player, params, problems: list[str]) -> dict:
        """Context for the game's leaderboard tab; `params` are the page's query (choices the
        tab offers), and a choice it does not know adds a line to `problems`."""
        return {}


def pick(params, name: str, choices, default: str, problems: list[str]) -> str:
    """The choice asked for in `params`, or the default with a note when it is not one we know."""
    value = params.get(name)
    if value is None:
        return default
    if value in dict(choices):
        return value
    problems.append(
        gettext("There is no %(name)s %(value)s: showing %(default)s instead.")
        % {"name": FILTER_NAMES.get(name, name), "value": repr(value[:20]), "default": dict(choices)[default]}
    )
    return default


def tab_url(**params) -> str:
    return "?" + urlencode(params)

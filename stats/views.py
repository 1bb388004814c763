from django.shortcuts import render

from config.methods import page
from games.panels import pick, tab_url

from .panels import PANELS, latest_game, settle


@page
def leaderboards(request):
    """One leaderboard at a time, picked by game (and for Solo Run by level and board);
    it opens on the one the player last added to."""
    player = request.player
    settle(player)  # ended games belong in the records
    latest = latest_game(player)
    problems = []
    game = pick(request.GET, "game", [(key, panel.label) for key, panel in PANELS.items()], latest or "solo", problems)
    context = {
        "game": game,
        "problems": problems,
        "welcome": latest is None and "game" not in request.GET,
        "tabs": [
            {
                "key": key,
                "label": panel.label,
                "count": panel.count(player),
                "url": tab_url(game=key),
                "current": key == game,
            }
            for key, panel in PANELS.items()
        ],
        **PANELS[game].stats_panel(player, request.GET, problems),
    }
    return render(request, "stats/leaderboards.html", context, status=400 if problems else 200)

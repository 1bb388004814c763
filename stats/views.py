from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from config.methods import page
from games.common.panels import pick, tab_url
from games.models import Level

from . import rankings as rankings_data
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


KINDS = {"classic": False, "assisted": True}


@page
def rankings(request, level: str | None = None, kind: str | None = None):
    """Global rankings: the Showdown rating's top 100 (the default tab) or one all-time Solo
    Run board across accounts; each with the viewer's own place."""
    now = timezone.now()
    account_id = getattr(request.player, "account_id", None)
    friends_view = request.GET.get("view") == "friends" and account_id is not None
    context: dict = {"levels": [], "board": None, "friends_view": friends_view}
    if level is None:
        ranked, mine = rankings_data.rating_board(account_id, now)
        context.update(top=ranked, mine=mine, provisional=rankings_data.provisional_board(now))
        if friends_view and account_id is not None:
            context.update(top=rankings_data.friends_rating_board(account_id), provisional=[])
    else:
        if level not in Level.values or kind not in KINDS:
            raise Http404("No such board.")
        assisted = KINDS[kind]
        context.update(
            board={
                "level": level,
                "level_label": Level(level).label,
                "kind_label": gettext("Assisted") if assisted else gettext("Classic"),
                "assisted": assisted,  # a Classic run has no hints: no Hints column
            },
        )
        top = rankings_data.solo_top(level, assisted)
        context.update(top=top, mine=rankings_data.my_solo(account_id, level, assisted, top))
        if friends_view and account_id is not None:
            context.update(top=rankings_data.friends_solo(account_id, level, assisted))
    context["levels"] = [
        {
            "value": value,
            "label": label,
            "current": value == level,
            "url": reverse("rankings_solo", args=[value, kind or "classic"]),
        }
        for value, label in Level.choices
    ]
    context["kinds"] = [
        {"key": key, "current": key == kind, "url": reverse("rankings_solo", args=[level or "easy", key])}
        for key in KINDS
    ]
    context["gates"] = {"min_rooms": settings.RANKING_MIN_ROOMS, "active_days": settings.RANKING_ACTIVE_DAYS}
    return render(request, "stats/rankings.html", context)

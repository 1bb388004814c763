"""The home page and How to Play. The home page gathers what the apps below show: every
game's tile (stats/panels.py), the rooms' games, Race now's counts, today's dailies and the
friends' results on them."""

from django.shortcuts import render
from django.utils.translation import gettext as _

from config.methods import page
from friends.graph import circle
from games.common import i18n
from games.common.zones import time_zones
from games.daily.boards import among
from games.daily.views import player_zone, today_context
from games.engines import race
from games.models import Level
from pool import counts
from rooms.gametypes import GAME_TYPES
from stats.panels import home_panels

from . import guide


def home_context(player, **extra):
    """The home page's context: also a refused Solo Run start's or room creation's answer,
    the page again with its message (`extra`)."""
    room_games = [(key, _(game.menu_label)) for key, game in GAME_TYPES.items()]
    waiting, racing = counts.read()
    return {
        "levels": Level.choices,
        "pool_waiting": waiting,
        "pool_racing": racing,
        "time_zones": time_zones(),
        "room_games": room_games,
        **home_panels(player),
        **extra,
    }


@page
def home(request):
    tz, name, _error = player_zone(request)  # the browser's zone (static/js/daily.js), UTC until it says
    daily = today_context(request.player, tz)
    account_id = getattr(request.player, "account_id", None)
    friends = {}
    if account_id is not None:  # the panel arrives on the player's own socket (friends/consumers.py)
        friends = {"friends_panel": True, "friends_today": friends_today(account_id, daily["daily_states"])}
    return render(request, "home.html", home_context(request.player, daily_zone=name, **daily, **friends))


def friends_today(account_id: int, states) -> list[dict]:
    """Today's dailies the player finished (or gave up), each with the friends' results on it:
    never before, so nobody's time spoils the puzzle (docs/rules.md 11)."""
    shown = []
    for s in states:
        if s.state in ("finished", "dnf"):
            rows = among(s.daily.pk, circle(account_id, "player__account_id"))
            if any(r.account_id != account_id for r in rows):
                shown.append({"daily": s.daily, "rows": rows})
    return shown


@page
def how_to_play(request):
    guides = {"sudoku": guide.sudoku_picture(), "cardoku": guide.cardoku_picture(), "domino": guide.domino_picture()}
    presets = [(i18n.PRESETS[key], rules) for key, rules in race.PRESETS.items()]
    return render(request, "how_to_play.html", {"presets": presets, "guide": guides})

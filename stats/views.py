from django.conf import settings
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from games.panels import pick, tab_url

from .forms import DEFAULT_NAME, DisplayNameForm, friendly_name
from .panels import PANELS, latest_game, settle


@require_GET
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


@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            request.player.display_name = form.cleaned_data["display_name"]
            request.player.save(update_fields=["display_name"])
            return remember_name_choice(
                redirect(
                    request.POST.get("next")
                    if request.POST.get("next", "").startswith("/")
                    and not request.POST.get("next", "").startswith("//")
                    else "profile"
                )
            )
        return render(request, "stats/profile.html", {"form": form}, status=400)
    form = DisplayNameForm(initial={"display_name": request.player.display_name})
    return render(request, "stats/profile.html", {"form": form, "saved": request.GET.get("saved")})


# --- picking a name before the first room ---------------------------------------------------
NAME_COOKIE = "name_chosen"  # set once the player has picked a name in this browser


def name_chosen(request) -> bool:
    """Has this browser's player picked a display name? (An older profile with a name of its
    own counts as picked.)"""
    if request.COOKIES.get(NAME_COOKIE) == "1":
        return True
    player = request.player
    return bool(player.pk) and not DEFAULT_NAME.fullmatch(player.display_name or "")


def remember_name_choice(response):
    response.set_cookie(
        NAME_COOKIE, "1", max_age=settings.PLAYER_COOKIE_AGE, samesite="Lax", secure=not settings.DEBUG, httponly=True
    )
    return response


def name_gate(request, title: str, fields: dict):
    """Before a first room: None when the player has a name (or this post picks a valid one,
    saved now), else the page that asks for it and posts `fields` back to the same URL."""
    if name_chosen(request):
        return None
    if "display_name" in request.POST:
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            request.player.display_name = form.cleaned_data["display_name"]
            request.player.save(update_fields=["display_name"])
            return None
        status = 400
    else:
        form, status = DisplayNameForm(initial={"display_name": friendly_name()}), 200
    return render(
        request,
        "stats/pick_name.html",
        {"form": form, "title": title, "fields": fields, "action": request.path},
        status=status,
    )

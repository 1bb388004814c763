from django.conf import settings
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods

from games.models import Level
from games.presenters import format_seconds

from .charts import line_chart
from .forms import DEFAULT_NAME, DisplayNameForm, friendly_name
from .leaderboards import board_counts, latest_solo, recent_times, solo_board
from .panels import game_records, latest_game, room_count
from .showdowns import showdown_summary

GAMES = (("solo", "Solo Run"), ("rooms", "Showdowns & duels"), ("cardoku", "Cardoku"), ("domino", "Domino"))
BOARDS = (("classic", "Classic"), ("assisted", "Assisted"))


def _pick(request, name, choices, default, problems):
    """The filter value asked for, or the default with a note when it is not one we know."""
    value = request.GET.get(name)
    if value is None:
        return default
    if value in dict(choices):
        return value
    problems.append(f"There is no {name} {value[:20]!r}: showing {dict(choices)[default]} instead.")
    return default


@require_GET
def leaderboards(request):
    """One leaderboard at a time, picked by game (and for Solo Run by level and board);
    it opens on the one the player last added to."""
    player = request.player
    records = game_records(player)  # also ends overdue Domino games: they belong in the records
    showdowns = showdown_summary(player)
    counts = board_counts(player)
    totals = {"solo": sum(counts.values()), "rooms": room_count(player),
              "cardoku": records["cardoku_records"].finished, "domino": records["domino_records"]["total"]}
    latest = latest_game(player)
    problems = []
    game = _pick(request, "game", GAMES, latest or "solo", problems)
    last_run = latest_solo(player)
    level = _pick(request, "level", Level.choices, last_run.level if last_run else "easy", problems)
    board = _pick(request, "board", BOARDS, "assisted" if last_run and last_run.assisted and last_run.level == level
                  else "classic", problems)

    def url(**params):
        return "?" + urlencode(params)

    context = {
        **records, "showdowns": showdowns, "game": game, "problems": problems,
        "welcome": latest is None and "game" not in request.GET,
        "tabs": [{"key": key, "label": label, "count": totals[key], "url": url(game=key), "current": key == game}
                 for key, label in GAMES],
    }
    if game == "solo":
        context["levels"] = [{"value": value, "label": label, "current": value == level,
                              "count": counts.get((value, False), 0) + counts.get((value, True), 0),
                              "url": url(game="solo", level=value)} for value, label in Level.choices]
        pair = [solo_board(player, level, False), solo_board(player, level, True)]
        for kind, solo in zip(("classic", "assisted"), pair):
            solo.url, solo.current = url(game="solo", level=level, board=kind), kind == board
        context["pair"] = pair
        context["board"] = pair[board == "assisted"]
        context["chart"] = line_chart(recent_times(player, level, board == "assisted"), format_seconds,
                                      what=f"{dict(BOARDS)[board]} {Level(level).label} times")
    elif game == "cardoku":
        scores = [g.score for g in reversed(records["cardoku_records"].recent)]
        context["chart"] = line_chart(scores, lambda v: f"{v:.0f}", lower_is_better=False, what="Cardoku scores")
    elif game == "domino":
        scores = [g.score for g in reversed(records["domino_records"]["recent"])]
        context["chart"] = line_chart(scores, lambda v: f"{v:.0f}", lower_is_better=False, what="Domino scores")
    return render(request, "stats/leaderboards.html", context, status=400 if problems else 200)


@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            request.player.display_name = form.cleaned_data["display_name"]
            request.player.save(update_fields=["display_name"])
            return remember_name_choice(redirect(
                request.POST.get("next") if request.POST.get("next", "").startswith("/")
                and not request.POST.get("next", "").startswith("//") else "profile"))
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
    response.set_cookie(NAME_COOKIE, "1", max_age=settings.PLAYER_COOKIE_AGE, samesite="Lax",
                        secure=not settings.DEBUG, httponly=True)
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
    return render(request, "stats/pick_name.html", {"form": form, "title": title, "fields": fields,
                                                     "action": request.path}, status=status)

"""The profile page (the display name) and the name a player picks before a first room."""

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from stats import ratings
from stats.charts import line_chart

from . import display
from .forms import DEFAULT_NAME, DisplayForm, DisplayNameForm, friendly_name
from .identity import record_profiles, set_name
from .middleware import issue_token, known_player, pending_name, remember_pending_name


@require_http_methods(["GET", "HEAD", "POST"])  # HEAD: what GET answers, without the body
def profile(request):
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            name = form.cleaned_data["display_name"]
            response = redirect(
                request.POST.get("next")
                if request.POST.get("next", "").startswith("/") and not request.POST.get("next", "").startswith("//")
                else reverse("profile") + "?saved=1"  # the page then says "Saved"
            )
            player = known_player(request)
            if player is None:  # no profile yet: made by the first real action, with this name
                issue_token(request)
                remember_pending_name(response, name)
            else:
                set_name(player, name)
            return remember_name_choice(response)
        return render(request, "players/profile.html", {"form": form}, status=400)  # no player made for a refusal
    form = DisplayNameForm(initial={"display_name": pending_name(request.COOKIES) or request.player.display_name})
    context = {
        "form": form,
        "saved": request.GET.get("saved"),
        **rating_context(request.player),
        **daily_streak_context(request),
    }
    return render(request, "players/profile.html", context)


def daily_streak_context(request) -> dict:
    """The daily puzzles' streak (docs/rules.md section 7) over the player's local dates."""
    from games.daily.play import streak, today
    from games.daily.views import player_zone

    tz, _name, _error = player_zone(request)
    current, longest = streak(request.player, today(tz))
    return {"streak": current, "longest_streak": longest}


def rating_context(player) -> dict:
    """The profile's Showdown rating (signed-in players only): the number, "?" while
    provisional, rated rooms, and the chart of its history."""
    account_id = getattr(player, "account_id", None)
    if account_id is None:
        return {}
    now = timezone.now()
    rating = ratings.current_rating(account_id, now)
    history = ratings.history(account_id)
    points = [change.after for change in history]  # one dot per rated room, oldest first
    chart = line_chart(points, lambda v: f"{v:.0f}", lower_is_better=False, what=gettext("ratings"))
    return {"rating": rating, "rating_chart": chart, "rating_signed_in": True}


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
            set_name(request.player, form.cleaned_data["display_name"])
            return None
        status = 400
    else:
        form, status = DisplayNameForm(initial={"display_name": friendly_name()}), 200
    return render(
        request,
        "players/pick_name.html",
        {"form": form, "title": title, "fields": fields, "action": request.path},
        status=status,
    )


# --- display settings (players/display.py) ----------------------------------------------------


def save_display(player, given: dict) -> dict:
    """Store `given` over the player's settings; an account's settings are every linked profile's
    (they follow the player to each browser signed in, like the name)."""
    stored = display.changed(player.display, given)
    player.display = stored
    player.save(update_fields=["display"])
    if player.account_id is not None:
        record_profiles(player).update(display=stored)
    return display.current(stored)


@require_http_methods(["GET", "HEAD", "POST"])
def display_settings(request):
    """The settings page. Its form posts each change with htmx (static/js/settings.js sets the
    <html> attribute at once; this answer says it was saved); without scripts, Save posts the
    form. The game pages' skip link posts `reader` and `next`, and comes back to the game."""
    if request.method == "POST":
        form = DisplayForm(request.POST)
        if not form.is_valid():  # a value that is no choice: nothing is saved
            page = "players/settings.html#form" if request.htmx else "players/settings.html"
            return render(request, page, {"form": form}, status=400)
        given = {name: value for name, value in form.cleaned_data.items() if name in request.POST}
        settings = save_display(request.player, given)
        if request.htmx:
            context = {"form": DisplayForm(initial=settings), "display": settings, "saved": True}
            return render(request, "players/settings.html#form", context)
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
            target = reverse("display_settings") + "?saved=1"
        return redirect(target)
    current = display.current(request.player.display)  # a guest's: the defaults
    context = {"form": DisplayForm(initial=current), "display": current, "saved": request.GET.get("saved")}
    return render(request, "players/settings.html", context)

"""The profile page (the display name) and the name a player picks before a first room."""

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from stats import ratings
from stats.charts import line_chart

from .forms import DEFAULT_NAME, DisplayNameForm, friendly_name
from .identity import record_profiles
from .middleware import issue_token, known_player, pending_name, remember_pending_name


def set_name(player, name: str) -> None:
    """One display name per account: a linked profile's new name is every linked profile's."""
    player.display_name = name
    player.save(update_fields=["display_name"])
    if player.account_id is not None:
        record_profiles(player).update(display_name=name)


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

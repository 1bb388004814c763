"""The daily pages: /daily/ (the player's today), starting and practising, the boards and the
archive. The page sends the browser's IANA time zone (static/js/daily.js keeps it in the
ZONE_COOKIE cookie, and the start form sends it too); the server checks every date itself."""

import dataclasses
import datetime as dt
from urllib.parse import unquote

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dates import WEEKDAYS, WEEKDAYS_ABBR
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.methods import page
from friends.graph import circle
from games.common.limits import creation_limit
from games.common.responses import message_page
from games.models import Level

from . import days, play, stats
from .boards import Row, among, own

ZONE_COOKIE = "showdown_zone"


def player_zone(request) -> tuple[dt.tzinfo, str, str | None]:
    """(zone, its name, an error to show): the zone the page sent (the form's field, the
    cookie), UTC while the browser has not said (its script then reloads the page)."""
    name = request.POST.get("zone") or request.GET.get("zone") or unquote(request.COOKIES.get(ZONE_COOKIE, ""))
    if not name:
        return dt.UTC, "", None
    try:
        return days.zone(name), name, None
    except days.UnknownZone:
        return (
            dt.UTC,
            "",
            _("The time zone %(zone)s is not one we know: the dates below are UTC's.") % {"zone": name[:64]},
        )


def today_context(player, tz, now=None) -> dict:
    """Today's dailies for the player (the /daily/ page and the home page's tile)."""
    now = now or timezone.now()
    date = play.today(tz, now)
    states = play.states(player, play.dailies_of(date))
    current, longest = play.streak(player, date)
    return {
        "daily_date": date,
        "daily_states": states,
        "streak": current,
        "longest_streak": longest,
        "closes_at": days.closes_at(date),
    }


@page
def daily_home(request):
    tz, name, error = player_zone(request)
    context = today_context(request.player, tz)
    context["daily_states"] = [with_share(state, context["streak"]) for state in context["daily_states"]]
    return render(request, "daily/daily.html", {**context, "zone_name": name, "zone_error": error})


def with_share(state: play.DailyState, streak: int) -> play.DailyState:
    if state.run is None or state.state != "finished":
        return state
    state.run.daily = state.daily  # the share line reads it: no query per run
    return dataclasses.replace(state, share=play.share_line(state.run, streak))


def _refused(request, message: str, status: int):
    tz, name, _error = player_zone(request)
    context = today_context(request.player, tz)
    return render(request, "daily/daily.html", {**context, "zone_name": name, "error": message}, status=status)


@require_POST
@creation_limit("daily")  # games/common/limits.py: per profile and per IP (a start shows the puzzle)
def daily_start(request):
    try:
        tz = play.parse_zone(request.POST.get("zone"))
        date = play.parse_date(request.POST.get("date"))
        level = play.parse_level(request.POST.get("level"))
        run, started = play.start_ranked(request.player, date, level, tz)
    except play.DailyMalformed as error:
        return _refused(request, str(error), 400)
    except play.DailyRefused as error:
        return _refused(request, str(error), 409)
    if not started:
        messages.info(request, _("You started this daily before: here is your run, where you left it."))
    return redirect("solo_run", run_id=run.pk)


@require_POST
@creation_limit("game")
def daily_practice(request):
    date_field, _slash, level_field = request.POST.get("daily", "").partition("/")  # the archive's buttons
    try:
        date = play.parse_date(request.POST.get("date") or date_field)
        level = play.parse_level(request.POST.get("level") or level_field)
        run = play.start_practice(request.player, date, level)
    except play.DailyMalformed as error:
        return _refused(request, str(error), 400)
    except play.DailyRefused as error:
        return _refused(request, str(error), 409)
    return redirect("solo_run", run_id=run.pk)


@page
def daily_board(request, date: str, level: str):
    from .boards import board, daily_of

    try:
        day = play.parse_date(date)
        level = play.parse_level(level)
    except play.DailyMalformed as error:
        return message_page(request, _("No such daily"), str(error), 404)
    daily = daily_of(day, level)
    if daily is None or days.opens_at(day) > timezone.now():  # a future daily's board does not exist yet
        return message_page(request, _("No such daily"), _("There is no daily of that date and level."), 404)
    account_id = getattr(request.player, "account_id", None)
    friends_view = request.GET.get("view") == "friends" and account_id is not None
    if friends_view and account_id is not None:  # the friends' board alone (the top 100 is not read)
        rows = among(daily.pk, circle(account_id, "player__account_id"))
        mine = next((Row(**{**r.__dict__, "mine": True}) for r in rows if r.account_id == account_id), None)
        if mine is None:
            mine = own(request.player, daily.pk, [])  # held, voided or unlisted: still said
    else:
        rows, mine = board(request.player, daily.pk)
    return render(
        request,
        "daily/board.html",
        {
            "daily": daily,
            "levels": Level.choices,
            "rows": rows,
            "mine": mine,
            "friends_view": friends_view,
            "mine_listed": mine is not None
            and mine.account_id is not None
            and any(r.run_id == mine.run_id for r in rows),
            "is_open": days.is_open(day, timezone.now()),
            "closes_at": days.closes_at(day),
            # The viewer's finished run is on the board already (`mine`): no query of its own.
            "replays_open": mine is not None or not days.is_open(day, timezone.now()),
        },
    )


@page
def daily_archive(request):
    """The archive calendar, month by month (?month=YYYY-MM): each past daily's mark, and a
    practice start for every one."""
    tz, name, error = player_zone(request)
    local_today = play.today(tz)
    month = local_today.replace(day=1)
    wanted = request.GET.get("month", "")
    if wanted:
        try:
            month = dt.date.fromisoformat(f"{wanted}-01")
        except ValueError:
            error = _("That is not a month (YYYY-MM): here is this month.")
    month = min(month, local_today.replace(day=1))  # no future months
    previous = (month - dt.timedelta(days=1)).replace(day=1)
    following = (month + dt.timedelta(days=32)).replace(day=1)
    return render(
        request,
        "daily/archive.html",
        {
            "weeks": play.archive_month(request.player, month, local_today),
            "level_stats": stats.player_stats(request.player, local_today),
            "weekdays": [(WEEKDAYS_ABBR[n], WEEKDAYS[n]) for n in range(7)],
            "month": month,
            "previous": previous,
            "following": following if following <= local_today else None,
            "local_today": local_today,
            "zone_name": name,
            "zone_error": error,
        },
    )

import datetime as dt
import ipaddress
import zoneinfo
from urllib.parse import urlsplit

from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from icalendar import Alarm, Calendar, Event

from config.methods import page
from games.cardoku.models import CardokuGame
from games.common.i18n import say
from games.common.responses import go
from games.common.zones import time_zones  # noqa: F401 - the zones the schedule forms accept
from games.domino.models import DominoGame
from games.engines import race
from pages.views import home_context
from players.identity import record_filter
from players.middleware import issue_token, known_player
from players.models import Profile
from players.views import name_gate, remember_name_choice

from . import actions as A
from . import api, limits
from .api import RoomError, RoomNotFound, as_seated, create_room, normalize_code
from .gametypes import DEFAULT_GAME, GAME_TYPES
from .gametypes.showdown import host_rates
from .models import CODE_LENGTH, Room, RoomResult, Seat
from .presenters import rematch_key, room_context
from .push import push_room_update


def _message(request, title, message, status, join_again=False):
    """A refusal page (join_again: a code that found nothing, with the join form to type it
    again), or within a live room its message line."""
    if request.htmx:  # forms inside a live room: show the refusal in the room's message line
        response = render(request, "rooms/room.html#message", {"error": message}, status=status)
        return reswap(retarget(response, "#room-message"), "outerHTML")
    context = {"title": title, "message": message, "error": True, "join_again": join_again}
    return render(request, "message.html", context, status=status)


def _refused_lookup(request, code: str):
    """Every lookup by room code goes through the one per-address miss limit (rooms/limits.py):
    the 429 page once this address has used up its misses (a room the player sits in excepted),
    else None."""
    if not limits.lookup_allowed(limits.client_ip(request), known_player(request), code):
        return _message(request, _("Too many attempts"), limits.TOO_MANY_MISSES, 429)
    return None


def _not_found(request):
    """The one answer to a code that finds nothing for this client (an unknown room, or one it
    may not act on): counted as a miss, and the same for every such lookup, so a guesser
    cannot tell a wrong code from a real room."""
    limits.count_miss(limits.client_ip(request))
    message = _("No room has that code. Check the code and try again.")
    return _message(request, _("Room not found"), message, 404, join_again=True)


def _seat_refused(request, code: str, title, message, status: int):
    """None when the client's player sits in room `code`. Else one refusal: the lookup limit's
    (_refused_lookup), or the same whether the room exists or not (404 against 409 told a
    guesser which codes were real), counted as a miss either way, so the counter cannot tell
    them apart either."""
    if refused := _refused_lookup(request, code):
        return refused
    if len(code) != CODE_LENGTH:  # no room has such a code: say so
        return _not_found(request)
    player = known_player(request)
    if player is not None and player.pk and Seat.objects.filter(record_filter(player), room__code=code).exists():
        return None
    limits.count_miss(limits.client_ip(request))
    return _message(request, title, message, status)


def _go(request, name, **kwargs):
    """Redirect; htmx-posted forms (room forms pushed over the socket) get HX-Redirect."""
    return go(request, reverse(name, kwargs=kwargs))


def parse_schedule(date_text: str, zone_name: str) -> tuple[dt.datetime, str]:
    """A local date-time in a named zone -> an aware UTC datetime (or RoomError)."""
    try:
        return A.parse_schedule(date_text, zone_name)
    except A.MalformedMessage as error:
        raise RoomError(say(error)) from None


@require_POST
def room_new(request):
    level = request.POST.get("level", "medium")
    preset = request.POST.get("preset", "standard")
    game = request.POST.get("game") or DEFAULT_GAME
    if game not in GAME_TYPES:
        games = ", ".join(_(game.label) for game in GAME_TYPES.values())
        return _message(
            request, _("Cannot create room"), _("Pick one of the games: %(games)s.") % {"games": games}, 400
        )
    if level not in A.LEVELS or preset not in race.PRESETS:
        return _message(request, _("Cannot create room"), _("Pick a difficulty and a rule preset."), 400)
    scheduled_for, zone = None, ""
    try:
        if request.POST.get("scheduled_at"):
            scheduled_for, zone = parse_schedule(request.POST["scheduled_at"], request.POST.get("timezone", ""))
    except RoomError as error:
        return _room_form_again(request, str(error))
    if (ask := name_gate(request, _("Pick your name, then create the room"), _room_form(request))) is not None:
        return ask
    # Counted once the player has a profile (the name just picked made it): the first room
    # of a first visit counts for that profile too (issue 45 item 9).
    if refused := _creation_refused(request):
        return refused
    try:
        room = create_room(request.player, game, level, preset, scheduled_for, zone)
    except RoomError as error:
        return (
            _room_form_again(request, str(error))
            if scheduled_for
            else _message(request, _("Cannot create room"), str(error), 400)
        )
    return remember_name_choice(redirect("room", code=room.code))


def _room_form(request) -> dict[str, str]:
    """The room form's fields as they were sent."""
    return {k: request.POST.get(k, "") for k in ("game", "level", "preset", "scheduled_at", "timezone")}


def _creation_refused(request) -> HttpResponse | None:
    """One room creation counted (a new room, a rematch): past the limit, the refusal."""
    if not limits.creation_limited(request, "room"):
        return None
    return _message(
        request,
        _("Slow down"),
        _("You have created too many rooms in a short time. Wait a few minutes and try again."),
        429,
    )


def _room_form_again(request, message: str) -> HttpResponse:
    """A schedule the rules refused (a time in the past, too far ahead): the home page again
    with the room form as it was sent, open, and the reason beside it."""
    context = home_context(request.player, room_error=message, room_form=_room_form(request))
    return render(request, "home.html", context, status=400)


@page
def room_calendar(request, code: str):
    """An .ics invitation for a scheduled showdown."""
    code = normalize_code(code)
    if refused := _refused_lookup(request, code):
        return refused
    room = Room.objects.filter(code=code).first()
    if room is None or room.scheduled_for is None:
        return _not_found(request)
    calendar = Calendar()
    calendar.add("prodid", "-//Sudoku Showdown//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = Event()
    # One UID per room for its whole life, and SEQUENCE rising with every move or cancel, so a
    # calendar that imports the file again updates the event it has instead of adding one.
    event.add("uid", f"showdown-{room.code}@sudoku-showdown")
    event.add("sequence", room.schedule_sequence)
    event.add("status", "CANCELLED" if room.cancelled_at else "CONFIRMED")
    event.add("summary", f"{room.get_game_display()} (room {room.code})")
    # In UTC (calendars show it in their reader's zone); the host's own time is in the text.
    event.add("dtstart", room.scheduled_for)
    event.add("dtend", room.scheduled_for + dt.timedelta(minutes=30))
    zone = zoneinfo.ZoneInfo(room.host_timezone or "UTC")
    start = room.scheduled_for.astimezone(zone)
    event.add("dtstamp", timezone.now())
    event.add("last-modified", room.last_activity)
    url = request.build_absolute_uri(reverse("room", args=[room.code]))
    event.add("url", url)
    host_time = f"{start:%a %d %b %Y %H:%M} ({zone})"
    event.add(
        "description",
        f"Starts {host_time}. Join with code {room.code} or {url}. The ready room opens 15 minutes before.",
    )
    if not room.cancelled_at:
        alarm = Alarm()  # dropped by some calendars on import: the guest's reminders are the other channels
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"{room.get_game_display()}: the ready room opens now (room {room.code})")
        alarm.add("trigger", -dt.timedelta(minutes=15))
        event.add_component(alarm)
    calendar.add_component(event)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="showdown-{room.code}.ics"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])  # HEAD: what GET answers, without the body
def room_join(request, code: str | None = None):
    """Join by code (home form) or from the room link's Join button. A player without a
    name picks one first (GET: the room page's live Join button is sent here for that)."""
    if request.method in ("GET", "HEAD"):
        if code is None:  # the home form only posts
            return HttpResponseNotAllowed(["POST"])
        if refused := _refused_lookup(request, normalize_code(code)):
            return refused
        if not Room.objects.filter(code=normalize_code(code)).exists():
            return _not_found(request)
        return name_gate(request, _("Pick your name, then join the room"), {}) or redirect(
            "room", code=normalize_code(code)
        )
    ip = limits.client_ip(request)
    if limits.limited(ip):  # a join is refused even for a room the player sits in
        return _message(request, _("Too many attempts"), limits.TOO_MANY_MISSES, 429)
    code = normalize_code(code or request.POST.get("code", ""))
    if len(code) != 6:
        limits.count_miss(ip)
        return _message(request, _("Cannot join"), _("Room codes have 6 characters."), 400, join_again=True)
    if not name_gate_passed(request, code):
        if request.htmx:  # a live room form: the name page is a page of its own
            return HttpResponseClientRedirect(reverse("room_join_code", args=[code]))
        if not Room.objects.filter(code=code).exists():
            return _not_found(request)
        return name_gate(request, _("Pick your name, then join the room"), {"code": code})
    if refused := _seat_act(request, code, A.Join(), _("Cannot join")):
        return refused
    return remember_name_choice(_go(request, "room", code=code))


def _seat_act(request, code: str, action, title: str) -> HttpResponse | None:
    """The player's own seat does `action` in room `code`: None once done, else the refusal."""
    try:
        api.act(code, as_seated(code, request.player), action)
    except RoomNotFound:
        return _not_found(request)
    except RoomError as error:
        return _message(request, title, str(error), 409)
    return None


def name_gate_passed(request, code) -> bool:
    """The player has a name, or this post brings a valid one (saved by name_gate)."""
    return name_gate(request, "", {"code": code}) is None


@require_POST
def room_leave(request, code: str):
    code = normalize_code(code)
    watching = _("You are watching this room: only seated players can do that.")
    if refused := _seat_refused(request, code, _("Cannot leave"), watching, 409):
        return refused
    if refused := _seat_act(request, code, A.Leave(), _("Cannot leave")):
        return refused
    return _go(request, "home")


@page
def room_page(request, code: str):
    normalized = normalize_code(code)
    if normalized and normalized != code:  # nothing left ("/r/%20/"): not found, not a 500
        return redirect("room", code=normalized)
    if refused := _refused_lookup(request, normalized):
        return refused
    room = Room.objects.filter(code=normalized).select_related("puzzle", "host").first()
    if room is None:
        return _not_found(request)
    # Watching live needs the room socket, which refuses a browser without a player cookie:
    # one is issued, its profile made when the browser opens the socket (not by looking).
    player = known_player(request)
    if player is None:
        issue_token(request)
    context = room_context(room, as_seated(room.code, player) if player is not None else None)
    context["share_url"] = request.build_absolute_uri(reverse("room", args=[room.code]))
    context["share_loopback"] = loopback(request.get_host())
    me = context.get("me")
    # A signed-in seat in a private lobby gets the friends panel, to invite friends (friends/).
    context["friends_panel"] = (
        room.state == Room.State.LOBBY and not room.public and me is not None and bool(me.player.account_id)
    )
    context["duel_tour"] = duel_tour(room, me.player) if me is not None else None  # seated players only
    return render(request, "rooms/room.html", context)


# A duel's lobby walks a player through its game the first time (issue 43, 18): the duel's
# clock starts for everyone at once, so the walkthrough comes before the countdown.
DUEL_TOURS = {"domino": "domino/duel_tour_steps.html", "cardoku": "cardoku/duel_tour_steps.html"}


def duel_tour(room, player: Profile) -> str | None:
    """The walkthrough's steps template for a lobby of a duel whose game `player` never
    played (solo or in a room), else None."""
    steps = DUEL_TOURS.get(room.game)
    if steps is None or room.state != Room.State.LOBBY:
        return None
    solo = DominoGame if room.game == "domino" else CardokuGame
    played = RoomResult.objects.filter(record_filter(player), game=room.game).exists()
    return None if played or solo.objects.filter(record_filter(player)).exists() else steps


def loopback(host: str) -> bool:
    """Whether `host` (with its port) names this machine only: localhost, 127.0.0.1, ::1. The
    default `make run` serves there, and a link or QR code with it opens nothing on a phone."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@require_POST
def room_rematch(request, code: str):
    """ "Play again" after a finished room: the first player to ask gets a new room with the
    same game and rules (as its host); everyone else's "Play again" joins that room. The
    old room's sockets re-render with a one-click invitation."""
    code = normalize_code(code)
    only_players = _("Only the players of this room can start its rematch.")
    if refused := _seat_refused(request, code, _("No rematch"), only_players, 403):
        return refused
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()  # one rematch per room
        if room is None:
            return _not_found(request)
        if room.state != Room.State.FINISHED:
            return _message(request, _("No rematch yet"), _("A rematch can start once this room has finished."), 409)
        rematch = cache.get(rematch_key(room.code))
        if rematch and Room.objects.filter(code=rematch, state=Room.State.LOBBY).exists():
            created = False
        else:
            if refused := _creation_refused(request):
                return refused
            game = GAME_TYPES[room.game]
            new = create_room(request.player, room.game, room.level)
            api.act(
                new.code,
                request.player,
                A.SetRules(room.level, game.rules(room), host_rates(room)),
            )
            rematch, created = new.code, True
            cache.set(rematch_key(room.code), rematch, 24 * 3600)  # as long as the results stay readable
    if not created:
        try:
            api.act(rematch, as_seated(rematch, request.player), A.Join())
        except RoomError as error:
            return _message(request, _("Cannot join the rematch"), str(error), 409)
    else:
        push_room_update(room.code)  # every socket of the finished room re-renders with the invitation
    return _go(request, "room", code=rematch)

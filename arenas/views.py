"""The arena pages (docs/rules.md 12): the list with the site's schedule and a form for a
private arena, one arena's page (join, pause, berserk, the table), and the player's status,
which the page asks once its socket says the player was seated (nothing here is polled)."""

import datetime as dt

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.common.limits import creation_limit
from games.common.responses import message_page, refusal
from games.models import Level

from . import service
from .models import Arena, Entry
from .table import ranked, table


def _arena(code: str) -> Arena | None:
    return Arena.objects.filter(code=code[:12]).first()


def _missing(request):
    return message_page(request, _("No such arena"), _("No arena has that code: check the link."), 404)


@require_GET
def arenas(request):
    now = timezone.now()
    service.schedule(now)  # the site's next arenas exist even where beat is not running
    shown = Arena.objects.filter(ends_at__gt=now - dt.timedelta(hours=2), starts_at__lt=now + dt.timedelta(hours=26))
    mine = getattr(request.player, "account_id", None)
    listed = [a for a in shown if not a.private or a.host_id == mine]
    return render(
        request,
        "arenas/list.html",
        {
            "arenas": [(a, service.state_of(a, now)) for a in listed],
            "levels": Level.choices,
            "lengths": service.LENGTHS,
            "presets": ("friendly", "standard", "hardcore"),
        },
    )


@require_POST
@creation_limit("room")
def arena_new(request):
    try:
        starts_at = dt.datetime.fromisoformat(request.POST.get("starts_at", "")).replace(tzinfo=dt.UTC)
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        return refusal(request, _("Pick a start time and a length."), 400, _("New arena"))
    try:
        arena = service.create_private(
            request.player, request.POST.get("level", ""), request.POST.get("preset", "standard"), starts_at, minutes
        )
    except service.ArenaRefused as error:
        return refusal(request, str(error), 400, _("New arena"))
    return redirect("arena", code=arena.code)


def _context(request, arena: Arena) -> dict:
    now = timezone.now()
    arena.refresh_from_db(fields=["table_version"])  # a tick may have just scored a room
    account = getattr(request.player, "account_id", None)
    top, around = table(arena, account)
    entry = service.entry_of(arena, request.player)
    state = service.state_of(arena, now)
    context = {
        "arena": arena,
        "state": state,
        "entry": entry,
        "top": top,
        "around": around,
        "podium": top[:3] if state == "finished" else [],
        "finished": state == "finished",
        "share_url": request.build_absolute_uri(reverse("arena", args=[arena.code])),
    }
    if state == "upcoming":  # the guest list: who joined, and the viewer's reminders
        context["guests"] = [row.name for row in ranked(arena)]
        context["viewer_email"] = getattr(getattr(request.player, "account", None), "email", "") if account else ""
    if state == "finished":
        context["history"] = _history(arena, request.GET.get("player", ""), entry)
    return context


def _history(arena: Arena, asked: str, mine: Entry | None) -> dict | None:
    """One player's rooms in order (?player=<entry id>, else the viewer's own): points, place,
    fire and berserk, for the finished arena's page."""
    entry = mine
    if asked.isascii() and asked.isdigit():
        entry = Entry.objects.filter(arena=arena, pk=int(asked)).select_related("player").first() or mine
    if entry is None:
        return None
    return {"entry": entry, "name": entry.player.display_name, "rooms": entry.history, "mine": entry == mine}


@require_GET
def arena_page(request, code: str):
    arena = _arena(code)
    if arena is None:
        return _missing(request)
    request.presence = ("arena", arena.code)  # what friends see; the table is pushed on this socket
    service.view_tick(arena, request.player)  # a room just finished is scored before its players see the table
    context = _context(request, arena)
    entry = context["entry"]
    if entry is not None and entry.state == Entry.State.RACING and entry.room_code:
        return redirect("room", code=entry.room_code)  # paired meanwhile: to the new room, as lichess does
    return render(request, "arenas/arena.html", context)


def _act(request, code: str, action):
    arena = _arena(code)
    if arena is None:
        return _missing(request)
    try:
        action(arena)
    except service.ArenaRefused as error:
        return refusal(request, str(error), 400, _("Arena"))
    service.push_table(arena)
    return redirect("arena", code=arena.code)


@require_POST
@creation_limit("pool")  # joins and pauses: a flood is refused as the pool's is
def arena_join(request, code: str):
    zone, language = request.POST.get("zone", "")[:64], getattr(request, "LANGUAGE_CODE", "")
    return _act(request, code, lambda arena: service.join(arena, request.player, zone=zone, language=language))


@require_POST
@creation_limit("pool")
def arena_pause(request, code: str):
    return _act(request, code, lambda arena: service.pause(arena, request.player))


@require_POST
def arena_berserk(request, code: str):
    on = request.POST.get("on") == "1"
    return _act(request, code, lambda arena: service.set_berserk(arena, request.player, on))


@require_POST
def arena_remind(request, code: str):
    channel, on = request.POST.get("channel", ""), request.POST.get("on") == "1"
    return _act(request, code, lambda arena: service.remind(arena, request.player, channel, on))


@require_GET
def arena_status(request, code: str):
    """A joined player's line, asked once by their page when its socket says they were seated
    (arenas/seats.py): it sends the player into their room (or shows why not)."""
    arena = _arena(code)
    if arena is None:
        return HttpResponse(status=404)
    entry = service.entry_of(arena, request.player)
    if entry is not None and entry.state in (Entry.State.WAITING, Entry.State.RACING):
        service.view_tick(arena, request.player)
        entry.refresh_from_db()
    if entry is not None and entry.state == Entry.State.RACING and entry.room_code:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("room", args=[entry.room_code])
        return response
    context = {"arena": arena, "entry": entry, "state": service.state_of(arena, timezone.now())}
    return render(request, "arenas/arena.html#status", context)

"""Race now (docs/rules.md 9): ask at a level, wait on /race/ (its panel polls every second
and runs the level's tick), land in the public room the pool formed."""

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from config.methods import page
from games.common.limits import creation_limit
from games.models import Level
from players.middleware import known_player
from players.views import name_gate, remember_name_choice
from rooms.models import Room

from . import counts, service
from .models import PoolEntry


def _refused(request, message: str, status: int):
    """A refusal page, or from a finished room's Race again (htmx) its message line."""
    if request.htmx:
        response = render(request, "rooms/room.html#message", {"error": message}, status=status)
        return reswap(retarget(response, "#room-message"), "outerHTML")
    context = {"title": _("Cannot race now"), "message": message, "error": True}
    return render(request, "message.html", context, status=status)


@require_POST
@creation_limit("pool")  # a flood of asks and cancels: per profile and per IP
def race_ask(request):
    level = request.POST.get("level", "")
    if level != service.ANY and level not in service.LEVELS:
        return _refused(request, _("Pick a level to race at: Easy, Medium, Hard, Expert or any level."), 400)
    if (ask := name_gate(request, _("Pick your name, then race"), {"level": level})) is not None:
        return ask
    try:
        service.ask(request.player, level)
    except service.PoolRefused as error:
        return _refused(request, str(error), 409)
    to_pool = HttpResponseClientRedirect(reverse("race")) if request.htmx else redirect("race")
    return remember_name_choice(to_pool)


@require_POST
@creation_limit("pool")
def race_cancel(request):
    """Leave the pool. Too late when the pool has just seated the player: then to the race."""
    player = known_player(request)
    seated = player is not None and not service.cancel(player) and _where(service.current(player))
    return redirect("room", code=seated) if seated else redirect("home")


def _where(entry: PoolEntry | None) -> str | None:
    """The room to go to: the public race the player was seated in, while it runs."""
    room = entry.room if entry is not None and entry.state == PoolEntry.State.SEATED else None
    if room is None or room.state in (Room.State.FINISHED, Room.State.EXPIRED):
        return None
    return room.code


@page
def race_page(request):
    """Waiting: the pool's panel. Seated: the race. Else: pick a level."""
    player = known_player(request)
    entry = service.current(player) if player is not None else None
    now = timezone.now()
    if entry is not None and entry.state == PoolEntry.State.WAITING:
        service.seen(entry, now)
        return render(request, "pool/race.html", {"waiting": service.waiting_view(entry, now)})
    if (code := _where(entry)) is not None:
        return redirect("room", code=code)
    waiting, racing = counts.read()
    context = {"pool_waiting": waiting, "pool_racing": racing, "levels": Level.choices}
    return render(request, "pool/race.html", context)


@require_GET
def race_status(request):
    """The waiting panel's poll: runs the level's tick (at most once a second across every
    process), then the panel again, or the way to the race once seated."""
    player = known_player(request)
    entry = service.current(player) if player is not None else None
    if entry is None or entry.state == PoolEntry.State.GONE:
        return HttpResponseClientRedirect(reverse("race"))
    now = timezone.now()
    if entry.state == PoolEntry.State.WAITING:
        service.seen(entry, now)
        service.tick(entry.level, now)
        entry.refresh_from_db()
    if (code := _where(entry)) is not None:
        return HttpResponseClientRedirect(reverse("room", args=[code]))
    return render(request, "pool/race.html#waiting", {"waiting": service.waiting_view(entry, now)})

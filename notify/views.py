"""The browser's side of Web Push: the service worker at the site root, the web app manifest
(iPhones subscribe only from a Home Screen app), and saving or dropping a subscription."""

import json

from django.conf import settings
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.methods import page
from players.middleware import ensure_player
from rooms.api import normalize_code
from rooms.models import Guest
from rooms.push import push_room_update

from . import subscriptions
from .endpoints import Refused
from .models import PushSubscription

MAX_BODY = 4096


@page
def service_worker(request):
    """static/sw.js at /sw.js: a worker's scope is its own path's folder, and the site root
    covers every room page."""
    script = (settings.BASE_DIR / "static" / "sw.js").read_text()
    response = HttpResponse(script, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker at every visit
    response["Service-Worker-Allowed"] = "/"
    return response


@page
def manifest(request):
    """The web app manifest: with it an iPhone (iOS 16.4+) can add the site to its Home
    Screen, and only such an app may receive Web Push there."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    ]
    data = {
        "name": "Sudoku Showdown",
        "short_name": "Showdown",
        "description": _("Race your friends at Sudoku."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f6fb",
        "theme_color": "#3451d1",
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


def _refuse(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _text(value, limit: int) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= limit and value.isascii() else None


@require_POST
def subscribe(request):
    """Save this browser's PushSubscription (JSON, as the browser's toJSON() gives it) for its
    profile and, with a room code, turn on push reminders for that room's guest list. The
    endpoint and keys are checked first (notify/subscriptions.py, issue 45): 400 and nothing
    stored when they fail, 409 for an endpoint another profile saved."""
    if len(request.body) > MAX_BODY:
        return _refuse(_("That subscription is too large."))
    try:
        data = json.loads(request.body)
    except ValueError:
        return _refuse(_("The subscription must be JSON."))
    keys = data.get("keys") if isinstance(data, dict) else None
    endpoint = _text(data.get("endpoint"), 1000) if isinstance(data, dict) else None
    p256dh = _text(keys.get("p256dh"), 120) if isinstance(keys, dict) else None
    auth = _text(keys.get("auth"), 40) if isinstance(keys, dict) else None
    if not (endpoint and p256dh and auth):
        return _refuse(_("The browser sent no usable push subscription."))
    try:
        subscriptions.check_subscription(endpoint, p256dh, auth)  # before a profile is made: bad input stores nothing
    except Refused as error:
        return _refuse(str(error))
    player = ensure_player(request)
    code = normalize_code(data.get("room", "")) if isinstance(data.get("room"), str) else ""
    with transaction.atomic():
        try:
            subscriptions.save(player, endpoint, p256dh, auth)
        except subscriptions.Taken as error:
            return _refuse(str(error), status=409)
        guest = Guest.objects.filter(room__code=code, player=player, coming=True).first() if code else None
        if guest is not None and not guest.by_push:
            guest.by_push = True
            guest.save(update_fields=["by_push", "answered_at"])
    if guest is not None:
        transaction.on_commit(lambda: push_room_update(code), robust=True)
    response = JsonResponse({"ok": True, "room": bool(guest)})
    return response


@require_POST
def unsubscribe(request):
    try:
        data = json.loads(request.body[:MAX_BODY])
    except ValueError:
        return _refuse(_("The subscription must be JSON."))
    endpoint = _text(data.get("endpoint"), 1000) if isinstance(data, dict) else None
    player = ensure_player(request)
    deleted, _rows = PushSubscription.objects.filter(endpoint=endpoint or "", player=player).delete()
    return JsonResponse({"ok": True, "deleted": deleted})

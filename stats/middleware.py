"""Binds each browser to its anonymous Profile through the player cookie.

HTTP: the first visit creates the profile and sets a long-lived HttpOnly, SameSite=Lax
cookie. WebSockets: the cookie identifies the player; a socket without a valid cookie
gets scope["player"] = None and consumers refuse it.
"""

from channels.db import database_sync_to_async
from django.conf import settings
from django.core import signing

from .models import Profile

_SALT = "stats.player"


def _load(raw: str | None) -> Profile | None:
    if not raw:
        return None
    try:
        token = signing.loads(raw, salt=_SALT)
    except signing.BadSignature:
        return None
    return Profile.objects.filter(token=token).first()


def set_player_cookie(response, profile: Profile) -> None:
    response.set_cookie(
        settings.PLAYER_COOKIE_NAME,
        signing.dumps(profile.token, salt=_SALT),
        max_age=settings.PLAYER_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=not settings.DEBUG,
    )


class PlayerMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(("/static/", "/admin/")):
            return self.get_response(request)
        profile = _load(request.COOKIES.get(settings.PLAYER_COOKIE_NAME))
        created = profile is None
        if created:
            profile = Profile.objects.create()
        request.player = profile
        response = self.get_response(request)
        if created:
            set_player_cookie(response, profile)
        return response


class PlayerSocketMiddleware:
    """Channels middleware (inside the cookie/session stack): scope["player"]."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        raw = scope.get("cookies", {}).get(settings.PLAYER_COOKIE_NAME)
        player = await database_sync_to_async(_load)(raw)
        return await self.inner(dict(scope, player=player), receive, send)

"""ASGI entry point: daphne serves HTTP and WebSockets from here."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before importing consumers (they import models).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from rooms.routing import websocket_urlpatterns  # noqa: E402
from stats.middleware import PlayerSocketMiddleware  # noqa: E402


class ConcurrencyLimit:
    """At most `limit` HTTP requests at once in this process; the others wait here. Django
    runs each request's sync code in a thread of its own with a database connection of its
    own, so a burst of 250 players opening the home page would otherwise ask PostgreSQL for
    250 connections and get 500s past max_connections (found by loadtest/soak.py)."""

    def __init__(self, app, limit: int):
        self.app, self.limit, self.semaphore = app, limit, None

    async def __call__(self, scope, receive, send):
        if not self.limit:
            return await self.app(scope, receive, send)
        if self.semaphore is None:
            self.semaphore = asyncio.Semaphore(self.limit)
        async with self.semaphore:
            return await self.app(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": ConcurrencyLimit(django_asgi_app, settings.HTTP_CONCURRENCY),
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(PlayerSocketMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

"""ASGI entry point: daphne serves HTTP and WebSockets from here."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before importing consumers (they import models).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from rooms.routing import websocket_urlpatterns  # noqa: E402
from stats.middleware import PlayerSocketMiddleware  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(PlayerSocketMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

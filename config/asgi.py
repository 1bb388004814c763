"""ASGI entry point: daphne serves HTTP and WebSockets from here."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before importing consumers (they import models).
django_asgi_app = get_asgi_application()

from games.common import uptime  # noqa: E402

uptime.start()  # the process's start and the site's last heartbeat before it (Solo Run clocks)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402
from django.urls import re_path  # noqa: E402

from config import collector, sockets  # noqa: E402
from friends.routing import websocket_urlpatterns as own_sockets  # noqa: E402
from players.middleware import PlayerSocketMiddleware  # noqa: E402
from rooms.limits import ConnectBudget  # noqa: E402
from rooms.routing import websocket_urlpatterns  # noqa: E402

sockets.install()  # daphne bounds what it holds for a client that does not read


class ConcurrencyLimit:
    """At most `limit` HTTP requests at once in this process; the others wait here. Django
    runs each request's sync code in a thread of its own with a database connection of its
    own, so a burst of 250 players opening the home page would otherwise ask PostgreSQL for
    250 connections and get 500s past max_connections (found by loadtest/soak.py).

    A request holds its place until its work is done, not until its client leaves: Django
    abandons a view whose client disconnected (its thread and connection run on) and daphne
    cancels an application 10 s after the disconnect, and each let the next request in
    beside a thread still running. At 2,000 arena players (bench/arena.py) a hundred such
    threads took every pooled connection (PoolTimeouts). So the request runs shielded, and
    Django never hears the disconnect (a reply to a gone client is dropped by daphne)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self.semaphore: asyncio.Semaphore | None = None

    async def __call__(self, scope, receive, send):
        if not self.limit:
            return await self.app(scope, receive, send)
        if self.semaphore is None:
            self.semaphore = asyncio.Semaphore(self.limit)
        semaphore = self.semaphore
        await semaphore.acquire()  # a client gone while it waits here: daphne cancels this
        work = asyncio.ensure_future(self.app(scope, _body_only(receive), send))
        work.add_done_callback(lambda done: _finished(semaphore, done))
        return await asyncio.shield(work)


def _finished(semaphore: asyncio.Semaphore, work: asyncio.Future) -> None:
    semaphore.release()
    if not work.cancelled():
        work.exception()  # retrieved: a caller cancelled meanwhile would leave it unread


def _body_only(receive):
    """`receive` until the request's body is complete; then nothing more (not the disconnect)."""
    complete = False

    async def body():
        nonlocal complete
        if complete:
            await asyncio.Event().wait()  # never set: the request ends by finishing, not by its client
        message = await receive()
        complete = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return body


def same_origin(scope) -> bool:
    """Is the socket opened by one of this site's own pages? The Origin must equal the socket's
    own origin in scheme, host and port (AllowedHostsOriginValidator compared the host only, so a
    page on another port or plain http of the same host passed), and the host must be allowed;
    an origin listed in CSRF_TRUSTED_ORIGINS is also accepted, as for forms."""
    headers = {name: value.decode("latin1") for name, value in scope.get("headers", [])}
    origin = headers.get(b"origin", "").lower().rstrip("/")
    if not origin:
        return False
    if origin in {o.lower().rstrip("/") for o in settings.CSRF_TRUSTED_ORIGINS}:
        return True
    secure = scope.get("scheme") in ("wss", "https")
    if settings.SECURE_PROXY_SSL_HEADER:  # production mode: the proxy says whether it was https
        header, value = settings.SECURE_PROXY_SSL_HEADER
        forwarded = headers.get(header.removeprefix("HTTP_").replace("_", "-").lower().encode(), "")
        secure = secure or forwarded.split(",")[0].strip() == value
    scheme = "https" if secure else "http"
    domain, port = split_domain_port(headers.get(b"host", "").lower())
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    default_port = "443" if secure else "80"
    own = f"{scheme}://{domain}" + ("" if port in ("", default_port) else f":{port}")
    return origin == own or origin == f"{own}:{default_port}"


class SameOriginValidator:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": ConcurrencyLimit(django_asgi_app, settings.HTTP_CONCURRENCY),
        "websocket": SameOriginValidator(
            SessionMiddlewareStack(
                URLRouter(
                    [
                        # the player's own socket on every page (friends/consumers.py): it needs the
                        # session only, and is not charged to the rooms' connect budget
                        *own_sockets,
                        re_path(r"^", ConnectBudget(PlayerSocketMiddleware(URLRouter(websocket_urlpatterns)))),
                    ]
                )
            )
        ),
    }
)

collector.tune_for_server()  # after the imports above: what they built lives as long as the process

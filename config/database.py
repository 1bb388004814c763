"""The PostgreSQL pool's connection check (settings: DATABASES OPTIONS pool check)."""

from typing import cast

from psycopg_pool import ConnectionPool


def check_connection(conn) -> None:
    """psycopg_pool's check, and when it finds a connection the server dropped, every idle
    one is checked at once: a restart or pg_terminate_backend dropped them all, and the
    pool's own loop would otherwise find them one at a time, sleeping 1, 2, 4, 8 s between
    (measured: answers of 13-16 s on the room sockets after one drop)."""
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        from django.db import connections
        from django.db.backends.postgresql.base import DatabaseWrapper

        cast(DatabaseWrapper, connections["default"]).pool.check()  # this check is the PostgreSQL pool's
        raise


TRY_AGAIN = "The server lost its database connection for a moment: please try again."


class DatabaseAwayMiddleware:
    """A request whose database connection was dropped while it ran (the next one gets a
    checked connection) is answered 503 "try again", not with the 500 page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.db import InterfaceError, OperationalError
        from django.shortcuts import render

        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        if getattr(request, "htmx", False):  # the page stays; the flash line says why
            response = render(request, "message.html#message", {"message": TRY_AGAIN, "error": True}, status=503)
            response["HX-Retarget"] = "#flash"
            response["HX-Reswap"] = "innerHTML"
        else:
            response = render(
                request, "message.html", {"title": "Try again", "message": TRY_AGAIN, "error": True}, status=503
            )
        response["Retry-After"] = "2"
        return response

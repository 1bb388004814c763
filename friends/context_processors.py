from django.contrib.auth import SESSION_KEY

from . import presence


def me(request) -> dict:
    """A signed-in player's own socket: what this page is, signed. Read from the session alone:
    the request's player is never resolved here (on a POST that would make a profile, and a
    sign-in email rendered in a POST once did), and nothing is queried; the bell's count
    arrives on the socket."""
    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_KEY):
        return {}
    what, where = presence.activity(request)
    return {"me_socket": presence.token(what, where)}

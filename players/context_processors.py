from django.contrib.auth import SESSION_KEY

from .middleware import known_player


def player(request):
    # Never creates a profile: a page only shows the name of a player who has one.
    # signed_in: read from the session as stored, without loading the user's row (every page's
    # footer asks, and `user.is_authenticated` cost each signed-in page one query for it).
    session = getattr(request, "session", None)
    return {"player": known_player(request), "signed_in": session is not None and SESSION_KEY in session}

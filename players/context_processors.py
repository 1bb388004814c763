from django.contrib.auth import SESSION_KEY

from . import display
from .forms import DEFAULT_NAME
from .middleware import known_player


def player(request):
    # Never creates a profile: a page only shows the name of a player who has one.
    # signed_in: read from the session as stored, without loading the user's row (every page's
    # footer asks, and `user.is_authenticated` cost each signed-in page one query for it).
    # player_named: the header offers "Pick your name" rather than the placeholder "Player 1234"
    # (the name prompt suggests a friendlier one: the two never disagree on screen).
    session = getattr(request, "session", None)
    profile = known_player(request)
    settings = display.current(profile.display if profile is not None else None)
    match = getattr(request, "resolver_match", None)
    return {
        # base.html's <html> attributes (players/display.py), and the game pages' skip link
        # that turns the screen-reader race mode on or off.
        "display": settings,
        "display_attributes": display.attributes(settings),
        "reader_skip": match is not None and match.url_name in display.GAME_PAGES,
        "player": profile,
        "player_named": profile is not None and not DEFAULT_NAME.fullmatch(profile.display_name or ""),
        "signed_in": session is not None and SESSION_KEY in session,
    }

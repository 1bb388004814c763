from .middleware import known_player


def player(request):
    # Never creates a profile: a page only shows the name of a player who has one.
    return {"player": known_player(request)}

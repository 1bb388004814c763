from . import presence


def me(request) -> dict:
    """A signed-in player's own socket: what this page is, signed. Nothing is queried here (the
    account comes with the page's profile); the bell's count arrives on the socket."""
    account_id = getattr(getattr(request, "player", None), "account_id", None)
    if account_id is None:
        return {}
    what, where = presence.activity(request)
    return {"me_socket": presence.token(what, where)}

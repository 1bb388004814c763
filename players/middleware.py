"""Binds each browser to its anonymous Profile through the player cookie.

HTTP: request.player is resolved lazily. A valid cookie gives its profile; without one, a
request that writes (POST and other unsafe methods) gets a new profile and the cookie, while
a page that only displays gets a guest that matches no row and is never saved, so crawlers
and `HEAD` floods create nothing. A room page, whose live socket needs an identity, only
issues a cookie (issue_token): its token names no row until the browser acts (a post, or
opening the room's socket, past the socket's budgets); the row then takes that token and
the name the browser picked meanwhile (remember_pending_name). ensure_player() creates the
profile on a GET that needs one now. The cookie lasts a year and is renewed when used.

WebSockets: the cookie identifies the player; a socket without a valid cookie gets
scope["player"] = None (and scope["pending_token"] for an issued token with no row yet).

A profile linked to an account (accounts/linking.py) is this browser's player only while the
browser is signed in to that account; otherwise the request has no profile.
"""

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.core.cache import cache
from django.utils.cache import add_never_cache_headers
from django.utils.functional import SimpleLazyObject

from .models import GUEST_PK, Profile, new_token

_SALT = "stats.player"  # the name the cookies were signed with: changing it logs everyone out
PENDING_NAME_COOKIE = "player_name"  # a name picked before the browser's profile exists
_NAME_SALT = "players.pending-name"
RENEW_AFTER = 24 * 3600  # re-issue the cookie at most once a day, not on every response


def _token(raw: str | None) -> tuple[str | None, bool]:
    """(token, needs renewal) from a cookie value; (None, False) when missing, forged or expired."""
    if not raw:
        return None, False
    try:
        return signing.loads(raw, salt=_SALT, max_age=RENEW_AFTER), False
    except signing.SignatureExpired:
        pass
    except signing.BadSignature:
        return None, False
    try:
        return signing.loads(raw, salt=_SALT, max_age=settings.PLAYER_COOKIE_AGE), True
    except signing.BadSignature:
        return None, False


def cookie_token(scope) -> str | None:
    """The token a socket's player cookie names (signed, unexpired), without a query."""
    return _token((scope.get("cookies") or {}).get(settings.PLAYER_COOKIE_NAME))[0]


def _load(raw: str | None, session=None) -> Profile | None:
    return _socket_identity(raw, session)[0]


def _socket_identity(raw: str | None, session=None) -> tuple[Profile | None, str | None]:
    """The socket's profile, or the issued token that names no row yet (issue_token)."""
    token, _ = _token(raw)
    profile = Profile.objects.filter(token=token).first() if token else None
    if profile is None:
        return None, token
    return (profile if _usable(profile, session) else None), None


def _usable(profile: Profile | None, session) -> bool:
    """A profile linked to an account plays only in a browser signed in to that account: after
    sign-out (or with a copied cookie) nothing of the account is readable or writable. The
    session's user id is compared as stored, without loading the user."""
    if profile is None or profile.account_id is None:
        return True
    return session is not None and session.get(SESSION_KEY) == str(profile.account_id)


def guest() -> Profile:
    """A visitor without a profile who only looks: reads of their games find nothing."""
    return Profile(pk=GUEST_PK, token="", display_name="")


def is_guest(profile) -> bool:
    return profile is None or profile.pk in (None, GUEST_PK)


def set_player_cookie(response, profile: Profile) -> None:
    _set_token_cookie(response, profile.token)


def _set_token_cookie(response, token: str) -> None:
    response.set_cookie(
        settings.PLAYER_COOKIE_NAME,
        signing.dumps(token, salt=_SALT),
        max_age=settings.PLAYER_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=not settings.DEBUG,
    )


class _Binding:
    """One request's player: loaded from the cookie at most once, created at most once."""

    def __init__(self, request):
        self.request = request
        self.token, self.renew = _token(request.COOKIES.get(settings.PLAYER_COOKIE_NAME))
        self.profile: Profile | None = None
        self.loaded = False
        self.created = False
        self.taken = False  # the cookie's token names a row (usable here or not)
        self.issued: str | None = None  # a token given out with no row yet (issue_token)

    def known(self) -> Profile | None:
        """The cookie's profile (or one this request created), never creating one."""
        if not self.loaded:
            profile = Profile.objects.filter(token=self.token).first() if self.token else None
            self.taken = profile is not None
            self.profile = profile if _usable(profile, getattr(self.request, "session", None)) else None
            self.loaded = True
        return self.profile

    def ensure(self) -> Profile:
        profile = self.known()
        if profile is None:
            token = self.issued or (self.token if not self.taken else None)
            name = pending_name(self.request.COOKIES)
            profile = self.profile = claim(token, name) if token else Profile.objects.create(**named(name))
            self.created = True
        return profile

    def resolve(self) -> Profile:
        if self.known() is not None or self.request.method not in ("GET", "HEAD", "OPTIONS", "TRACE"):
            return self.ensure()
        return guest()


def named(name: str | None) -> dict:
    return {"display_name": name} if name else {}


def claim(token: str, name: str | None = None) -> Profile:
    """The profile an issued token names, made now (its browser's first real action); two
    first actions at once make one."""
    profile, _ = Profile.objects.get_or_create(token=token, defaults=named(name))
    return profile


def pending_name(cookies) -> str | None:
    """The name a browser without a profile picked (remember_pending_name), if any."""
    try:
        return signing.loads(cookies.get(PENDING_NAME_COOKIE, ""), salt=_NAME_SALT)
    except signing.BadSignature:
        return None


def remember_pending_name(response, name: str) -> None:
    """A name picked before the profile exists: the profile takes it when it is made."""
    response.set_cookie(
        PENDING_NAME_COOKIE,
        signing.dumps(name, salt=_NAME_SALT),
        max_age=settings.PLAYER_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=not settings.DEBUG,
    )


def issue_token(request) -> None:
    """A page whose live socket needs an identity (a room page): a browser without a player
    cookie (or whose cookie names a profile it may not use: signed out) gets one, naming a
    profile not made yet. Looking creates no row (200 cookieless GETs of a real room made
    200 profiles); the browser's first real action does."""
    binding = request._player_binding
    if binding.known() is None and (binding.token is None or binding.taken):
        binding.issued = new_token()


def ensure_player(request) -> Profile:
    """The request's real profile, created now if it has none (a page that needs one)."""
    binding = request._player_binding
    profile = binding.ensure()
    request.player = profile
    return profile


def player_token(request) -> str | None:
    """The token the request's (signed, unexpired) player cookie names, without a query: a
    move's write path finds the player's own game by it in the one read it makes anyway. A
    signed-in request's carries its account from the session, "<token>~<user id>": the game of
    a linked profile is found only with its account's session (games/common/rowwriter.py), so a copy
    of the cookie kept past a sign-out moves nothing."""
    binding = getattr(request, "_player_binding", None)
    if binding is None or not binding.token:
        return None
    session = getattr(request, "session", None)
    account = session.get(SESSION_KEY) if session is not None else None
    return f"{binding.token}~{account}" if account else binding.token


def split_player_token(value: str) -> tuple[str, int | None]:
    """(token, account id or None) of a player_token() value."""
    token, _, account = value.partition("~")
    return token, int(account) if account.isdigit() else None


def known_player(request) -> Profile | None:
    """The request's profile if it has one; None for a visitor who has not done anything yet."""
    binding = getattr(request, "_player_binding", None)
    return binding.known() if binding is not None else None


LINKED_PROFILE = "player_profile"  # set at sign-in (accounts/linking.py)
LINKED_SECONDS = 3600  # how long the cache vouches for a signed-in browser's cookie


def linked_key(token: str) -> str:
    """The cache's word that `token` is still the linked profile's (deleted when it is replaced,
    accounts/linking.py unlink)."""
    return f"player-linked:{token}"


def _sign_out_if_unlinked(request, binding) -> None:
    """A browser signed in with a profile that is no longer its own (unlinked from the account
    page, or its cookie lost) is signed out: it gets a fresh anonymous profile. The profile is
    looked up once per request at most, and a signed-in browser's move not at all while the
    cache vouches for its token (a move costs what an anonymous one does, bench/moves.py)."""
    session = getattr(request, "session", None)
    linked = session.get(LINKED_PROFILE) if session is not None else None
    if linked is None or (binding.token and cache_call(cache.get, linked_key(binding.token)) == linked):
        return
    profile = binding.known()
    if profile is not None and profile.pk == linked:
        cache_call(cache.set, linked_key(profile.token), linked, LINKED_SECONDS)
        return
    if binding.taken and session is not None:
        # A mixed cookie: another browser's player cookie beside this session (one planted, or
        # copied in). The session stays signed in and plays as its own profile; the cookie is
        # refused (replaced by the session's own on the answer). Signing out here let anyone
        # who can set a cookie sign a player out (issue 45 item 9).
        own = Profile.objects.filter(pk=linked, unlinked=False, account_id=session.get(SESSION_KEY)).first()
        if own is not None:
            binding.profile, binding.loaded, binding.created, binding.token = own, True, True, own.token
            request.player = own
            return
    from django.contrib.auth import logout

    logout(request)


def cache_call(method, *args):
    """A call to the cache that a cache (Redis) away does not fail: None then, and the database
    answers instead (what the cache would have vouched for expires within LINKED_SECONDS)."""
    try:
        return method(*args)
    except Exception:  # noqa: BLE001 - any client error of the cache backend means "away"
        return None


class PlayerMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(("/static/", "/admin/")):
            return self.get_response(request)
        binding = request._player_binding = _Binding(request)
        request.player = SimpleLazyObject(binding.resolve)
        _sign_out_if_unlinked(request, binding)
        response = self.get_response(request)
        if binding.created or (binding.renew and binding.known() is not None):
            set_player_cookie(response, binding.profile)
        elif binding.issued:
            _set_token_cookie(response, binding.issued)
        if binding.created and PENDING_NAME_COOKIE in request.COOKIES:
            response.delete_cookie(PENDING_NAME_COOKIE)  # the profile has taken it
        return response


# A player's boards and their moves: Back after a pause (or another user of the browser) must
# not get a board from the cache that the server would hide now.
BOARD_PAGES = {
    "solo_run",
    "solo_act",
    "cardoku_game",
    "cardoku_act",
    "cardoku_option",
    "domino_game",
    "domino_act",
    "room",
}


class NoStoreBoardsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name in BOARD_PAGES:
            add_never_cache_headers(response)
        return response


def profile_group(profile_pk: int) -> str:
    """The channel group of every room socket a profile has open: closed when its browser signs
    out (accounts/linking.py)."""
    return f"profile-{profile_pk}"


class PlayerSocketMiddleware:
    """Channels middleware (inside the cookie/session stack): scope["player"]."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        cookies = scope.get("cookies", {})
        raw = cookies.get(settings.PLAYER_COOKIE_NAME)
        player, pending = await database_sync_to_async(_socket_identity)(raw, scope.get("session"))
        name = pending_name(cookies) if pending else None
        return await self.inner(dict(scope, player=player, pending_token=pending, pending_name=name), receive, send)

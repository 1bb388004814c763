"""The account page, and around allauth's own views: our per-IP limit on code requests, and the
code pages' word when a code has expired."""

import functools
import json
import time

from allauth.account import app_settings as allauth_settings
from allauth.account.decorators import reauthentication_required
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.common import limits
from games.common.limits import client_ip, count, over
from games.common.responses import refusal
from players.identity import record_profiles
from players.middleware import known_player
from players.models import Profile

from . import linking, records

MAX_ADDRESS = 254  # RFC 5321's longest address


def code_requests_limited(view, sends=lambda request: True):
    """Past ACCOUNT_CODE_REQUESTS_PER_IP posts that send a code (`sends`: code requests, sign-ups)
    from one client IP in the window, a 429 and no message sent; allauth's own limits (per
    address) still apply."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST" and sends(request):
            address = request.POST.get("login") or request.POST.get("email") or ""
            if len(address) > MAX_ADDRESS:  # allauth's sign-in field takes any length
                message = gettext("That email address is too long (at most %(n)s characters).") % {"n": MAX_ADDRESS}
                return refusal(request, message, 400, title=gettext("Not an email address"))
            key = f"{limits.prefix}:account-code:ip:{client_ip(request)}"  # read now: tests change it
            if over(key, settings.ACCOUNT_CODE_REQUESTS_PER_IP):
                message = gettext("Too many sign-in codes were asked for from your network. Try again later.")
                return refusal(request, message, 429, title=gettext("Slow down"))
            count(key, settings.ACCOUNT_CODE_REQUEST_WINDOW)
        return view(request, *args, **kwargs)

    return wrapper


def _sends_new_code(request) -> bool:
    """A code page's post that mails a code: a new code, or one to another address."""
    return request.POST.get("action") in ("resend", "change")


# Where allauth (65.x) keeps the code a page waits for, in the session: its state has "at" (when
# the code was made), "resend_count" and "change_count"; a half-done sign-in or sign-up (its stages, the sign-in
# code among them) has "initiated_at" and lasts ACCOUNT_LOGIN_TIMEOUT. tests/accounts/
# test_codes.py holds us to this layout.
def _started(session) -> dict | None:
    login = session.get("account_login")
    return login if isinstance(login, dict) and isinstance(login.get("initiated_at"), int | float) else None


def _login_code(session) -> dict | None:
    return ((_started(session) or {}).get("state", {}).get("stages", {}).get("login_by_code") or {}).get("data")


CODES = {  # a code page's kind: (its pending code, how long a code lasts in seconds)
    "login": (_login_code, lambda: allauth_settings.LOGIN_BY_CODE_TIMEOUT),
    "verify": (
        lambda session: session.get("account_email_verification_code"),
        lambda: allauth_settings.EMAIL_VERIFICATION_BY_CODE_TIMEOUT,
    ),
    "reauthenticate": (
        lambda session: session.get("account_email_reauthentication_code"),
        lambda: allauth_settings.LOGIN_BY_CODE_TIMEOUT,
    ),
}


def _pending(request, kind: str) -> dict | None:
    state = CODES[kind][0](request.session)
    return state if isinstance(state, dict) and isinstance(state.get("at"), int | float) else None


def _expired(request, kind: str, state: dict) -> bool:
    now = time.time()
    if now - state["at"] > CODES[kind][1]():
        return True
    started = _started(request.session) if kind != "reauthenticate" else None  # reauthenticating: none
    return started is not None and now - started["initiated_at"] > allauth_settings.LOGIN_TIMEOUT


def _codes_sent(state: dict) -> int:
    """New codes sent since the first: asked for, or to another address."""
    return state.get("resend_count", 0) + state.get("change_count", 0)


def code_page(view, kind: str):
    """allauth's page for entering a code, behind our per-IP limit on new codes, and saying it:
    an expired code sent the player back to ask for a new one without a word. A new code
    lasts as long as the first: allauth kept the first code's clock (and the sign-in's) for it."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        state = _pending(request, kind)
        if state is not None and _expired(request, kind, state):
            message = gettext("That code has expired (a code lasts %(minutes)s minutes): ask for a new one.")
            messages.error(request, message % {"minutes": CODES[kind][1]() // 60})
            return view(request, *args, **kwargs)  # allauth's view drops it and sends the player on
        sent = _codes_sent(state) if state is not None else None
        response = view(request, *args, **kwargs)
        state = _pending(request, kind)
        if sent is not None and state is not None and _codes_sent(state) > sent:
            state["at"] = time.time()  # the new code's clock starts now
            if kind != "reauthenticate" and (started := _started(request.session)) is not None:
                started["initiated_at"] = state["at"]  # at most twice (allauth's resend quota)
            request.session.modified = True
        return response

    return code_requests_limited(wrapper, sends=_sends_new_code)


def no_passwords(request, **kwargs):
    """Accounts have no password here: allauth's password views answer 404, whatever the method."""
    raise Http404("Accounts sign in with a code or a passkey: there are no passwords.")


@login_required
@require_GET
def account(request):
    player = known_player(request)
    browsers = record_profiles(player).filter(unlinked=False).order_by("-last_seen") if player is not None else []
    passkeys = Authenticator.objects.filter(user=request.user, type=Authenticator.Type.WEBAUTHN)
    return render(
        request,
        "account/account.html",
        {"email": request.user.email, "browsers": browsers, "this_browser": player, "passkeys": passkeys},
    )


@login_required
@require_GET
def download(request):
    """Every record of every linked profile, as a JSON file (fields: accounts/records.py)."""
    body = json.dumps(records.export(request.user), cls=DjangoJSONEncoder, indent=2)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="sudoku-showdown-records.json"'
    return response


@login_required
@require_POST
def unlink(request, profile_id: int):
    profile = Profile.objects.filter(pk=profile_id, account=request.user, unlinked=False).first()
    if profile is None:
        raise Http404("No such browser of yours")
    this_browser = profile == known_player(request)
    linking.unlink(profile)
    if this_browser:
        logout(request)
        return redirect("home")
    messages.success(request, gettext("That browser is unlinked and signed out."))
    return redirect("account")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])  # HEAD: what GET answers, without the body
@reauthentication_required
def delete(request):
    """Deleting the account needs a fresh code (allauth's reauthentication: a code sent to the
    address, entered within ACCOUNT_REAUTHENTICATION_TIMEOUT); then this page asks once more."""
    if request.method in ("GET", "HEAD") or request.POST.get("confirm") != "delete":
        return render(request, "account/delete.html")
    user = request.user
    logout(request)  # a fresh anonymous profile for this browser, its sockets closed
    records.delete_account(user)
    return redirect("home")

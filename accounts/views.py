"""The account page and our per-IP limit on code requests, around allauth's own views."""

import functools
import json

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

from games import limits
from games.limits import client_ip, count, over
from games.responses import refusal
from players.identity import record_profiles
from players.middleware import known_player
from players.models import Profile

from . import linking, records

MAX_ADDRESS = 254  # RFC 5321's longest address


def code_requests_limited(view):
    """Past ACCOUNT_CODE_REQUESTS_PER_IP posts (code requests, sign-ups) from one client IP in
    the window, a 429 and no message sent; allauth's own limits (per address) still apply."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST":
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

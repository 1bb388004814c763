"""The account page and our per-IP limit on code requests, around allauth's own views."""

import functools

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games.limits import client_ip, count, over, prefix
from games.responses import refusal
from players.identity import record_profiles
from players.middleware import known_player


def code_requests_limited(view):
    """Past ACCOUNT_CODE_REQUESTS_PER_IP posts (code requests, sign-ups) from one client IP in
    the window, a 429 and no message sent; allauth's own limits (per address) still apply."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method == "POST":
            key = f"{prefix}:account-code:ip:{client_ip(request)}"
            if over(key, settings.ACCOUNT_CODE_REQUESTS_PER_IP):
                message = gettext("Too many sign-in codes were asked for from your network. Try again later.")
                return refusal(request, message, 429, title=gettext("Slow down"))
            count(key, settings.ACCOUNT_CODE_REQUEST_WINDOW)
        return view(request, *args, **kwargs)

    return wrapper


@login_required
@require_GET
def account(request):
    player = known_player(request)
    browsers = record_profiles(player).order_by("-last_seen") if player is not None else []
    return render(
        request,
        "account/account.html",
        {"email": request.user.email, "browsers": browsers, "this_browser": player},
    )

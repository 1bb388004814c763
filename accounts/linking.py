"""Which profile a browser plays as when it signs in and out (docs/rules.md section 6).

Sign-in links the browser's anonymous profile to the account (its records now count for the
account, players.identity); a browser whose profile already belongs to another account gets
a fresh profile for this one (nothing moves between accounts). Sign-out gives the browser a
fresh anonymous profile: the player cookie is replaced, and the old cookie no longer opens
the linked profile (players.middleware checks the session's account).
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

from games.sudoku.bests import refresh_best
from players.middleware import LINKED_PROFILE, cache_call, linked_key, profile_group
from players.models import Profile, new_token

from .browsers import browser_of


def unlink(profile: Profile) -> None:
    """Unlink one browser: its cookie opens nothing any more and its session is signed out at
    its next request (players.middleware); what it played stays with the account."""
    cache_call(cache.delete, linked_key(profile.token))  # the cache no longer vouches for its cookie
    profile.token = new_token()
    profile.unlinked = True
    profile.save(update_fields=["token", "unlinked"])
    close_sockets(profile)


def account_name(user) -> str | None:
    """The display name the account already has: its most recently seen profile's, else the
    one given at sign-up (friends/forms.py keeps it in first_name until a profile links)."""
    found = Profile.objects.filter(account=user).order_by("-last_seen").values_list("display_name", flat=True).first()
    return found or getattr(user, "first_name", "") or None


def account_display(user) -> dict:
    """The account's display settings (players/display.py): its profiles share one set, so any
    profile's that has some; {} (the defaults) when none has."""
    found = Profile.objects.filter(account=user).exclude(display={}).values_list("display", flat=True).first()
    return found or {}


def _bind(request, profile: Profile) -> None:
    """This request (and the browser, through the cookie set on the response) plays as `profile`."""
    binding = request._player_binding
    binding.profile, binding.loaded, binding.created = profile, True, True
    binding.token = profile.token
    request.player = profile


def daily_runs_joined(profile: Profile) -> None:
    """The browser's ranked daily runs join the account's board places (docs/rules.md section 7):
    only those of dailies still open, and only where the account had none of that daily."""
    from games.daily.play import joined_account

    joined_account(profile)


def link_at_sign_in(request, user) -> Profile | None:
    binding = getattr(request, "_player_binding", None)
    if binding is None:  # the admin's own sign-in: no player cookie there
        return None
    current = Profile.objects.filter(token=binding.token).first() if binding.token else None
    if current is not None and current.account_id == user.pk:
        profile = current  # signing in again on a browser already linked to this account
    else:
        name = account_name(user)
        if current is not None and current.account_id is None:
            profile = current  # the first sign-in on this browser: its records join the account
            profile.account = user
            profile.display_name = name or profile.display_name  # the account's name wins
            # So do its display settings; an account without any takes this browser's.
            profile.display = account_display(user) or profile.display
            profile.save(update_fields=["account", "display_name", "display"])
            Profile.objects.filter(account=user).update(display=profile.display)
            daily_runs_joined(profile)
            refresh_best(user.pk)  # its Solo Runs join the account's boards across accounts
        else:  # no profile yet, or one of another account: a fresh profile for this one
            profile = Profile.objects.create(
                account=user, display=account_display(user), **({"display_name": name} if name else {})
            )
    seen = browser_of(request.META.get("HTTP_USER_AGENT", ""))
    if (profile.browser, profile.system) != seen:  # what the account page calls this browser
        profile.browser, profile.system = seen
        profile.save(update_fields=["browser", "system"])
    _bind(request, profile)
    request.session[LINKED_PROFILE] = profile.pk  # unlinking this browser signs it out
    return profile


def fresh_at_sign_out(request) -> None:
    binding = getattr(request, "_player_binding", None)
    if binding is None:
        return
    old = binding.known() if binding.token else None
    _bind(request, Profile.objects.create())
    if old is not None and old.account_id is not None:
        close_sockets(old)


def close_sockets(profile: Profile) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(profile_group(profile.pk), {"type": "player.signed_out"})

"""Who is online and what they do (docs/rules.md 11): one Presence row per open page of a
signed-in player, written by that page's socket (friends/consumers.py). A change of what a
player shows (online, in a room, in the pool...) is pushed to their friends who are online;
nothing is polled, and a page view that changes nothing pushes nothing."""

import datetime as dt

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.utils import timezone

from rooms.models import Room

from .graph import friend_ids, people
from .models import Presence

_SALT = "friends.presence"
# The order a player's several pages are summed up in: the one that says most wins.
RANK = {"room": 5, "arena": 4, "pool": 3, "daily": 2, "solo": 1, "online": 0}


def group(account_id: int) -> str:
    """The channel group of every open page of one account."""
    return f"friends.acct.{account_id}"


def token(what: str, where: str = "") -> str:
    """What a page tells its socket it is, signed so that a client cannot claim another room."""
    return signing.dumps([what, where], salt=_SALT, compress=False)


def read_token(raw: str) -> tuple[str, str]:
    try:
        what, where = signing.loads(raw, salt=_SALT, max_age=24 * 3600)
    except (signing.BadSignature, ValueError, TypeError):
        return "online", ""
    return (what, str(where)[:12]) if what in RANK else ("online", "")


def activity(request) -> tuple[str, str]:
    """What the page being rendered is, from its route (a view may say better: request.presence)."""
    if hasattr(request, "presence"):
        return request.presence
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match else ""
    if match is not None and name == "room":
        return "room", match.kwargs.get("code", "").upper()[:12]
    if name in ("race", "race_panel"):
        return "pool", ""
    if name == "solo_run":
        return "solo", ""
    return "online", ""


def fresh_since() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=settings.PRESENCE_STALE_SECONDS)


def arrive(channel: str, account_id: int, what: str, where: str) -> None:
    Presence.objects.update_or_create(
        channel=channel, defaults={"account_id": account_id, "what": what, "where": where, "seen_at": timezone.now()}
    )


def refresh(channel: str) -> None:
    Presence.objects.filter(channel=channel).update(seen_at=timezone.now())


def leave(channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


def summaries(account_ids) -> dict[int, tuple[str, str]]:
    """What each of these accounts shows, from its fresh rows (absent: offline)."""
    shown: dict[int, tuple[str, str]] = {}
    rows = Presence.objects.filter(account_id__in=account_ids, seen_at__gte=fresh_since())
    for account_id, what, where in rows.values_list("account_id", "what", "where"):
        if account_id not in shown or RANK[what] > RANK[shown[account_id][0]]:
            shown[account_id] = (what, where)
    return shown


def changed(account_id: int) -> bool:
    """Push this account's presence to its online friends if what it shows changed since the
    last push (a cached copy of it); True when it was pushed."""
    now_shown = summaries([account_id]).get(account_id)
    key = f"presence-shown:{account_id}"
    if cache.get(key, "none") == repr(now_shown):
        return False
    cache.set(key, repr(now_shown), 24 * 3600)
    friends = friend_ids(account_id)
    online = summaries(friends).keys()
    layer = get_channel_layer()
    for friend in online:
        async_to_sync(layer.group_send)(group(friend), {"type": "friends.changed"})
    return True


def online_friends(account_id: int) -> list[dict]:
    """The panel's rows: each online friend, what they do, and a link where there is one."""
    friends = friend_ids(account_id)
    shown = summaries(friends)
    if not shown:
        return []
    codes = [where for what, where in shown.values() if what == "room"]
    rooms = {r["code"]: r for r in Room.objects.filter(code__in=codes).values("code", "state", "public", "game")}
    names = people(shown)
    rows: list[dict] = []
    for friend, (what, where) in shown.items():
        room = rooms.get(where) if what == "room" else None
        if what == "room" and room is None:
            what, where = "online", ""
        rows.append({"person": names[friend], "what": what, "where": where, "room": room})
    rows.sort(key=lambda r: (-RANK[str(r["what"])], r["person"].name.casefold()))
    return rows

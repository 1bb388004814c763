"""An account's records as one JSON document (Download my data), and deleting an account.

The export (`export(user)`), every key documented here:
- "account": {"email", "date_joined"}
- "profiles": one per linked browser: {"id", "display_name", "created_at", "last_seen", "browser",
  "system"} (the browser and system its user agent named at sign-in: "Chrome", "Android")
- "solo_runs": {"profile", "level", "assisted", "state", "score", "elapsed" (seconds),
  "mistakes", "hints", "started_at", "finished_at"}
- "cardoku_games": {"profile", "status", "score", "units", "started_at", "finished_at"}
- "domino_games": {"profile", "level", "status", "end_reason", "score", "stones_placed",
  "started_at", "finished_at"}
- "room_results": {"profile", "room_code", "game", "placement", "player_count", "status",
  "seconds", "score", "finished_at", "summary"}
"profile" is the id of the linked browser's profile that played it.
"""

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext

from games.cardoku.models import CardokuGame
from games.domino.models import DominoGame
from games.models import SoloRun
from games.sudoku.bests import detach
from players.middleware import cache_call, linked_key
from players.models import Profile, new_token
from rooms.models import RoomResult

EXPORT = {
    "solo_runs": (
        SoloRun,
        # daily__date, practice, review: a daily puzzle's run (ranked or practice) and its fair-play state
        ["level", "assisted", "state", "score", "elapsed", "mistakes", "hints", "started_at", "finished_at"]
        + ["daily__date", "practice", "review"],
    ),
    "cardoku_games": (CardokuGame, ["status", "score", "units", "started_at", "finished_at"]),
    "domino_games": (
        DominoGame,
        ["level", "status", "end_reason", "score", "stones_placed", "started_at", "finished_at"],
    ),
    "room_results": (
        RoomResult,
        ["room_code", "game", "placement", "player_count", "status", "seconds", "score", "finished_at", "summary"],
    ),
}


def export(user) -> dict:
    profiles = Profile.objects.filter(account=user)
    data: dict = {
        "account": {"email": user.email, "date_joined": user.date_joined},
        "profiles": list(profiles.values("id", "display_name", "created_at", "last_seen", "browser", "system")),
    }
    for key, (model, fields) in EXPORT.items():
        rows = model._default_manager.filter(player__account=user).order_by("pk").values("player_id", *fields)
        data[key] = [{"profile": row.pop("player_id"), **row} for row in rows]
    return data


@transaction.atomic
def delete_account(user) -> None:
    """Personal data and the account go: the solo records are deleted; the room results stay
    in the other players' rooms, under a profile renamed "deleted player" that no cookie opens."""
    profiles = Profile.objects.filter(account=user)
    detach(SoloRun.objects.filter(player__in=profiles))  # off the boards across accounts, bands recounted
    for model in (SoloRun, CardokuGame, DominoGame):
        model.objects.filter(player__in=profiles).delete()
    for profile in profiles:
        cache_call(cache.delete, linked_key(profile.token))  # its browsers' sessions no longer vouched for
        profile.display_name = gettext("deleted player")[:24]
        profile.token = new_token()
        profile.account = None
        profile.save(update_fields=["display_name", "token", "account"])
    user.delete()

"""Context for the room templates, for one viewer (a seated player or a spectator)."""

import math
import zoneinfo

from django.core.cache import cache
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext

from games.common.zones import time_zones
from games.models import Level
from players.forms import DEFAULT_NAME
from players.identity import record_filter
from players.models import NAME_MAX_LENGTH
from stats import ratings

from . import actions as A
from . import fragments
from .gametypes import game_for, standings
from .lifecycle import overdue_state, ready_room_opens
from .models import MAX_PLAYERS, MIN_PLAYERS, Room, RoomEvent, Seat

# A scheduled start: "Fri 4 December 2026, 18:00", "vr 4 december 2026, 18:00".
WHEN_FORMAT = "D j F Y, H:i"


def standings_context(room, seats) -> dict:
    ranked = standings(room, seats) if room.state != Room.State.LOBBY else []
    return {"standings_html": fragments.standings(room, ranked, game_for(room))}


def rematch_key(code: str) -> str:
    return f"rematch:{code}"


def rematch_context(room, player) -> dict:
    """The finished room's rematch, if a player started one: its code and whether this
    viewer already has a seat there."""
    code = cache.get(rematch_key(room.code))
    if not code:
        return {}
    seated = player is not None and Seat.objects.filter(record_filter(player), room__code=code).exists()
    host = Room.objects.filter(code=code).values_list("host__display_name", flat=True).first()
    return {"rematch": code, "rematch_seated": seated, "rematch_host": host or gettext("A player")}


def start_blocked(room, seats, ready_room_open: bool) -> str:
    """Why the host cannot start yet ("" when they can): shown beside the disabled button."""
    if not ready_room_open:
        return gettext("Starting opens with the ready room, 15 minutes before the scheduled time.")
    if len(seats) < MIN_PLAYERS:
        missing = MIN_PLAYERS - len(seats)
        return gettext("Start needs at least %(min)s players: waiting for %(missing)s more.") % {
            "min": MIN_PLAYERS,
            "missing": missing,
        }
    waiting = sum(not s.ready and s.player_id != room.host_id for s in seats)  # the host's Start is their ready
    if waiting:  # the player list shows who
        return gettext("Start needs everyone ready: %(waiting)s of %(seats)s not ready yet.") % {
            "waiting": waiting,
            "seats": len(seats),
        }
    return ""


def ready_reset(room, me) -> bool:
    """Did the host's last rules change take this player's ready flag away (they were ready
    and have not answered since)? The lobby then says why they must ready again."""
    if me is None or me.ready or me.player_id == room.host_id:
        return False
    rules_changes = RoomEvent.objects.filter(room=room, kind="setrules").order_by("-version")
    changed = rules_changes.values_list("version", flat=True).first()
    if changed is None:
        return False
    mine = (
        RoomEvent.objects.filter(room=room, seat=me, kind="setready")
        .order_by("-version")
        .values_list("version", "data")
        .first()
    )
    return mine is not None and mine[0] < changed and bool(mine[1].get("ready"))


def race_seconds(room, state, now) -> float | None:
    """The race clock from the server's start timestamp (None before play): every render,
    reconnect or swap counts from the same moment, so clocks cannot drift apart."""
    if state not in (Room.State.PLAYING, Room.State.FINISHED) or room.starts_at is None:
        return None
    end = room.finished_at if state == Room.State.FINISHED and room.finished_at else now
    return max(0.0, (end - room.starts_at).total_seconds())


def silhouette_paths(classes: list[str]) -> dict:
    given, filled = fragments.silhouette_paths(classes)
    return {"given_path": given, "filled_path": filled}


def room_context(
    room, player, outcome=None, error=None, selected=None, mode="enter", now=None, seats=None, with_standings=True
) -> dict:
    """`seats` may come from the write path that just saved them (saves a query); a reply
    that only swaps the player's own board skips the standings (they arrive by push)."""
    now = now or timezone.now()
    game = game_for(room)
    due = overdue_state(room, now, game.time_limit)
    state = room.state
    if due and due.startswith("expired"):
        state = Room.State.EXPIRED  # a late worker never shows a stale room as live
    elif due == "play":
        state = Room.State.PLAYING
    if seats is None:
        seats = list(room.seats.select_related("player"))
    me = next((s for s in seats if player is not None and s.player_id == player.pk), None)
    rules = game.rules(room)
    context = {
        "room": room,
        "state": state,
        "seats": seats,
        "colours": fragments.colours(seats),
        "reactions": A.REACTIONS.items(),
        "me": me,
        "viewer": player,
        # A viewer still on the default name picks one before joining: "Join", not "Join as Player 7174".
        "viewer_named": player is not None and not DEFAULT_NAME.fullmatch(player.display_name or ""),
        "is_host": player is not None and room.host_id == player.pk,
        "rules": rules,
        "rule_summary": game.summary(room, seats),
        "preset": rules.preset,
        "levels": Level.choices,
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
        "countdown_ms": max(0, int((room.starts_at - now).total_seconds() * 1000)) if room.starts_at else 0,
        "outcome": outcome,
        "error": error,
        "mode": mode,
        "selected": selected,
        "version": room.version,
        "game_type": game,
        "start_label": gettext(game.start_label),
        "badges": game.badges(room),
        # The big 3, 2, 1 (never a clock reading 0:02): whole seconds left, rounded up.
        "countdown_digit": max(1, math.ceil((room.starts_at - now).total_seconds())) if room.starts_at else 1,
    }
    context["race_seconds"] = race_seconds(room, state, now)
    # A game on a time limit (the Domino duel) shows one clock, the time left, not the race's
    # time counting up beside it (issue 43, 18).
    if game.time_limit is not None and context["race_seconds"] is not None:
        context["time_left"] = max(0.0, game.time_limit.total_seconds() - context["race_seconds"])
    if state == Room.State.FINISHED:
        context.update(rematch_context(room, player))
        context["rating"] = ratings.room_outcome(room, seats)
        context["review"] = game.review(room, seats)
    if with_standings:
        context.update(standings_context(room, seats))
    if room.scheduled_for:
        zone = _zone(room.host_timezone)
        opens = ready_room_opens(room)
        until_open = (opens - now).total_seconds() * 1000
        context.update(
            {
                # Formatted here: the date filter would turn it back into the server's zone (UTC).
                # Day and month names in the page's language (strftime's are always English), in
                # the order both languages write them; the reminders say it the same way.
                "scheduled_host": formats.date_format(timezone.localtime(room.scheduled_for, zone), WHEN_FORMAT),
                "host_zone": str(zone),
                "seconds_to_start": max(0.0, (room.scheduled_for - now).total_seconds()),
                "ready_room_open": now >= opens,
                "ready_opens": opens,
                # The page asks for a refresh when the ready room opens (a browser timer tops out at ~24 days).
                "ready_opens_ms": int(until_open) if 0 < until_open < 2**31 - 1000 else None,
            }
        )
        context.update(guest_context(room, player, now >= opens, zone))
    if state == Room.State.LOBBY:
        context.update(game.settings_context(room))
        context["ready_reset"] = ready_reset(room, me)
    context["start_blocked"] = start_blocked(room, seats, context.get("ready_room_open", True))
    if me is not None and me.state and state in (Room.State.PLAYING, Room.State.FINISHED, Room.State.COUNTDOWN):
        context.update(
            game.board_context(
                room, me, outcome=outcome, selected=selected, mode=mode, now=now, playing=state == Room.State.PLAYING
            )
        )
    return context


def guest_context(room, player, ready_room_open: bool, zone) -> dict:
    """The guest list (docs/rules.md 1, "Scheduled showdowns"): who is coming, by display name,
    this viewer's answer and reminder channels, and what the host may still change."""
    guests = list(room.guests.select_related("player"))
    mine = next((g for g in guests if player is not None and g.player_id == player.pk), None)
    email = ""
    if player is not None and getattr(player, "account_id", None):
        email = player.account.email or ""
    local = timezone.localtime(room.scheduled_for, zone)
    return {
        "guests": [g for g in guests if g.coming],
        "not_coming": sum(not g.coming for g in guests),
        "my_guest": mine,
        "guest_list_open": not ready_room_open and room.state == Room.State.LOBBY,
        "viewer_email": email,
        # "I'm coming" asks a name of a guest still called "Player 1234" (or with no profile yet)
        "ask_name": player is None or bool(DEFAULT_NAME.fullmatch(player.display_name or "")),
        "guest_name": player.display_name if player is not None else "",
        "name_max_length": NAME_MAX_LENGTH,
        "login_url": reverse("account_login") + "?next=" + reverse("room", args=[room.code]),
        "moved": room.schedule_sequence > 0 and room.cancelled_at is None,
        "cancelled": room.cancelled_at is not None,
        # The host's form starts from the current schedule, in the host's zone.
        "schedule_local": local.strftime("%Y-%m-%dT%H:%M"),
        "schedule_zone": str(zone),
        "time_zones": time_zones() if player is not None and room.host_id == player.pk else [],
    }


def _zone(name):
    try:
        return zoneinfo.ZoneInfo(name) if name else zoneinfo.ZoneInfo("UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")

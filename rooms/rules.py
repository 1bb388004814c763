"""The rules of a room, in memory: `apply`, the one place that decides what an action does to
a room; the locked path (rooms/store.py) and the live owner (rooms/owner.py) both call it.
Here is what is around every action: what time makes due (countdown over, limits), the
finish, the summaries a move log entry carries (and `restore` from them), who hears of a
change. What each action itself does is its handler's (rooms/handlers.py, dispatched
through its table); what apply gives back, a Result or a refusal, is rooms/result.py's.
Lobby actions still create and delete seat rows (they only ever run on the locked path);
board moves, forfeits and time never touch the database."""

from django.utils.dateparse import parse_datetime

from . import actions as A
from .change import Audience, Change
from .gametypes import game_for, standings
from .handlers import HANDLERS, expire
from .lifecycle import overdue_state
from .models import Guest, Room, Seat
from .result import Result

__all__ = ["Audience", "Change"]


def normalize_code(code: str) -> str:
    """Codes hold ASCII letters and digits only: anything else (spaces, dashes, a NUL byte
    PostgreSQL refuses with a 500) is dropped before any query. Case-insensitive."""
    return "".join(ch for ch in str(code or "") if ch.isascii() and ch.isalnum()).upper()[:12]


SEAT_FIELDS = ("state", "status", "score", "mistakes", "progress", "finish_seconds", "place")
ROOM_FIELDS = ("state", "starts_at", "finished_at", "expired_at", "expiry_reason", "ends_at")


def seat_summary(seat) -> dict:
    """What the live owner writes behind and what a log entry carries for each seat it
    changed: enough to rebuild the seat without replaying its whole game."""
    return {name: getattr(seat, name) for name in SEAT_FIELDS}


def room_summary(room) -> dict:
    return {
        "state": room.state,
        "finished_at": _iso(room.finished_at),
        "expired_at": _iso(room.expired_at),
        "expiry_reason": room.expiry_reason,
        "starts_at": _iso(room.starts_at),
        "ends_at": _iso(room.ends_at),  # an arena's room: moved by its first finish
    }


def _iso(moment):
    return moment.isoformat() if moment is not None else None


def restore(room, seats, events) -> None:
    """Apply the snapshots of log entries newer than the saved summary (an owner that
    acknowledged them may have died before writing behind). `events` are (version, data)."""
    by_id = {seat.pk: seat for seat in seats}
    for version, data in sorted(events, key=lambda e: e[0]):
        if version <= room.version:
            continue
        for seat_id, summary in (data.get("seats") or {}).items():
            seat = by_id.get(int(seat_id))
            if seat is not None:
                for name, value in summary.items():
                    setattr(seat, name, value)
        for name, value in (data.get("room") or {}).items():
            setattr(room, name, parse_datetime(value) if name.endswith("_at") and value else value)
        room.version = version


def seat_of(seats, player) -> Seat | None:
    """The player's seat: its profile's, or another profile's of its account (a player signed
    in on two devices is one player in a room, docs/rules.md 6). Seats come with their player."""
    if player is None:
        return None
    account_id = getattr(player, "account_id", None)
    own = next((s for s in seats if s.player_id == player.pk), None)
    if own is not None or account_id is None:
        return own
    return next((s for s in seats if s.player.account_id == account_id), None)


def as_seated(code: str, player):
    """The profile `player` is in room `code`: its own, or, when the account already sits there
    (or is on its guest list) under another of its profiles, that one, so that the account
    has one seat, one guest answer and one stream of message ids however many browsers it
    plays from. One query for a signed-in player; none for an anonymous one."""
    account_id = getattr(player, "account_id", None)
    if account_id is None:
        return player
    mine = {"room__code": code, "player__account_id": account_id}
    profiles = [seat.player for seat in Seat.objects.filter(**mine).select_related("player")] or [
        guest.player for guest in Guest.objects.filter(**mine).select_related("player")
    ]
    return next((p for p in profiles if p.pk == player.pk), profiles[0] if profiles else player)


def apply(room, seats, player, action, now, message_id: str = "") -> Result:
    """The rules of a room, in memory: apply what time has made due, then the action.
    Shared by the locked path (rooms/store.py) and the live owner (rooms/owner.py). Board moves,
    forfeits and time never touch the database here; lobby actions still create and
    delete seats (they only ever run on the locked path)."""
    seat = seat_of(seats, player)
    if seat is not None and seat.player_id != player.pk:
        player = seat.player  # another browser of the seat's account (two joins at once, a stale socket)
    seats_before = {s.pk: seat_summary(s) for s in seats}
    room_before = room_summary(room)
    advanced = _advance(room, seats, now)
    handler = HANDLERS[type(action)]
    result = handler(room, seats, seat, player, action, now)
    result.changed = result.changed or advanced
    result.seats = seats
    if result.changed:
        if room.state == Room.State.PLAYING and all(s.status != Seat.Status.PLAYING for s in seats):
            _finish(room, seats, now)
        room.version += 1
        kind, data = _logged(room, action, result)
        changed_seats = {str(s.pk): summary for s in seats if (summary := seat_summary(s)) != seats_before.get(s.pk)}
        if changed_seats:
            data["seats"] = changed_seats
        after = room_summary(room)
        room_changed = after != room_before
        if room_changed:
            data["room"] = after
        event = dict(
            kind=kind,
            data=data,
            message_id=message_id,
            version=room.version,
            seat_id=result.seat.pk if result.seat is not None else None,
        )
        result.change = Change(
            events=(event,),
            audience=_audience(room, result.outcome, room_changed),
            seats_added=tuple(s.pk for s in seats if s.pk not in seats_before),
            seats_removed=tuple(pk for pk in seats_before if pk not in {s.pk for s in seats}),
            room_changed=room_changed,
            status_changed=any(s.status != seats_before.get(s.pk, {}).get("status") for s in seats),
        )
    elif result.seat is not None and seat_summary(result.seat) != seats_before.get(result.seat.pk):
        result.change = Change(audience=Audience.MOVER)  # saved, for the actor only
    return result


def _audience(room, outcome, room_changed: bool) -> Audience:
    """Who hears of a logged change: the one decision, for the live owner's pushes and the
    locked path's alike (rooms/push.py turns it into the push)."""
    if outcome is not None and game_for(room).private(outcome):
        return Audience.MOVER  # a pencil mark: the player's own
    if outcome is not None and room.state == Room.State.PLAYING and not room_changed:
        return Audience.STANDINGS
    return Audience.EVERY_VIEW


def _logged(room, action, result) -> tuple[str, dict]:
    """A log entry's kind and data: the action's name and plain fields; a board move's as
    its game type records it (GameType.logged)."""
    data: dict[str, object]
    if isinstance(action, A.GameMove):
        kind, fields = game_for(room).logged(action.move)
        data = dict(fields)
    else:
        kind = type(action).__name__.lower()
        data = {k: v for k, v in vars(action).items() if isinstance(v, (int, str, bool, type(None)))}
    if isinstance(action, A.Reschedule):
        data["scheduled_for"] = action.scheduled_for.isoformat()
    if isinstance(action, A.SetRules):
        data["rules"] = action.rules.to_dict()
    if result.outcome is not None:
        data["outcome"] = result.outcome.kind
    return kind, data


def _advance(room, seats, now) -> bool:
    due = overdue_state(room, now, game_for(room).time_limit)
    if due is None:
        return False
    if due == "play":
        room.state = Room.State.PLAYING
    elif due == "finish":
        room.state = Room.State.PLAYING
        _finish(room, seats, now)
    else:
        expire(room, due.split(":", 1)[1], now)
    return True


def _finish(room, seats, now):
    room.state = Room.State.FINISHED
    room.finished_at = now
    game_for(room).close(room, seats, now)  # a timed duel ends the games still running
    for place, seat in standings(room, seats):
        seat.place = place

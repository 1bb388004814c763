"""The rules of a room, in memory: what time makes due (countdown over, limits), each
action's handler, the finish, and the summaries a move log entry carries. The one place
that decides what an action does to a room; the locked path (rooms/store.py) and the
live owner (rooms/owner.py) both call `apply`. Lobby actions still create and delete
seat rows here (they only ever run on the locked path); board moves, forfeits and time
never touch the database."""

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from django.conf import settings
from django.utils.dateparse import parse_datetime

from games.engines import race
from games.engines.errors import Refusal
from games.engines.text import Sentences, _
from players.identity import set_name
from players.models import Profile

from . import actions as A
from .change import NO_CHANGE, Audience, Change
from .gametypes import GameType, game_for, standings
from .lifecycle import RUNNING, SCHEDULE_AHEAD, overdue_state, ready_room_opens
from .models import MAX_PLAYERS, MIN_PLAYERS, Guest, Room, RoomEvent, Seat

__all__ = ["RUNNING", "Audience", "Change"]


class RoomError(Refusal):
    """A refused room action; str() is the message for the player."""


class RoomNotFound(RoomError):
    pass


class NotAllowed(RoomError):
    """Permission: not the host, not seated."""


class Owner(Protocol):
    """What an answer reads of the live owner that applied a change (rooms/owner.py
    LiveRoom): the room, seats and game type in its memory."""

    code: str
    room: Room
    seats: list[Seat]
    game: GameType


@dataclass
class Result:
    """What applying an action did: the room and the actor's seat after it, the board
    move's outcome, the Change (log entry, audience, seats), and for the live owner's answer
    the mover's board before and the owner itself."""

    room: Room
    seat: Seat | None
    outcome: race.Outcome | None = None
    changed: bool = True
    duplicate: bool = False
    seats: list | None = None  # every seat as saved, for rendering the answer without a query
    change: Change = field(default=NO_CHANGE)
    before_state: dict | None = None  # the mover's board before the move (the live owner's answer)
    live: Owner | None = None  # the live owner that applied it, whose memory the answer is rendered from


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
    handler = _HANDLERS[type(action)]
    result = handler(room, seats, seat, player, action, now)
    result.changed = result.changed or advanced
    result.seats = seats
    if result.changed:
        if room.state == Room.State.PLAYING and all(s.status != Seat.Status.PLAYING for s in seats):
            _finish(room, seats, now)
        room.version += 1
        data = _event_data(action, result)
        changed_seats = {str(s.pk): summary for s in seats if (summary := seat_summary(s)) != seats_before.get(s.pk)}
        if changed_seats:
            data["seats"] = changed_seats
        after = room_summary(room)
        room_changed = after != room_before
        if room_changed:
            data["room"] = after
        event = dict(
            kind=type(action).__name__.lower(),
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


def _event_data(action, result) -> dict:
    data: dict[str, object] = {k: v for k, v in vars(action).items() if isinstance(v, (int, str, bool, type(None)))}
    if isinstance(action, A.Reschedule):
        data["scheduled_for"] = action.scheduled_for.isoformat()
    if isinstance(action, A.SetRules):
        data["rules"] = action.rules.to_dict()
    if result.outcome is not None:
        data["outcome"] = result.outcome.kind
    return data


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
        _expire(room, due.split(":", 1)[1], now)
    return True


def _expire(room, reason, now):
    room.state = Room.State.EXPIRED
    room.expired_at = now
    room.expiry_reason = reason


def _finish(room, seats, now):
    room.state = Room.State.FINISHED
    room.finished_at = now
    game_for(room).close(room, seats, now)  # a timed duel ends the games still running
    for place, seat in standings(room, seats):
        seat.place = place


# --- handlers -----------------------------------------------------------------------


def _require_seat(seat):
    if seat is None:
        raise NotAllowed(_("You are watching this room: only seated players can do that."))


def _require_host(room, player):
    if room.public:
        raise NotAllowed(_("A public race has no host: the pool sets its rules and starts it."))
    if room.host_id is None or player is None or room.host_id != player.pk:
        raise NotAllowed(_("Only the host can do that."))


THAT = _("That")  # what a lobby-only action is called when the caller names nothing


def _require_lobby(room, what=THAT):
    if room.state == Room.State.EXPIRED:
        raise RoomError(
            Sentences([_("This room has expired."), room.expiry_reason])
            if room.expiry_reason
            else _("This room has expired.")
        )
    if room.state != Room.State.LOBBY:
        raise RoomError(_("%(what)s is only possible in the lobby, before the countdown.", what=what))


def _join(room, seats, seat, player, action, now):
    if seat is not None:
        return Result(room, seat, changed=False)
    if room.state == Room.State.EXPIRED:
        raise RoomError(_("This room has expired."))
    if room.state != Room.State.LOBBY:
        raise RoomError(_("This showdown has already started: you can watch, but not join."))
    if room.public:
        raise NotAllowed(_("Public races are filled by the pool: press Race now to race."))
    if RoomEvent.objects.filter(room=room, kind="kick", data__player_id__in=_profile_ids(player)).exists():
        raise NotAllowed(_("The host removed you from this room: you can watch, but not join again."))
    if len(seats) >= MAX_PLAYERS:
        raise RoomError(_("This room is full: %(n)s players at most.", n=MAX_PLAYERS))
    seat = Seat.objects.create(room=room, player=player)
    seats.append(seat)
    if room.host_id is None:
        room.host = player
    return Result(room, seat)


def _profile_ids(player) -> list[int]:
    """The player's profile, or every profile of its account: a removed player stays removed
    on their other devices too."""
    if getattr(player, "account_id", None) is None:
        return [player.pk]
    # Profile, not type(player): a view's request.player is a lazy object, not the model.
    return list(Profile.objects.filter(account_id=player.account_id).values_list("pk", flat=True))


def _leave(room, seats, seat, player, action, now):
    _require_seat(seat)
    if room.state == Room.State.LOBBY:
        seats.remove(seat)
        seat.delete()
        if room.host_id == player.pk:
            # The longest-waiting player becomes host (seats are ordered by joined_at).
            room.host = seats[0].player if seats else None
        return Result(room, None)
    return _forfeit(room, seats, seat, player, action, now)


def _forfeit(room, seats, seat, player, action, now):
    _require_seat(seat)
    if room.state not in RUNNING:
        raise RoomError(_("There is no running game to forfeit."))
    if seat.status != Seat.Status.PLAYING:
        return Result(room, seat, changed=False)
    game_for(room).leave(seat)
    return Result(room, seat)


def _kick(room, seats, seat, player, action, now):
    """The host removes a seated player from the lobby (a stranger who never readies would
    block the start). The removed player may watch but not join again (the kick event in
    the room's log says so)."""
    _require_host(room, player)
    _require_lobby(room, _("Removing a player"))
    if action.player_id == player.pk:
        raise RoomError(_("You cannot remove yourself: use Leave room."))
    target = next((s for s in seats if s.player_id == action.player_id), None)
    if target is None:
        raise RoomError(_("That player is not seated in this room."))
    seats.remove(target)
    target.delete()
    return Result(room, seat)


def _require_ready_room(room, now, what):
    opens = ready_room_opens(room)
    if opens is not None and now < opens:
        raise RoomError(
            _(
                "%(what)s opens 15 minutes before the scheduled start (%(opens)s UTC).",
                what=what,
                opens=f"{opens:%Y-%m-%d %H:%M}",
            )
        )


def _ready(room, seats, seat, player, action, now):
    _require_seat(seat)
    _require_lobby(room, _("Changing your ready flag"))
    _require_ready_room(room, now, _("The ready room"))
    if seat.ready == action.ready:
        return Result(room, seat, changed=False)
    seat.ready = action.ready
    seat.save(update_fields=["ready"])
    return Result(room, seat)


def _rules(room, seats, seat, player, action, now):
    _require_host(room, player)
    _require_lobby(room, _("Changing the rules"))
    if action.level is not None:
        room.level = action.level
    room.rules = action.rules.to_dict()
    if not action.rated:
        room.rules["rated"] = False  # the host turned rating off (absent: rated)
    # Any host change resets every ready flag: players agree to what they see.
    Seat.objects.filter(room=room).update(ready=False)
    for s in seats:
        s.ready = False
    return Result(room, seat)


def _start(room, seats, seat, player, action, now):
    if not (room.public and player is None):  # the pool starts a public race
        _require_host(room, player)
    _require_lobby(room, _("Starting"))
    _require_ready_room(room, now, _("Starting the showdown"))
    if len(seats) + len(room.ghosts or ()) < MIN_PLAYERS:  # ghosts: a public race the pool filled
        raise RoomError(_("At least %(n)s players are needed to start.", n=MIN_PLAYERS))
    # The host's Start is the host's "I'm ready" (issue 27): only the others mark it.
    waiting = [s.player.display_name for s in seats if not s.ready and s is not seat]
    if waiting:
        raise RoomError(_("Not everyone is ready yet: waiting for %(names)s.", names=", ".join(waiting)))
    if seat is not None:
        seat.ready = True
    room.starts_at = now + timedelta(seconds=settings.COUNTDOWN_SECONDS)  # duel clocks start here
    room.accounts_at_start = {str(s.pk): s.player.account_id for s in seats}  # who is signed in: fixed now
    for s in seats:
        s.status = Seat.Status.PLAYING
    game_for(room).start(room, seats)
    for s in seats:
        s.save()
    room.state = Room.State.COUNTDOWN
    return Result(room, seat)


def check_schedule(when, now) -> None:
    """A scheduled start must be in the future and at most 30 days ahead (creating a room and
    moving one alike)."""
    if when <= now:
        raise RoomError(_("That time is in the past: pick a start time in the future."))
    if when > now + SCHEDULE_AHEAD:
        raise RoomError(_("Showdowns can be scheduled at most 30 days ahead."))


def _require_before_ready_room(room, now, what):
    """The guest list and the host's schedule changes close when the ready room opens."""
    if room.scheduled_for is None:
        raise RoomError(_("This room is not a scheduled showdown."))
    _require_lobby(room, what)
    if now >= ready_room_opens(room):
        raise RoomError(_("%(what)s closed when the ready room opened, 15 minutes before the start.", what=what))


def _coming(room, seats, seat, player, action, now):
    """I'm coming / Not coming: anyone with the invitation, until the ready room opens."""
    _require_before_ready_room(room, now, _("The guest list"))
    renamed = bool(action.name) and action.name != player.display_name  # asked while still "Player 1234"
    if renamed:
        set_name(player, action.name)
    guest = Guest.objects.filter(room=room, player=player).first()
    if guest is None:
        Guest.objects.create(
            room=room, player=player, coming=action.coming, time_zone=action.zone, language=action.language
        )
        return Result(room, seat)
    zone, language = action.zone or guest.time_zone, action.language or guest.language
    if (guest.coming, guest.time_zone, guest.language) == (action.coming, zone, language):
        return Result(room, seat, changed=renamed)
    guest.coming, guest.time_zone, guest.language = action.coming, zone, language
    guest.save(update_fields=["coming", "time_zone", "language", "answered_at"])
    return Result(room, seat)


def _remind(room, seats, seat, player, action, now):
    """A guest picks how to be reminded (push in this browser, email when signed in)."""
    if room.scheduled_for is None:
        raise RoomError(_("This room is not a scheduled showdown."))
    guest = Guest.objects.filter(room=room, player=player, coming=True).first()
    if guest is None:
        raise RoomError(_("Reminders are for guests: say you are coming first."))
    if action.on and action.channel == "email" and not _email_of(player):
        raise RoomError(_("Email reminders need a signed-in account with an email address."))
    field = "by_push" if action.channel == "push" else "by_email"
    if getattr(guest, field) == action.on:
        return Result(room, seat, changed=False)
    setattr(guest, field, action.on)
    guest.save(update_fields=[field, "answered_at"])
    return Result(room, seat)


def _email_of(player) -> str:
    account = getattr(player, "account", None) if getattr(player, "account_id", None) else None
    return (account.email or "") if account is not None else ""


def _reschedule(room, seats, seat, player, action, now):
    """The host moves the start (date, time or zone) until the ready room opens. SEQUENCE
    rises; reminders, the ready room and the expiry follow the new time (notify/ sends
    only what is due for the current sequence)."""
    _require_host(room, player)
    _require_before_ready_room(room, now, _("Moving the showdown"))
    check_schedule(action.scheduled_for, now)
    if action.scheduled_for == room.scheduled_for and action.host_timezone == room.host_timezone:
        raise RoomError(_("That is already the showdown's time."))
    if room.schedule_sequence >= MAX_RESCHEDULES:  # each move tells every guest (notify/)
        raise RoomError(
            _("This showdown has been moved %(n)s times: cancel it and schedule a new one.", n=MAX_RESCHEDULES)
        )
    room.scheduled_for = action.scheduled_for
    room.host_timezone = action.host_timezone
    room.schedule_sequence += 1
    return Result(room, seat)


MAX_RESCHEDULES = 10


def _cancel(room, seats, seat, player, action, now):
    _require_host(room, player)
    _require_before_ready_room(room, now, _("Cancelling the showdown"))
    room.cancelled_at = now
    room.schedule_sequence += 1
    _expire(room, CANCELLED, now)
    return Result(room, seat)


CANCELLED = _("The host cancelled this showdown.")


def _sync(room, seats, seat, player, action, now):
    return Result(room, seat, changed=False)


def _expire_action(room, seats, seat, player, action, now):
    if room.state == Room.State.EXPIRED:
        return Result(room, seat, changed=False)
    _expire(room, action.reason, now)
    return Result(room, seat)


def _board(room, seats, seat, player, action, now):
    _require_seat(seat)
    if room.state == Room.State.COUNTDOWN:
        raise RoomError(_("Wait for the countdown to end."))
    if room.state != Room.State.PLAYING:
        raise RoomError(
            _("The showdown is not running.")
            if room.state != Room.State.LOBBY
            else _("The showdown has not started yet.")
        )
    if seat.status == Seat.Status.LEFT:
        raise RoomError(_("You left this showdown."))
    game = game_for(room)
    outcome = game.apply(room, seat, action, now)
    if seat.status == Seat.Status.FINISHED and seat.finish_seconds is None:
        seat.finish_seconds = (now - room.starts_at).total_seconds()
    return Result(room, seat, outcome, changed=game.changed(outcome))


_HANDLERS = {
    A.Join: _join,
    A.Leave: _leave,
    A.Forfeit: _forfeit,
    A.SetReady: _ready,
    A.SetRules: _rules,
    A.Kick: _kick,
    A.Start: _start,
    A.Sync: _sync,
    A.Coming: _coming,
    A.Remind: _remind,
    A.Reschedule: _reschedule,
    A.Cancel: _cancel,
    A.Expire: _expire_action,
    A.Enter: _board,
    A.Note: _board,
    A.SetNotes: _board,
    A.Hint: _board,
    A.GameMove: _board,
}

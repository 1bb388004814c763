"""The one write path for a room. Views, consumers, Celery tasks and the admin all call
`perform`: it locks the room row, applies what time has made due, applies the action
(the pure engines judge every board move) and saves. Pushes go out after commit."""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engines import race
from stats.models import ShowdownResult

from . import actions as A
from .gametypes import GAME_TYPES, game_for
from .models import MAX_PLAYERS, MIN_PLAYERS, Room, RoomEvent, Seat

LOBBY_IDLE = timedelta(minutes=30)
READY_ROOM_OPENS = timedelta(minutes=15)  # before a scheduled start
SCHEDULED_GRACE = timedelta(minutes=30)  # after it, an unstarted scheduled room expires
SCHEDULE_AHEAD = timedelta(days=30)
SAFETY_LIMIT = timedelta(hours=2)
RESULTS_KEPT = timedelta(hours=24)


class RoomError(race.MoveError):
    """A refused room action; str() is the message for the player."""


class RoomNotFound(RoomError):
    pass


class NotAllowed(RoomError):
    """Permission: not the host, not seated."""


@dataclass
class Result:
    room: Room
    seat: Seat | None
    outcome: race.Outcome | None = None
    changed: bool = True
    duplicate: bool = False
    seats: list | None = None  # every seat as saved, for rendering the answer without a query


def normalize_code(code: str) -> str:
    """Codes hold ASCII letters and digits only: anything else (spaces, dashes, a NUL byte
    PostgreSQL refuses with a 500) is dropped before any query. Case-insensitive."""
    return "".join(ch for ch in str(code or "") if ch.isascii() and ch.isalnum()).upper()[:12]


def create_room(player, game: str = "showdown", level: str = "medium", preset: str = "standard",
                scheduled_for=None, host_timezone: str = "", now=None) -> Room:
    if game not in GAME_TYPES:
        raise RoomError("Unknown game.")
    rules = race.PRESETS.get(preset, race.STANDARD).to_dict() if game == "showdown" else {}
    now = now or timezone.now()
    if scheduled_for is not None:
        if scheduled_for <= now:
            raise RoomError("That time is in the past: pick a start time in the future.")
        if scheduled_for > now + SCHEDULE_AHEAD:
            raise RoomError("Showdowns can be scheduled at most 30 days ahead.")
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(game=game, host=player, level=level, rules=rules,
                                           scheduled_for=scheduled_for, host_timezone=host_timezone)
                Seat.objects.create(room=room, player=player)
                RoomEvent.objects.create(room=room, kind="create", version=0)
                return room
        except IntegrityError:  # a code collision: draw again
            continue
    raise RoomError("Could not create a room, please try again.")


def overdue_state(room: Room, now) -> str | None:
    """Why a room should already have moved on (pages treat overdue rooms the same way)."""
    if room.state == Room.State.LOBBY and room.scheduled_for is not None:
        if now > room.scheduled_for + SCHEDULED_GRACE:
            return "expired:The host did not start the scheduled showdown within 30 minutes of its time."
    elif room.state == Room.State.LOBBY and now - room.last_activity > LOBBY_IDLE:
        return "expired:The lobby was idle for 30 minutes."
    if room.state == Room.State.FINISHED and room.finished_at and now - room.finished_at > RESULTS_KEPT:
        return "expired:Final results are kept for 24 hours."
    if room.state in (Room.State.COUNTDOWN, Room.State.PLAYING) and room.starts_at and now - room.starts_at > SAFETY_LIMIT:
        return "finish"
    deadline = getattr(game_for(room), "deadline", None)
    if room.state in (Room.State.COUNTDOWN, Room.State.PLAYING) and deadline and deadline(room) and now >= deadline(room):
        return "finish"  # a timed duel (Domino: 10 minutes), even with nobody connected
    if room.state == Room.State.COUNTDOWN and room.starts_at and now >= room.starts_at:
        return "play"
    return None


def perform(code: str, player, action, now=None, message_id: str = "") -> Result:
    now = now or timezone.now()
    with transaction.atomic():
        room = (Room.objects.select_for_update(of=("self",)).select_related("puzzle")
                .filter(code=normalize_code(code)).first())
        if room is None:
            raise RoomNotFound("No room has that code. Check the code and try again.")
        if message_id and RoomEvent.objects.filter(room=room, message_id=message_id,
                                                   seat__player=player).exists():
            return Result(room, _seat(room, player), changed=False, duplicate=True)
        seats = list(room.seats.select_related("player"))
        seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
        advanced = _advance(room, seats, now)
        handler = _HANDLERS[type(action)]
        result = handler(room, seats, seat, player, action, now)
        result.changed = result.changed or advanced
        result.seats = seats
        if result.changed:
            if room.state == Room.State.PLAYING and all(s.status != Seat.Status.PLAYING for s in seats):
                _finish(room, seats, now)
            room.version += 1
            room.save()
            RoomEvent.objects.create(room=room, seat=result.seat, kind=type(action).__name__.lower(),
                                     data=_event_data(action, result), message_id=message_id,
                                     version=room.version)
            # robust: the move is committed whatever happens to the push. If Redis is down,
            # the player still gets an answer (not a 500) and others resync on reconnect.
            transaction.on_commit(lambda: _push(room, seats, result), robust=True)
        return result


def _seat(room, player):
    return room.seats.filter(player=player).first() if player is not None else None


def _event_data(action, result) -> dict:
    data = {k: v for k, v in vars(action).items() if isinstance(v, (int, str, bool, type(None)))}
    if isinstance(action, A.SetRules):
        data["rules"] = action.rules.to_dict()
    if result.outcome is not None:
        data["outcome"] = result.outcome.kind
    return data


def _push(room, seats, result):
    from .push import push_room_update  # import late: push renders templates

    if result.outcome is not None and result.outcome.kind == "note":
        return  # pencil marks are private: nothing changes for anyone else
    # A board move that left the room running only changes the shared standings.
    board_only = result.outcome is not None and room.state == Room.State.PLAYING
    push_room_update(room.code, board_only=board_only, room=room, seats=seats)


def _advance(room, seats, now) -> bool:
    due = overdue_state(room, now)
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


def standings(room, seats):
    """Places for the room's seats, by the game type's ranking rules."""
    return game_for(room).rank(room, seats) if room.starts_at else []


def _finish(room, seats, now):
    room.state = Room.State.FINISHED
    room.finished_at = now
    game = game_for(room)
    if hasattr(game, "close"):
        game.close(room, seats, now)  # a timed duel ends the games still running
    for place, seat in standings(room, seats):
        seat.place = place
        seat.save(update_fields=["place"])
        ShowdownResult.objects.get_or_create(
            player=seat.player, room_code=room.code,
            defaults=dict(game=room.game, placement=place, player_count=len(seats),
                          difficulty=room.level if getattr(game, "has_level", True) else "",
                          preset=game.preset(room), status=seat.status, seconds=seat.finish_seconds,
                          score=seat.score, mistakes=seat.mistakes, hints=seat.hints, finished_at=now))


# --- handlers -----------------------------------------------------------------------

def _require_seat(seat):
    if seat is None:
        raise NotAllowed("You are watching this room: only seated players can do that.")


def _require_host(room, player):
    if room.host_id is None or player is None or room.host_id != player.pk:
        raise NotAllowed("Only the host can do that.")


def _require_lobby(room, what="That"):
    if room.state == Room.State.EXPIRED:
        raise RoomError(f"This room has expired. {room.expiry_reason}".strip())
    if room.state != Room.State.LOBBY:
        raise RoomError(f"{what} is only possible in the lobby, before the countdown.")


def _join(room, seats, seat, player, action, now):
    if seat is not None:
        return Result(room, seat, changed=False)
    if room.state == Room.State.EXPIRED:
        raise RoomError("This room has expired.")
    if room.state != Room.State.LOBBY:
        raise RoomError("This showdown has already started: you can watch, but not join.")
    if len(seats) >= MAX_PLAYERS:
        raise RoomError(f"This room is full: {MAX_PLAYERS} players at most.")
    seat = Seat.objects.create(room=room, player=player)
    seats.append(seat)
    if room.host_id is None:
        room.host = player
    return Result(room, seat)


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
    if room.state not in (Room.State.COUNTDOWN, Room.State.PLAYING):
        raise RoomError("There is no running game to forfeit.")
    if seat.status != Seat.Status.PLAYING:
        return Result(room, seat, changed=False)
    game_for(room).leave(seat)
    seat.save()
    return Result(room, seat)


def ready_room_opens(room):
    return room.scheduled_for - READY_ROOM_OPENS if room.scheduled_for else None


def _require_ready_room(room, now, what):
    opens = ready_room_opens(room)
    if opens is not None and now < opens:
        raise RoomError(f"{what} opens 15 minutes before the scheduled start "
                        f"({opens:%Y-%m-%d %H:%M} UTC).")


def _ready(room, seats, seat, player, action, now):
    _require_seat(seat)
    _require_lobby(room, "Changing your ready flag")
    _require_ready_room(room, now, "The ready room")
    if seat.ready == action.ready:
        return Result(room, seat, changed=False)
    seat.ready = action.ready
    seat.save(update_fields=["ready"])
    return Result(room, seat)


def _rules(room, seats, seat, player, action, now):
    _require_host(room, player)
    _require_lobby(room, "Changing the rules")
    if action.level is not None:
        room.level = action.level
    room.rules = action.rules.to_dict()
    # Any host change resets every ready flag: players agree to what they see.
    Seat.objects.filter(room=room).update(ready=False)
    for s in seats:
        s.ready = False
    return Result(room, seat)


def _start(room, seats, seat, player, action, now):
    _require_host(room, player)
    _require_lobby(room, "Starting")
    _require_ready_room(room, now, "Starting the showdown")
    if len(seats) < MIN_PLAYERS:
        raise RoomError(f"At least {MIN_PLAYERS} players are needed to start.")
    waiting = [s.player.display_name for s in seats if not s.ready]
    if waiting:
        raise RoomError("Not everyone is ready yet: waiting for " + ", ".join(waiting) + ".")
    room.starts_at = now + timedelta(seconds=settings.COUNTDOWN_SECONDS)  # duel clocks start here
    for s in seats:
        s.status = Seat.Status.PLAYING
    game_for(room).start(room, seats)
    for s in seats:
        s.save()
    room.state = Room.State.COUNTDOWN
    return Result(room, seat)


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
        raise RoomError("Wait for the countdown to end.")
    if room.state != Room.State.PLAYING:
        raise RoomError("The showdown is not running." if room.state != Room.State.LOBBY
                        else "The showdown has not started yet.")
    if seat.status == Seat.Status.LEFT:
        raise RoomError("You left this showdown.")
    outcome = game_for(room).apply(room, seat, action, now)
    if seat.status == Seat.Status.FINISHED and seat.finish_seconds is None:
        seat.finish_seconds = (now - room.starts_at).total_seconds()
    seat.save()
    # A view-only action (a duel's joker mode or helper toggle) changes nothing for others.
    return Result(room, seat, outcome, changed=getattr(outcome, "changed", True))


_HANDLERS = {
    A.Join: _join, A.Leave: _leave, A.Forfeit: _forfeit, A.SetReady: _ready, A.SetRules: _rules,
    A.Start: _start, A.Sync: _sync, A.Expire: _expire_action,
    A.Enter: _board, A.Note: _board, A.Hint: _board, A.GameMove: _board,
}

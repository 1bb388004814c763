"""Each action's handler, and `HANDLERS`, the table rooms/rules.py `apply` dispatches
through: the lobby's (join, leave, kick, ready, the host's rules and Start), the scheduled
showdown's (the guest list, reminders, the host moving or cancelling it), forfeits, expiry
and board moves (judged by the game type). Apart from rules.py, which keeps what is around
every action (what time makes due, the finish, the log entry and who hears it), so that
adding an action is a handler here and a line in the table. A handler checks who may do
what and when, raises a refusal (rooms/result.py) or changes the room and seats in memory;
lobby and guest-list handlers write their own rows (they only run on the locked path)."""

from datetime import timedelta

from django.conf import settings

from games.engines.text import Sentences, _
from players.identity import set_name
from players.models import Profile

from . import actions as A
from .gametypes import game_for
from .lifecycle import RUNNING, SCHEDULE_AHEAD, ready_room_opens
from .models import MAX_PLAYERS, MIN_PLAYERS, Guest, Room, RoomEvent, Seat
from .result import NotAllowed, Result, RoomError


def expire(room, reason, now):
    """The room ends unplayed: by time (rules.apply's due moments), the Expire action or the
    host's Cancel."""
    room.state = Room.State.EXPIRED
    room.expired_at = now
    room.expiry_reason = reason


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
    game_for(room).start(room, seats)  # the locked path saves the seats with the room (store.save)
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
    expire(room, CANCELLED, now)
    return Result(room, seat)


CANCELLED = _("The host cancelled this showdown.")


def _sync(room, seats, seat, player, action, now):
    return Result(room, seat, changed=False)


def _expire_action(room, seats, seat, player, action, now):
    if room.state == Room.State.EXPIRED:
        return Result(room, seat, changed=False)
    expire(room, action.reason, now)
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


HANDLERS = {
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
    A.GameMove: _board,  # every game type's board moves (GameType.parse)
}

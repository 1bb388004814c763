"""Which reminders are due, and sending each at most once (docs/rules.md 1, "Scheduled showdowns").

Kinds: `ready` (the ready room opens, 15 minutes before), `start` (the host started), `moved`
and `cancelled` (the host changed the schedule). A reminder is due for a room's current
schedule only (its `schedule_sequence`): one queued for a time the host has since moved is
refused when it is claimed. Claiming writes the Reminder row under the room's row lock,
and only the caller that wrote it sends: a second beat, a redelivered task or a worker
racing this one finds the row (the unique constraint) and sends nothing. A claim whose
sending then fails is not retried: at most once, never twice. A reminder whose delivery
crashes is marked failed and the run goes on (issue 45)."""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from rooms.lifecycle import READY_ROOM_OPENS, RUNNING, SCHEDULED_GRACE
from rooms.models import Guest, Room, RoomEvent

from . import webpush
from .models import Reminder

logger = logging.getLogger(__name__)

START_WINDOW = dt.timedelta(minutes=15)  # a start reminder later than this is stale: not sent
CHANGE_WINDOW = dt.timedelta(days=1)  # a cancellation is told for a day
# A guest hears of moves at most this often (issue 45 item 7: a showdown moved every 16 s sent
# a mail per move). A move within it is told later, with the time as it is then.
MOVED_EVERY = dt.timedelta(minutes=10)


@dataclass(frozen=True)
class Due:
    room_id: int
    kind: str
    sequence: int


def due(now) -> list[Due]:
    """Every (room, kind, schedule) that has reminders due at `now` (cheap queries; the
    claim checks each again under the room's lock)."""
    lobby = Room.objects.filter(state=Room.State.LOBBY, scheduled_for__isnull=False, cancelled_at__isnull=True)
    found = [
        Due(pk, Reminder.Kind.READY, seq)
        for pk, seq in lobby.filter(
            scheduled_for__lte=now + READY_ROOM_OPENS, scheduled_for__gt=now - SCHEDULED_GRACE
        ).values_list("pk", "schedule_sequence")
    ]
    found += [
        Due(pk, Reminder.Kind.MOVED, seq)
        for pk, seq in lobby.filter(schedule_sequence__gt=0, scheduled_for__gt=now).values_list(
            "pk", "schedule_sequence"
        )
    ]
    started = Room.objects.filter(scheduled_for__isnull=False, state__in=RUNNING, starts_at__gt=now - START_WINDOW)
    found += [Due(pk, Reminder.Kind.START, seq) for pk, seq in started.values_list("pk", "schedule_sequence")]
    cancelled = Room.objects.filter(cancelled_at__gt=now - CHANGE_WINDOW)
    found += [Due(pk, Reminder.Kind.CANCELLED, seq) for pk, seq in cancelled.values_list("pk", "schedule_sequence")]
    return found


def still_due(room, kind: str, sequence: int, now) -> bool:
    """The room as it is now (locked) still wants this reminder for this schedule."""
    if room.schedule_sequence != sequence or room.scheduled_for is None:
        return False
    lobby = room.state == Room.State.LOBBY and room.cancelled_at is None
    if kind == Reminder.Kind.READY:
        return lobby and room.scheduled_for - READY_ROOM_OPENS <= now < room.scheduled_for + SCHEDULED_GRACE
    if kind == Reminder.Kind.MOVED:
        return lobby and sequence > 0 and room.scheduled_for > now
    if kind == Reminder.Kind.START:
        return room.state in RUNNING and room.starts_at is not None and room.starts_at > now - START_WINDOW
    if kind == Reminder.Kind.CANCELLED:
        return room.cancelled_at is not None and room.cancelled_at > now - CHANGE_WINDOW
    return False


def recipients(room, kind: str) -> list[tuple[Guest, str]]:
    """(guest, channel) for every channel a coming guest picked. A move is told to the
    guests who answered before it (the others saw the new time when they answered)."""
    guests = Guest.objects.filter(room=room, coming=True).select_related("player__account")
    if kind == Reminder.Kind.MOVED:
        moved = RoomEvent.objects.filter(room=room, kind="reschedule").order_by("-version").first()
        if moved is not None:
            guests = guests.filter(answered_at__lte=moved.created_at)
    pairs: list[tuple[Guest, str]] = []
    for guest in guests:
        if guest.by_push:
            pairs.append((guest, Reminder.Channel.PUSH))
        if guest.by_email and email_of(guest):
            pairs.append((guest, Reminder.Channel.EMAIL))
    return pairs


def email_of(guest) -> str:
    account = guest.player.account if guest.player.account_id else None
    return (account.email or "") if account is not None else ""


def claim(item: Due, guest, channel: str, now) -> Reminder | None:
    """Write the reminder's row if it is still due and nobody has: the one who writes it sends."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=item.room_id).first()
        if room is None or not still_due(room, item.kind, item.sequence, now):
            return None
        try:
            with transaction.atomic():
                return Reminder.objects.create(
                    room=room, guest=guest, channel=channel, kind=item.kind, sequence=item.sequence
                )
        except IntegrityError:
            return None  # claimed already: by an earlier run, or one racing this one


def send_due(item: Due, now=None) -> int:
    """Claim and send every reminder of one due (room, kind, schedule); how many went out."""
    now = now or timezone.now()
    room = Room.objects.filter(pk=item.room_id).first()
    if room is None:
        return 0
    claimed = set(
        Reminder.objects.filter(room=room, kind=item.kind, sequence=item.sequence).values_list("guest_id", "channel")
    )
    if item.kind == Reminder.Kind.MOVED:  # told of a move lately: this one waits its turn
        claimed |= set(
            Reminder.objects.filter(room=room, kind=item.kind, created_at__gt=now - MOVED_EVERY).values_list(
                "guest_id", "channel"
            )
        )
    sent = 0
    for guest, channel in recipients(room, item.kind):
        if (guest.pk, channel) in claimed:
            continue
        reminder = claim(item, guest, channel, now)
        if reminder is None:
            continue
        try:
            sent += deliver(reminder, room, guest)
        except Exception as error:  # any: a claimed reminder is never left claimed, nor the run stopped
            logger.exception("reminder %s to guest %s crashed", reminder.pk, guest.pk)
            Reminder.objects.filter(pk=reminder.pk).update(
                status=Reminder.Status.FAILED, detail=repr(error)[:200], sent_at=timezone.now()
            )
    return sent


def send_all(now=None) -> int:
    now = now or timezone.now()
    return sum(send_due(item, now) for item in due(now))


# --- the message ------------------------------------------------------------------------------


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def when_text(room, guest) -> str:
    """The start in the guest's zone (from their browser) and, when it differs, the host's."""
    host_zone = _zone(room.host_timezone)
    guest_zone = _zone(guest.time_zone) if guest.time_zone else host_zone

    def at(zone):
        # The room page's format (rooms.presenters.WHEN_FORMAT): "M" would capitalise Dutch months.
        return formats.date_format(room.scheduled_for.astimezone(zone), "D j F Y, H:i")

    if str(guest_zone) == str(host_zone):
        return _("%(time)s (%(zone)s)") % {"time": at(host_zone), "zone": host_zone}
    return _("%(time)s your time (%(zone)s); host's time %(host_time)s (%(host_zone)s)") % {
        "time": at(guest_zone),
        "zone": guest_zone,
        "host_time": at(host_zone),
        "host_zone": host_zone,
    }


def message(room, guest, kind: str) -> dict:
    """Title, body and the room's path, in the guest's language."""
    with translation.override(guest.language or settings.LANGUAGE_CODE):
        code, when = room.code, when_text(room, guest)
        if kind == Reminder.Kind.READY:
            title = _("Room %(code)s: the ready room is open") % {"code": code}
            body = _("The showdown starts %(when)s. Take a seat and mark yourself ready.") % {"when": when}
        elif kind == Reminder.Kind.START:
            title = _("Room %(code)s: the host started the showdown") % {"code": code}
            body = _("It is under way: watch the live standings.")
        elif kind == Reminder.Kind.MOVED:
            title = _("Room %(code)s: the showdown moved") % {"code": code}
            body = _("The host moved it to %(when)s.") % {"when": when}
        else:
            title = _("Room %(code)s: the showdown is cancelled") % {"code": code}
            body = _("The host cancelled the showdown of %(when)s.") % {"when": when}
    return {"title": title, "body": body, "url": reverse("room", args=[code]), "tag": f"showdown-{code}"}


def deliver(reminder: Reminder, room, guest) -> int:
    """Send a claimed reminder through its channel and record how it went (1 if it went out)."""
    status, detail = send_text(guest.player, reminder.channel, message(room, guest, reminder.kind), email_of(guest))
    Reminder.objects.filter(pk=reminder.pk).update(status=status, detail=detail, sent_at=timezone.now())
    return int(status == Reminder.Status.SENT)


def send_text(player, channel: str, text: dict, address: str = "") -> tuple[str, str]:
    """One message (title, body, url, tag) to a player through one channel: (status, detail).
    Shared with the arenas' reminders (arenas/reminders.py)."""
    if channel == Reminder.Channel.PUSH:
        # Each send is on its own and never raises (webpush.send): one bad browser stops nothing.
        results = [webpush.send(sub, text) for sub in player.push_subscriptions.all()]
        status = (
            Reminder.Status.SENT
            if "sent" in results
            else Reminder.Status.FAILED
            if {"failed", "refused"} & set(results)
            else Reminder.Status.NOWHERE
        )
        return status, ", ".join(results)
    body = f"{text['body']}\n\n{(settings.SITE_URL or '').rstrip('/')}{text['url']}\n"
    try:
        send_mail(text["title"], body, settings.DEFAULT_FROM_EMAIL, [address])
        return Reminder.Status.SENT, ""
    except OSError as error:  # smtplib's errors are OSErrors
        logger.warning("reminder email to player %s failed: %s", player.pk, error)
        return Reminder.Status.FAILED, str(error)[:200]

"""An arena's reminders (docs/rules.md 12), as a scheduled showdown's guests have them: a player
who joined before the start picks push (this browser) or email, and hears when the arena starts
in 15 minutes and when it has started. Sent through notify's channels (notify.reminders.send_text);
each at most once per entry and kind: claiming is one conditional UPDATE of the entry's
`reminded`, and only the caller that changed it sends (a second job run finds it done)."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from notify.reminders import _zone, send_text
from rooms.lifecycle import READY_ROOM_OPENS

from .models import Entry

logger = logging.getLogger(__name__)

SOON, STARTED = 1, 2
START_WINDOW = dt.timedelta(minutes=15)  # a "started" reminder later than this is stale


def kind_due(starts_at, now) -> int:
    """Which reminder an arena's start makes due at `now` (0: none)."""
    if starts_at - READY_ROOM_OPENS <= now < starts_at:
        return SOON
    if starts_at <= now < starts_at + START_WINDOW:
        return STARTED
    return 0


def due(now) -> list[Entry]:
    """Entries with a channel picked whose arena starts within 15 minutes or started lately,
    and who have not heard of it yet (the claim checks again)."""
    return list(
        Entry.objects.filter(
            Q(by_push=True) | Q(by_email=True),
            arena__starts_at__lte=now + READY_ROOM_OPENS,
            arena__starts_at__gt=now - START_WINDOW,
            reminded__lt=STARTED,
        )
        .exclude(state=Entry.State.WITHDRAWN)
        .select_related("arena", "player__account")
    )


def claim(entry: Entry, kind: int) -> bool:
    """The one caller whose UPDATE moves `reminded` up to `kind` sends; a late "soon" is
    skipped once the arena has started (the claim of "started" covers both)."""
    return Entry.objects.filter(pk=entry.pk, reminded__lt=kind).update(reminded=kind) == 1


def message(entry: Entry, kind: int) -> dict:
    arena = entry.arena
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        zone = _zone(entry.time_zone)
        when = formats.date_format(arena.starts_at.astimezone(zone), "H:i")
        level = arena.get_level_display()
        if kind == SOON:
            title = _("Arena %(level)s: it starts at %(time)s (%(zone)s)") % {
                "level": level,
                "time": when,
                "zone": zone,
            }
            body = _("Open the arena's page before the start: you are paired as soon as it begins.")
        else:
            title = _("Arena %(level)s: it has started") % {"level": level}
            body = _("Open the arena's page to be paired into your first room.")
    return {"title": title, "body": body, "url": reverse("arena", args=[arena.code]), "tag": f"arena-{arena.code}"}


def send_all(now=None) -> int:
    """Every arena reminder due now, each claimed once; how many went out."""
    now = now or timezone.now()
    sent = 0
    for entry in due(now):
        kind = kind_due(entry.arena.starts_at, now)
        if not kind or entry.reminded >= kind or not claim(entry, kind):
            continue
        text = message(entry, kind)
        account = entry.player.account
        address = account.email if account is not None else ""
        channels = [c for c, on in (("push", entry.by_push), ("email", entry.by_email and address)) if on]
        for channel in channels:
            try:
                status, detail = send_text(entry.player, channel, text, address or "")
            except Exception:  # any: the other guests still hear
                logger.exception("arena reminder to entry %s crashed", entry.pk)
                continue
            sent += int(status == "sent")
            if status != "sent":
                logger.info("arena reminder to entry %s by %s: %s %s", entry.pk, channel, status, detail)
    return sent

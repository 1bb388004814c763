"""Race now (docs/rules.md 9): asking to race, the pool's tick that forms public rooms, and
what the waiting page shows. The pool's state is its PoolEntry rows, so any process can run
a level's tick and a restarted one finds everyone still waiting.

One tick per level at a time: a turn in the cache (Redis with REDIS_URL: SET NX with a
1 s expiry), taken by whichever request comes first (an ask, or a waiting page's poll) and
left to run out, so a level pairs at most once a second across every process. The rows are
the fence behind it: a tick locks the waiting rows it pairs (skipping rows another tick
holds), so nobody is ever seated twice, even by two ticks at once.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players.identity import record_filter, record_profiles
from replays.ghosts import choose as choose_ghosts
from rooms import actions as A
from rooms import api
from rooms.models import Room, RoomEvent, RoomResult, Seat
from stats import ratings

from . import counts, pairing
from .models import PoolEntry

logger = logging.getLogger(__name__)

LEVELS = A.LEVELS
ANY = "any"
SEEN_SECONDS = 20  # a waiting page that has not asked for this long was closed: stop waiting
TURN_SECONDS = 1  # a level pairs at most once a second (its waiting pages' polls)
ORPHAN_SECONDS = 5  # a public room still in its lobby this long after it was formed lost its start
COUNT_SECONDS = 2  # the home page's counts are refreshed at most this often per level
LEAVES, LEAVES_WINDOW, PENALTY = 3, dt.timedelta(hours=1), dt.timedelta(minutes=5)
RECENT = 10  # the results an open-band player's key is read from
ACTIVE = (Room.State.LOBBY, Room.State.COUNTDOWN, Room.State.PLAYING)


class PoolRefused(api.RoomError):
    """Asking to race was refused; the message says why and what to do."""


def who(player) -> int:
    """What "the same player" means for pairing: the account, else the browser's profile."""
    return player.account_id if player.account_id else -player.pk


# --- the player's key -------------------------------------------------------------------------


def key_of(player, now) -> tuple[str, float]:
    """(band, key): an established rating pairs by its number; anonymous and provisional
    players by their recent results (the share of opponents beaten in their last 10 rooms,
    1300 for none beaten to 1700 for all, 1500 with none played), on the same scale."""
    if player.account_id:
        shown = ratings.current_rating(player.account_id, now)
        if shown is not None and not shown.provisional:
            return pairing.RATED, float(shown.number)
    results = RoomResult.objects.filter(record_filter(player), game="showdown", player_count__gte=2)
    recent = list(results.order_by("-finished_at").values_list("placement", "player_count")[:RECENT])
    if not recent:
        return pairing.OPEN, 1500.0
    beaten = sum((count - place) / (count - 1) for place, count in recent) / len(recent)
    return pairing.OPEN, 1300.0 + 400.0 * beaten


# --- asking and leaving -----------------------------------------------------------------------


def penalty_until(player, now) -> dt.datetime | None:
    """Three public races left in an hour keep a player out of the pool for 5 minutes after
    the last of them."""
    left = list(
        RoomEvent.objects.filter(
            room__public=True,
            kind__in=("leave", "forfeit"),
            seat__player__in=record_profiles(player),
            created_at__gte=now - LEAVES_WINDOW - PENALTY,
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:LEAVES]
    )
    if len(left) < LEAVES or left[0] - left[-1] > LEAVES_WINDOW:
        return None
    until = left[0] + PENALTY
    return until if until > now else None


def busiest_level() -> str:
    """ "Any level" joins the level with the most players waiting (Medium when none wait)."""
    counts = dict(
        PoolEntry.objects.filter(state=PoolEntry.State.WAITING)
        .values_list("level")
        .annotate(n=Count("id"))
        .values_list("level", "n")
    )
    return max(LEVELS, key=lambda level: (counts.get(level, 0), level == "medium"))


def ask(player, level: str, now=None) -> PoolEntry:
    """Put `player` in `level`'s pool (or "any": the busiest). Raises PoolRefused."""
    now = now or timezone.now()
    if level == ANY:
        level = busiest_level()
    if level not in LEVELS:
        raise PoolRefused(_("Pick a level to race at: Easy, Medium, Hard, Expert or any level."))
    until = penalty_until(player, now)
    if until is not None:
        wait = max(1, round((until - now).total_seconds()))
        raise PoolRefused(
            _("You left three public races in the last hour: you can race again in %(m)d:%(s)02d (at %(at)s UTC).")
            % {"m": wait // 60, "s": wait % 60, "at": f"{until:%H:%M}"}
        )
    racing = Q(room__state__in=ACTIVE[1:]) | Q(room__public=True, room__state=Room.State.LOBBY)
    if Seat.objects.filter(record_filter(player), racing, status=Seat.Status.PLAYING).exists():
        raise PoolRefused(_("You are already in a race: finish or leave it first."))
    from arenas.service import busy

    if busy(player):  # one pool at a time (docs/rules.md 12)
        raise PoolRefused(_("You are in an arena: pause it there first."))
    band, key = key_of(player, now)
    last = (
        PoolEntry.objects.filter(record_filter(player), state=PoolEntry.State.SEATED)
        .order_by("-asked_at")
        .values_list("last_opponents", flat=True)
        .first()
    )
    try:
        with transaction.atomic():
            entry = PoolEntry.objects.create(
                player=player,
                account_id=player.account_id,
                level=level,
                band=band,
                key=key,
                asked_at=now,
                seen_at=now,
                last_opponents=last or [],
            )
    except IntegrityError:  # already waiting, here or in another browser of the account
        raise PoolRefused(_("You are already waiting for a race (maybe in another tab or browser).")) from None
    tick(level, now, force=True)  # a third asking starts a race at once, whoever's turn it is
    return entry


def cancel(player, now=None) -> bool:
    """Leave the pool (free at any moment). False when the player was not waiting."""
    return bool(
        PoolEntry.objects.filter(record_filter(player), state=PoolEntry.State.WAITING).update(
            state=PoolEntry.State.GONE
        )
    )


def current(player) -> PoolEntry | None:
    """The player's latest entry (waiting, or seated, or gone), if any."""
    return PoolEntry.objects.filter(record_filter(player)).select_related("room").order_by("-asked_at", "-pk").first()


def seen(entry: PoolEntry, now) -> None:
    """The waiting page asked: the player is still there (written at most every 5 s)."""
    if entry.state == PoolEntry.State.WAITING and now - entry.seen_at >= dt.timedelta(seconds=5):
        PoolEntry.objects.filter(pk=entry.pk, state=PoolEntry.State.WAITING).update(seen_at=now)
        entry.seen_at = now


# --- the tick ---------------------------------------------------------------------------------


def _turn(level: str) -> bool:
    try:
        return bool(cache.add(f"pool:turn:{level}", uuid.uuid4().hex, TURN_SECONDS))
    except Exception:  # the cache (Redis) is away: pair anyway, the rows' locks still fence
        logger.warning("pool turn unavailable", exc_info=True)
        return True


def tick(level: str, now=None, force: bool = False) -> list[str]:
    """Pair `level`'s waiting players once (if it is this process's turn, or `force`): seat
    each group in a new public room and start its countdown. Returns the rooms' codes."""
    if not force and not _turn(level):
        return []
    now = now or timezone.now()
    formed: list[str] = []
    with transaction.atomic():
        PoolEntry.objects.filter(
            level=level, state=PoolEntry.State.WAITING, seen_at__lt=now - dt.timedelta(seconds=SEEN_SECONDS)
        ).update(state=PoolEntry.State.GONE)
        entries = {
            e.pk: e
            for e in PoolEntry.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(level=level, state=PoolEntry.State.WAITING)
            .select_related("player")
        }
        result = pairing.pair(
            [
                pairing.Waiting(e.pk, who(e.player), e.key, e.band, e.asked_at.timestamp(), frozenset(e.last_opponents))
                for e in entries.values()
            ],
            now.timestamp(),
        )
        for group in result.groups:
            formed.append(_seat([entries[w.entry] for w in group], level, now))
        if result.ghosted:  # alone for 15 s: ghosts fill the room, when that level has any
            members = [entries[w.entry] for w in result.ghosted]
            puzzle, ghosts = choose_ghosts(level, [m.player for m in members], pairing.MIN_START - len(members))
            if ghosts:
                formed.append(_seat(members, level, now, puzzle=puzzle, ghosts=ghosts))
    cache.set(f"pool:starts:{level}", result.starts, 60)
    # The rooms are made in their countdown (_seat). A public room left in its lobby (made the
    # older way, a creation and then a start, by a process that crashed between the two) is
    # started here; only rooms older than ORPHAN_SECONDS count as left.
    orphans = Room.objects.filter(
        public=True, state=Room.State.LOBBY, level=level, created_at__lt=now - dt.timedelta(seconds=ORPHAN_SECONDS)
    )
    for code in orphans.values_list("code", flat=True):
        try:
            api.act(code, None, A.Start(), now=now)
        except api.RoomError as error:  # started meanwhile by another tick: nothing to do
            logger.info("public room %s not started here: %s", code, error)
    if cache.add(f"pool:counted:{level}", 1, COUNT_SECONDS):  # a count at most every 2 s per level
        refresh_count(level)
    return formed


def _seat(members: list[PoolEntry], level: str, now, **room_fields) -> str:
    """A public room for `members`, made in its countdown (one trip: create_public_room `start`)."""
    room = api.create_public_room([m.player for m in members], level, now, start=now, **room_fields)
    ids = [who(m.player) for m in members]
    for m in members:
        m.state, m.room = PoolEntry.State.SEATED, room
        m.last_opponents = [i for i in ids if i != who(m.player)]
    PoolEntry.objects.bulk_update(members, ["state", "room", "last_opponents"])
    return room.code


def refresh_count(level: str) -> None:
    waiting = PoolEntry.objects.filter(level=level, state=PoolEntry.State.WAITING).count()
    racing = Seat.objects.filter(room__public=True, room__level=level, room__state__in=ACTIVE[1:]).count()
    counts.write(level, waiting, racing)


# --- the waiting page -------------------------------------------------------------------------


@dataclass
class WaitingView:
    entry: PoolEntry
    others: list  # (display name, rating or None) of those waiting at the level, the player first
    starts_in: int | None  # seconds until this player's pair starts, when two wait


def waiting_view(entry: PoolEntry, now) -> WaitingView:
    people = list(
        PoolEntry.objects.filter(level=entry.level, state=PoolEntry.State.WAITING)
        .select_related("player")
        .order_by("asked_at")[:12]
    )
    people.sort(key=lambda e: e.pk != entry.pk)
    shown = []
    for e in people:
        rating = e.key if e.band == pairing.RATED else None
        shown.append((e.player.display_name, round(rating) if rating is not None else None, e.pk == entry.pk))
    start = (cache.get(f"pool:starts:{entry.level}") or {}).get(entry.pk)
    starts_in = max(0, round(start - now.timestamp())) if start is not None else None
    return WaitingView(entry, shown, starts_in)

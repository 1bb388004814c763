"""Arenas (docs/rules.md 12): joining, pausing, berserk, the tick that scores finished rooms and
pairs the waiting, the table, and the site's schedule. Rooms are made and started through the
rooms' way in (rooms.api), as the pool's are; the arena's state is its rows."""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.common.zones import time_zones
from rooms import actions as A
from rooms import api
from rooms.models import Room, RoomResult
from stats.models import Rating

from . import pairing, scoring
from .models import Arena, ArenaRoom, Entry
from .seats import push_seated
from .table import push_table

logger = logging.getLogger(__name__)

LENGTHS = (30, 60, 90)
LEAVES_OUT = 3  # rooms left before a player is withdrawn
RECENT = 8
# A room of the arena this late moving on by itself (its start failed, or its owner's clock
# missed the moment) is moved on by the tick: past the write-behind's lag (rooms/timers.py).
NUDGE_AFTER = dt.timedelta(seconds=5)
NUDGE_BUDGET_SECONDS = 2.0  # the tick's pairing waits for its nudges no longer than this


class ArenaRefused(api.RoomError):
    """An arena action refused; the message says why."""


def state_of(arena: Arena, now) -> str:
    if now < arena.starts_at:
        return "upcoming"
    return "running" if now < arena.ends_at else "finished"


# --- a player's actions -------------------------------------------------------------------------


def join(arena: Arena, player, now=None, zone: str = "", language: str = "") -> Entry:
    """Join (or come back from a pause). Before the start, the joined are the arena's guest
    list; `zone` and `language` are what its reminders use (arenas/reminders.py)."""
    now = now or timezone.now()
    if player is None or player.pk in (None, 0) or player.account_id is None:
        raise ArenaRefused(_("Sign in to join an arena: its rooms are rated."))
    if state_of(arena, now) == "finished":
        raise ArenaRefused(_("This arena has finished."))
    from pool.models import PoolEntry

    if PoolEntry.objects.filter(player__account_id=player.account_id, state=PoolEntry.State.WAITING).exists():
        raise ArenaRefused(_("You are waiting for a public race: cancel it first."))
    found = Entry.objects.filter(arena=arena, account_id=player.account_id).first()
    if found is not None:
        if found.state == Entry.State.WITHDRAWN:
            raise ArenaRefused(_("You were withdrawn from this arena after leaving three rooms."))
        if found.state == Entry.State.PAUSED:
            found.state, found.waiting_since = Entry.State.WAITING, now
            found.save(update_fields=["state", "waiting_since"])
            return found
        raise ArenaRefused(_("You are in this arena already."))
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                arena=arena,
                player=player,
                account_id=player.account_id,
                waiting_since=now,
                state=Entry.State.WAITING,
                time_zone=zone if zone in time_zones() else "",
                language=language[:8],
            )
            changed(arena)
            return entry
    except IntegrityError:
        raise ArenaRefused(_("You are in this arena already.")) from None


def entry_of(arena: Arena, player) -> Entry | None:
    account_id = getattr(player, "account_id", None)
    return Entry.objects.filter(arena=arena, account_id=account_id).first() if account_id else None


def pause(arena: Arena, player, now=None) -> Entry | None:
    """Stop being paired (a room being raced is finished first); join again to come back.
    Before the start it takes the player off the guest list (nothing raced yet: no row kept)."""
    entry = entry_of(arena, player)
    if entry is None or entry.state == Entry.State.WITHDRAWN:
        raise ArenaRefused(_("You are not in this arena."))
    if state_of(arena, now or timezone.now()) == "upcoming":
        entry.delete()
        changed(arena)
        return None
    if entry.state == Entry.State.WAITING:
        entry.state = Entry.State.PAUSED
        entry.save(update_fields=["state"])
    return entry


def set_berserk(arena: Arena, player, on: bool) -> Entry:
    entry = entry_of(arena, player)
    if entry is None or entry.state == Entry.State.WITHDRAWN:
        raise ArenaRefused(_("You are not in this arena."))
    if entry.state == Entry.State.RACING:
        raise ArenaRefused(_("Berserk is chosen before a room's countdown: choose it for your next room."))
    entry.berserk = on
    entry.save(update_fields=["berserk"])
    return entry


def remind(arena: Arena, player, channel: str, on: bool) -> Entry:
    """A joined player picks how to hear of the start (push in their browsers, email when
    their account has an address), until the arena has started."""
    entry = entry_of(arena, player)
    if entry is None or entry.state == Entry.State.WITHDRAWN:
        raise ArenaRefused(_("Reminders are for the arena's players: join it first."))
    if state_of(arena, timezone.now()) != "upcoming":
        raise ArenaRefused(_("The arena has started: reminders are for its start."))
    if channel not in ("push", "email"):
        raise ArenaRefused(_("Pick push or email."))
    if on and channel == "email" and not getattr(player.account, "email", ""):
        raise ArenaRefused(_("Email reminders need a signed-in account with an email address."))
    setattr(entry, f"by_{channel}", on)
    entry.save(update_fields=[f"by_{channel}"])
    return entry


def changed(arena: Arena) -> None:
    """A change the table shows: its cached ranking is stale (arenas/table.py)."""
    Arena.objects.filter(pk=arena.pk).update(table_version=F("table_version") + 1)


def busy(player) -> bool:
    """Is the player in a running arena (waiting or racing)? The pool refuses them then."""
    account_id = getattr(player, "account_id", None)
    if account_id is None:
        return False
    now = timezone.now()
    return Entry.objects.filter(
        account_id=account_id,
        state__in=[Entry.State.WAITING, Entry.State.RACING],
        arena__starts_at__lte=now,
        arena__ends_at__gt=now,
    ).exists()


# --- the tick -------------------------------------------------------------------------------------


TURN_HOLD_SECONDS = 30  # a tick's turn outlives a crashed ticker no longer than this


def _turn(arena: Arena) -> str | None:
    """The arena's turn to tick, held until the tick is done (`_end_turn`): two processes'
    ticks at once split the waiting players between them (each skips the other's locked rows)
    and scored and paired the same moment twice."""
    token = uuid.uuid4().hex
    try:
        return token if cache.add(f"arena:turn:{arena.pk}", token, TURN_HOLD_SECONDS) else None
    except Exception:  # the cache (Redis) away: the rows' locks still fence
        logger.warning("arena turn unavailable", exc_info=True)
        return token


def _end_turn(arena: Arena, token: str) -> None:
    key = f"arena:turn:{arena.pk}"
    try:
        if cache.get(key) == token:
            cache.delete(key)
    except Exception:  # it expires by itself
        logger.warning("arena turn not released", exc_info=True)


def tick(arena: Arena, now=None, force: bool = False) -> list[str]:
    """Score the arena's finished rooms, then pair its waiting players into new rooms (one
    tick at a time across processes, unless `force`). Returns the new rooms' codes."""
    if force:
        return _tick(arena, now)
    token = _turn(arena)
    if token is None:
        return []
    try:
        return _tick(arena, now)
    finally:
        _end_turn(arena, token)


def settle(arena: Arena, player, now=None) -> bool:
    """The viewer's own room, finished, scored now (their page shows its points at once); the
    rest of a tick is left to the arena's tick. A page that ticked whole made its player wait
    for a round's rooms being made (bench/arena.py: GET /arena/ p99 28 s at 500 players)."""
    entry = entry_of(arena, player)
    if entry is None or entry.state != Entry.State.RACING or not entry.room_code:
        return False
    pending = (
        ArenaRoom.objects.filter(arena=arena, room__code=entry.room_code, scored=False, room__state__in=DONE)
        .values_list("pk", flat=True)
        .first()
    )
    if pending is None or not score_room(pending, now):
        return False
    push_table(arena)
    return True


def view_tick(arena: Arena, player) -> None:
    """What a page's request does for the arena: where each process ticks the arenas its pages
    show (ARENA_PAGE_TICK_SECONDS, arenas/live.py), it settles the viewer's own room; where
    nothing ticks but beat, the request ticks."""
    if settings.ARENA_PAGE_TICK_SECONDS > 0:
        settle(arena, player)
    else:
        tick(arena)


def _tick(arena: Arena, now=None) -> list[str]:
    now = now or timezone.now()
    if score_finished(arena, now):
        push_table(arena)  # now: the table does not wait for the new rooms' starts below
    formed: list[str] = []
    seated: dict[int, str] = {}  # account id -> its new room
    if state_of(arena, now) == "running" and now < arena.ends_at - dt.timedelta(
        seconds=settings.ARENA_NO_NEW_ROOM_SECONDS
    ):
        with transaction.atomic():
            entries = {
                e.pk: e
                for e in Entry.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(arena=arena, state=Entry.State.WAITING)
                .select_related("player")
            }
            ratings = dict(
                Rating.objects.filter(account_id__in=[e.account_id for e in entries.values()]).values_list(
                    "account_id", "shown"
                )
            )
            groups = pairing.pair(
                [
                    pairing.Waiting(
                        e.pk,
                        e.points,
                        float(ratings.get(e.account_id, 1500)),
                        (e.waiting_since or now).timestamp(),
                        frozenset(e.last_group),
                    )
                    for e in entries.values()
                ],
                now.timestamp(),
                settings.ARENA_REMATCH_SECONDS,
            )
            # The longest waiting first, at most ARENA_ROOMS_PER_TICK a tick: the rest wait a
            # second more, not every player of an arena's first round at once (2,000 players
            # are 400 rooms: their pages, room pages and sockets all at once collapsed both
            # processes, bench/arena.py).
            groups.sort(key=lambda members: min(w.since for w in members))
            for members in groups[: settings.ARENA_ROOMS_PER_TICK]:
                seats = [entries[w.entry] for w in members]
                # Dated when it starts, not at the tick's `now`: rooms scored during a long
                # tick finished after it, and a countdown dated before the finish of its
                # players' last room put them in two rooms at once (bench/arena.py).
                formed.append(_seat(arena, seats, max(now, timezone.now())))
                seated.update((e.account_id, formed[-1]) for e in seats)
    push_seated(arena.code, seated)  # the waiting pages go to their rooms: in the countdown
    # Last: a nudge waits for the rooms' owners, up to its budget, and the waiting players
    # waited with it when it came first (half of a tick's time at 500 players, bench/arena.py);
    # a room it ends is scored by the next tick.
    nudge(arena, now)
    return formed


def _seat(arena: Arena, members: list[Entry], now) -> str:
    """A room of the arena, made in its countdown (rooms.store.create_public_room `start`): in
    the tick's transaction, one trip each, not a creation and then a locked start each."""
    room = api.create_public_room(
        [m.player for m in members],
        arena.level,
        now,
        preset=arena.preset,
        arena=arena.code,
        ends_at=arena.ends_at,
        berserk=[m.player_id for m in members if m.berserk],
        start=now,
    )
    ArenaRoom.objects.create(arena=arena, room=room)
    ids = [m.pk for m in members]
    for m in members:
        m.state, m.room_code, m.last_group, m.berserk = Entry.State.RACING, room.code, ids, False
    Entry.objects.bulk_update(members, ["state", "room_code", "last_group", "berserk"])
    return room.code


DONE = (Room.State.FINISHED, Room.State.EXPIRED)


def nudge(arena: Arena, now) -> int:
    """The arena's rooms that did not move on by themselves, each moved on through the rooms'
    one write path (which checks the room again: a room that did move meanwhile is left as
    it is): one formed by a tick whose start failed (still in its lobby) is started; one past
    its countdown or its end (its owner's clock missed the moment, its process busy or gone)
    gets a resync, which applies what time made due. Production's sweep (rooms.tasks, every
    15 s) would end them too, but an arena's players wait for them, and so does the table.
    Under load in bench/arena.py both happened: rooms left in their lobbies, in their
    countdowns, or playing past their ends, their players never back in the pool."""
    late = now - NUDGE_AFTER
    stuck = ArenaRoom.objects.filter(arena=arena, scored=False).filter(
        Q(room__state=Room.State.LOBBY, created_at__lt=late)
        | Q(room__state=Room.State.COUNTDOWN, room__starts_at__lt=late)
        | Q(room__state=Room.State.PLAYING, room__ends_at__lt=late)
    )
    moved, began = 0, time.monotonic()
    for code, state in stuck.values_list("room__code", "room__state"):
        if time.monotonic() - began > NUDGE_BUDGET_SECONDS:
            break  # an owner too busy to answer holds the tick no longer: the rest next tick
        action = A.Start() if state == Room.State.LOBBY else A.Sync()
        try:
            moved += int(api.act(code, None, action, now=max(now, timezone.now())).changed)
        except api.RoomError as error:
            logger.info("arena room %s not moved on here: %s", code, error)
    if moved:
        logger.warning("arena %s: %d room(s) moved on by the tick", arena.code, moved)
    return moved


def score_finished(arena: Arena, now) -> bool:
    """Every finished, unscored room of the arena, each exactly once (its row locked and
    marked in the same transaction); its players go back to waiting."""
    scored_any = False
    for pending in ArenaRoom.objects.filter(arena=arena, scored=False, room__state__in=DONE).values_list(
        "pk", flat=True
    ):
        scored_any |= score_room(pending, now)
    return scored_any


def score_room(arena_room_id: int, now=None) -> bool:
    now = now or timezone.now()
    with transaction.atomic():
        arena_room = (
            ArenaRoom.objects.select_for_update(skip_locked=True)
            .select_related("room", "arena")
            .filter(pk=arena_room_id, scored=False)
            .first()
        )
        if arena_room is None or arena_room.room.state not in DONE:
            return False
        room, arena = arena_room.room, arena_room.arena
        entries = {e.player_id: e for e in Entry.objects.select_for_update().filter(arena=arena, room_code=room.code)}
        results = {r.player_id: r for r in RoomResult.objects.filter(room_code=room.code)}
        seats = [
            scoring.Seat(
                entry=e.pk,
                place=results[p].placement if p in results else 99,
                left=p not in results or results[p].status == "left",
                berserk=p in room.berserk,
                firsts=e.firsts,
                seconds=results[p].seconds if p in results else None,
            )
            for p, e in entries.items()
        ]
        by_entry = {e.pk: e for e in entries.values()}
        running = state_of(arena, now) == "running"
        for s, done in zip(seats, scoring.score(seats), strict=True):
            e = by_entry[done.entry]
            e.points += done.points
            e.rooms += 1
            e.firsts = done.firsts
            e.solving_seconds += s.seconds or 0
            e.leaves += int(done.left)
            e.recent = [*e.recent, [done.points, done.fire, done.berserk]][-RECENT:]
            e.history = [
                *e.history,
                {
                    "room": room.code,
                    "place": None if done.left else s.place,
                    "size": len(seats),
                    "points": done.points,
                    "fire": done.fire,
                    "berserk": done.berserk,
                    "left": done.left,
                },
            ]
            if e.leaves >= LEAVES_OUT:
                e.state = Entry.State.WITHDRAWN
            elif e.state == Entry.State.RACING:
                e.state = Entry.State.WAITING if running else Entry.State.PAUSED
            e.waiting_since, e.room_code = now, ""
        Entry.objects.bulk_update(
            list(by_entry.values()),
            [
                "points",
                "rooms",
                "firsts",
                "solving_seconds",
                "leaves",
                "recent",
                "history",
                "state",
                "waiting_since",
                "room_code",
            ],
        )
        ArenaRoom.objects.filter(pk=arena_room.pk).update(scored=True)
        changed(arena)
    return True


# --- the site's schedule ------------------------------------------------------------------------


def schedule(now=None, hours_ahead: int = 3) -> int:
    """The site's arenas (idempotent: one per slot's key): every hour a 30-minute arena,
    Easy on even hours and Medium on odd ones, and each day a 90-minute Hard one at 19:00 UTC."""
    now = now or timezone.now()
    made = 0
    hour = now.replace(minute=0, second=0, microsecond=0)
    slots = []
    for h in range(hours_ahead + 1):
        at = hour + dt.timedelta(hours=h)
        slots.append((f"hourly-{at:%Y%m%dT%H}", "easy" if at.hour % 2 == 0 else "medium", at, 30))
    for d in range(2):
        at = (hour + dt.timedelta(days=d)).replace(hour=19)
        slots.append((f"daily-{at:%Y%m%d}", "hard", at, 90))
    for key, level, at, minutes in slots:
        if at + dt.timedelta(minutes=minutes) <= now:
            continue
        _, created = Arena.objects.get_or_create(
            schedule_key=key,
            defaults=dict(level=level, starts_at=at, minutes=minutes, ends_at=at + dt.timedelta(minutes=minutes)),
        )
        made += int(created)
    return made


def create_private(host, level: str, preset: str, starts_at, minutes: int) -> Arena:
    if getattr(host, "account_id", None) is None:
        raise ArenaRefused(_("Sign in to create an arena."))
    if level not in A.LEVELS:
        raise ArenaRefused(_("Pick a level: Easy, Medium, Hard or Expert."))
    if minutes not in LENGTHS:
        raise ArenaRefused(_("An arena lasts 30, 60 or 90 minutes."))
    from games.engines import race

    if preset not in race.PRESETS:
        raise ArenaRefused(_("Pick one of the presets."))
    now = timezone.now()
    if starts_at < now - dt.timedelta(minutes=1) or starts_at > now + dt.timedelta(days=30):
        raise ArenaRefused(_("Pick a start from now to 30 days ahead."))
    return Arena.objects.create(
        level=level,
        preset=preset,
        starts_at=starts_at,
        minutes=minutes,
        ends_at=starts_at + dt.timedelta(minutes=minutes),
        host_id=host.account_id,
        private=True,
    )

"""The Showdown rating (docs/rules.md section 8): Weng-Lin Plackett-Luce (the `openskill`
package) over a room's final ranking, once per finished room, in the room's final write.

- Ranks: the room's places (ties share one), players who left after everyone else (and
  tied with each other).
- The shown number is conservative: 1500 + RATING_SCALE x (mu - 3 sigma), 1500 at the start
  (mu 25, sigma 25/3) and rising as sigma falls. Provisional ("?") while sigma is above
  RATING_PROVISIONAL_SIGMA. `limit_sigma` is on: a room never makes a rating less certain,
  so winning never lowers the shown number.
- Idle growth: per week without a rated room beyond RATING_IDLE_GRACE_DAYS, sigma grows by
  RATING_IDLE_SIGMA_PER_WEEK in quadrature (never past the start), applied when the player
  next plays (stored in that room's RatingChange) and whenever the rating is shown.
- A room is rated when it is a Showdown, every seat is signed in as its countdown starts (one
  account a seat; signing in or out during play changes nothing), at
  least 2 players, preset rules (not Custom), the host left rating on, and this group of
  accounts has had fewer than RATING_GROUP_ROOMS_PER_DAY rated rooms together that UTC day.
- A public race (docs/rules.md 9) rates its signed-in players among themselves, by their
  order in the room (anonymous players race unrated, left out like ghosts), when at least
  two are signed in, with no daily limit per group: the pool, not the players, chose it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from players.models import Profile
from rooms.gametypes import game_for
from rooms.gametypes.showdown import host_rates
from rooms.models import RoomEvent

from .models import Rating, RatingChange, RoomRating

MODEL = PlackettLuce(limit_sigma=True)
MU, SIGMA = MODEL.mu, MODEL.sigma
START = 1500
LEFT = "left"


# --- the numbers (no database) -------------------------------------------------------------


def shown(mu: float, sigma: float) -> int:
    return round(START + settings.RATING_SCALE * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma > settings.RATING_PROVISIONAL_SIGMA


def idle_sigma(sigma: float, last: datetime | None, now: datetime) -> float:
    """Sigma after the idle weeks between `last` (the previous rated room) and `now`."""
    if last is None:
        return sigma
    weeks = ((now - last) - timedelta(days=settings.RATING_IDLE_GRACE_DAYS)) // timedelta(weeks=1)
    if weeks <= 0:
        return sigma
    return min(SIGMA, math.sqrt(sigma**2 + weeks * settings.RATING_IDLE_SIGMA_PER_WEEK**2))


def update(players: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player, from their (mu, sigma) and ranks (1 best, ties equal)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def rating_ranks(seats) -> list[int]:
    """Each seat's rank for the rating: its place, and after everyone else those who left."""
    stayed = [seat.place or 1 for seat in seats if seat.status != LEFT]
    last = max(stayed, default=0) + 1
    return [last if seat.status == LEFT else (seat.place or 1) for seat in seats]


# --- which rooms are rated ------------------------------------------------------------------


def group_key(account_ids) -> str:
    return hashlib.sha256(",".join(map(str, sorted(account_ids))).encode()).hexdigest()


def _decide(room, accounts: list[int | None], day, early_forfeit: bool = False) -> tuple[str, str]:
    """(reason, group): reason "" when the room is rated."""
    known = [a for a in accounts if a is not None]
    group = group_key(set(known))
    if early_forfeit:  # a throwaway account's quick loss must not feed anyone's rating
        return RoomRating.Reason.EARLY_FORFEIT, group
    if room.public:  # the signed-in players among themselves, no daily limit (the pool chose them)
        if len(set(known)) < 2:
            return (RoomRating.Reason.ANONYMOUS if len(accounts) >= 2 else RoomRating.Reason.FEW), group
        if len(set(known)) < len(known):
            return RoomRating.Reason.SAME_ACCOUNT, group
        return RoomRating.Reason.RATED, group
    if len(accounts) < 2:
        return RoomRating.Reason.FEW, group
    if len(known) < len(accounts):
        return RoomRating.Reason.ANONYMOUS, group
    if len(set(known)) < len(known):
        return RoomRating.Reason.SAME_ACCOUNT, group
    if game_for(room).preset(room) == "custom":
        return RoomRating.Reason.CUSTOM, group
    if not host_rates(room):
        return RoomRating.Reason.HOST_OFF, group
    if RoomRating.objects.filter(group=group, day=day, rated=True).count() >= settings.RATING_GROUP_ROOMS_PER_DAY:
        return RoomRating.Reason.GROUP_LIMIT, group
    return RoomRating.Reason.RATED, group


# --- the final write's hook -----------------------------------------------------------------


def _accounts(room, seats) -> list[int | None]:
    """Each seat's account as the countdown started (a sign-in or sign-out during play changes
    nothing); a room started before that was recorded: the accounts now."""
    if room.accounts_at_start is not None:
        return [room.accounts_at_start.get(str(seat.pk)) for seat in seats]
    profiles = dict(Profile.objects.filter(pk__in=[s.player_id for s in seats]).values_list("id", "account_id"))
    return [profiles.get(seat.player_id) for seat in seats]


def _early_forfeit(room) -> bool:
    """Somebody forfeited (or left) within RATING_EARLY_FORFEIT_SECONDS of the start."""
    if room.starts_at is None:
        return False
    soon = room.starts_at + timedelta(seconds=settings.RATING_EARLY_FORFEIT_SECONDS)
    return RoomEvent.objects.filter(
        room_id=room.pk, kind__in=("forfeit", "leave"), seat__isnull=False, created_at__lt=soon
    ).exists()


def rate_room(room, seats, now) -> RoomRating | None:
    """Rate a finished Showdown room once (called from rooms.store.record_results, inside
    the room's final write). A second call, from a retried or concurrent write, finds the
    room's RoomRating (or hits the unique constraints) and changes nothing."""
    if room.game != "showdown" or room.pk is None:
        return None
    existing = RoomRating.objects.filter(room_id=room.pk).first()
    if existing is not None:
        return existing
    at = room.finished_at or now
    accounts = _accounts(room, seats)
    try:
        with transaction.atomic():  # a savepoint: a lost race never spoils the room's write
            # Two rooms of one group finishing at once wait here for each other (their players'
            # ratings, locked in id order), so the daily limit counts the one rated first.
            known = sorted({a for a in accounts if a is not None})
            list(Rating.objects.select_for_update().filter(account_id__in=known).order_by("pk").values_list("pk"))
            reason, group = _decide(room, accounts, at.date(), _early_forfeit(room))
            decision = RoomRating.objects.create(
                room_id=room.pk, rated=reason == "", reason=reason, group=group, day=at.date(), at=at
            )
            if decision.rated:  # the signed-in seats (every seat, but in a public race)
                rated = [(a, s) for a, s in zip(accounts, seats, strict=True) if a is not None]
                players = [(account, s.player_id) for account, s in rated]
                _apply(room.pk, players, rating_ranks([s for _a, s in rated]), at)
    except IntegrityError:
        return RoomRating.objects.filter(room_id=room.pk).first()
    return decision


def _apply(room_id, players: list[tuple[int, int]], ranks: list[int], at) -> list[RatingChange]:
    """Rate one room: players are (account id, profile id); writes the changes and ratings."""
    ids = sorted(a for a, _p in players)
    # Locked in id order: two rooms finishing at once with a player in common wait, never deadlock.
    current = {r.account_id: r for r in Rating.objects.select_for_update().filter(account_id__in=ids).order_by("pk")}
    changes, ratings = _compute(room_id, players, ranks, at, current)
    RatingChange.objects.bulk_create(changes)
    for rating in ratings:
        if rating.account_id in current:
            rating.save()
        else:
            Rating.objects.create(**{f.attname: getattr(rating, f.attname) for f in Rating._meta.concrete_fields})
    return changes


def _compute(room_id, players, ranks, at, current: dict) -> tuple[list[RatingChange], list[Rating]]:
    """The room's RatingChanges and the players' new Ratings (unsaved), from `current`."""
    before = []
    for account_id, _profile in players:
        rating = current.get(account_id)
        if rating is None:
            before.append((MU, SIGMA))
        else:
            before.append((rating.mu, idle_sigma(rating.sigma, rating.last_room_at, at)))
    after = update(before, ranks)
    established = {a for a, _p in players if _established(current.get(a), at)}
    changes, ratings = [], []
    for (account_id, profile_id), rank, (mu0, s0), (mu1, s1) in zip(players, ranks, before, after, strict=True):
        changes.append(
            RatingChange(
                room_id=room_id,
                account_id=account_id,
                profile_id=profile_id,
                rank=rank,
                mu_before=mu0,
                sigma_before=s0,
                mu_after=mu1,
                sigma_after=s1,
                before=shown(mu0, s0),
                after=shown(mu1, s1),
                at=at,
            )
        )
        old = current.get(account_id)
        met = set(old.rival_ids if old else []) | {a for a in established if a != account_id}
        ratings.append(
            Rating(
                account_id=account_id,
                profile_id=profile_id,
                mu=mu1,
                sigma=s1,
                shown=shown(mu1, s1),
                rooms=(old.rooms if old else 0) + 1,
                last_room_at=at,
                rival_ids=sorted(met),
                rivals=len(met),
            )
        )
    return changes, ratings


def _established(rating: Rating | None, at) -> bool:
    """Settled and experienced before this room: whom the top list's rivals must be."""
    if rating is None or rating.rooms < settings.RANKING_MIN_ROOMS:
        return False
    return not provisional(idle_sigma(rating.sigma, rating.last_room_at, at))


def recompute() -> int:
    """Replay every rated room, in the order they were rated, from the starting rating:
    rewrites each RatingChange's numbers and every Rating. Returns how many changes differed
    from what was stored (0 when the stored numbers are what the model gives)."""
    differing = 0
    with transaction.atomic():
        current: dict[int, Rating] = {}
        rows: dict[int, list[RatingChange]] = {}
        for change in RatingChange.objects.order_by("id"):
            rows.setdefault(change.room_id, []).append(change)
        fields = ["mu_before", "sigma_before", "mu_after", "sigma_after", "before", "after"]
        rewritten = []
        for room_id in RoomRating.objects.filter(rated=True).order_by("id").values_list("room_id", flat=True):
            stored = rows.get(room_id, [])
            if not stored:
                continue
            players = [(c.account_id, c.profile_id) for c in stored]
            fresh, ratings = _compute(room_id, players, [c.rank for c in stored], stored[0].at, current)
            for old, new in zip(stored, fresh, strict=True):
                if any(getattr(old, f) != getattr(new, f) for f in fields):
                    differing += 1
                    for f in fields:
                        setattr(old, f, getattr(new, f))
                    rewritten.append(old)
            current.update({r.account_id: r for r in ratings})
        RatingChange.objects.bulk_update(rewritten, fields, batch_size=500)
        Rating.objects.all().delete()
        Rating.objects.bulk_create(current.values(), batch_size=500)
    return differing


# --- what the pages show --------------------------------------------------------------------


@dataclass
class Shown:
    number: int
    provisional: bool
    rooms: int

    def __str__(self) -> str:
        return f"{self.number}?" if self.provisional else str(self.number)


def current_rating(account_id, now) -> Shown | None:
    """An account's rating as shown now (idle growth applied), None before its first rated room."""
    rating = Rating.objects.filter(account_id=account_id).first() if account_id else None
    return shown_of(rating, now) if rating is not None else None


def shown_of(rating, now) -> Shown:
    """A Rating (or a row with its mu, sigma, rooms and last_room_at) as shown now."""
    sigma = idle_sigma(rating.sigma, rating.last_room_at, now)
    return Shown(shown(rating.mu, sigma), provisional(sigma), rating.rooms)


@dataclass
class SeatChange:
    delta: int
    after: int
    provisional: bool

    @property
    def signed(self) -> str:
        return f"+{self.delta}" if self.delta > 0 else ("\u00b10" if self.delta == 0 else f"\u2212{-self.delta}")


@dataclass
class RoomOutcome:
    """What a finished Showdown's page says about the rating: each seat's change, in the
    room's order of places, or why the room was not rated."""

    rated: bool
    reason: str
    rows: list[tuple[object, SeatChange]]  # (seat, its change)

    @property
    def any_provisional(self) -> bool:
        return any(change.provisional for _seat, change in self.rows)


def room_outcome(room, seats) -> RoomOutcome | None:
    """The rating decision of a finished room (None: not a Showdown, or not decided yet)."""
    if room.game != "showdown" or room.pk is None:
        return None
    decision = RoomRating.objects.filter(room_id=room.pk).first()
    if decision is None:
        return None
    rows = []
    if decision.rated:
        stored = RatingChange.objects.filter(room_id=room.pk).only("profile_id", "before", "after", "sigma_after")
        changes = {c.profile_id: SeatChange(c.delta, c.after, provisional(c.sigma_after)) for c in stored}
        ordered = sorted(seats, key=lambda seat: (seat.place or len(seats) + 1, seat.pk))
        rows = [(seat, changes[seat.player_id]) for seat in ordered if seat.player_id in changes]
    return RoomOutcome(decision.rated, decision.get_reason_display(), rows)


def history(account_id, limit: int = 50) -> list[RatingChange]:
    """The account's latest rating changes, oldest first (the profile's chart)."""
    latest = RatingChange.objects.filter(account_id=account_id).order_by("-id")[:limit]
    return list(reversed(list(latest)))

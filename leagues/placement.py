"""Placing a player in the week's league (docs/rules.md 11): at their first finish of the week
(a daily, a public race), in the newest league of their tier with room, else a new one. The
week's close (leagues/close.py) places anyone this missed."""

import datetime as dt

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from .models import League, Member, Tier
from .points import week_of


def tier_of(account_id: int) -> int:
    return Tier.objects.filter(account_id=account_id).values_list("tier", flat=True).first() or 1


def place(account_id: int, when: dt.datetime | None = None) -> Member:
    week = week_of((when or timezone.now()).astimezone(dt.UTC).date())
    found = Member.objects.filter(account_id=account_id, week=week).first()
    if found is not None:
        return found
    tier = tier_of(account_id)
    try:
        with transaction.atomic():
            # The tier's leagues of the week, locked (PostgreSQL): two players placed at once
            # cannot both take a league's last place.
            leagues = list(League.objects.select_for_update().filter(week=week, tier=tier).order_by("-number")[:1])
            league = leagues[0] if leagues else None
            if league is None or league.members.count() >= settings.LEAGUE_SIZE:
                league = League.objects.create(week=week, tier=tier, number=(league.number + 1) if league else 1)
            return Member.objects.create(league=league, account_id=account_id, week=week)
    except IntegrityError:  # placed meanwhile by another request (or a new league raced): that one stands
        return Member.objects.get(account_id=account_id, week=week)


def place_many(week: dt.date, account_ids: list[int]) -> int:
    """Bulk placement for the week's close: each tier's players fill its leagues in order, the
    new leagues made in one statement per tier (bench/friends.py: 3,338 single creates were
    most of the placement's 30 s for 100,000 players)."""
    placed = set(Member.objects.filter(week=week).values_list("account_id", flat=True))
    todo = [a for a in account_ids if a not in placed]
    if not todo:
        return 0
    tiers = dict(Tier.objects.values_list("account_id", "tier"))
    by_tier: dict[int, list[int]] = {}
    for account in sorted(todo):
        by_tier.setdefault(tiers.get(account, 1), []).append(account)
    size = settings.LEAGUE_SIZE
    members = []
    for tier, accounts in by_tier.items():
        existing = list(League.objects.filter(week=week, tier=tier).annotate(n=Count("members")).order_by("number"))
        room: list[tuple[League, int]] = [(league, size - league.n) for league in existing if league.n < size]
        left = len(accounts) - sum(free for _league, free in room)
        if left > 0:
            first = max((league.number for league in existing), default=0) + 1
            new = [League(week=week, tier=tier, number=first + i) for i in range(-(-left // size))]
            League.objects.bulk_create(new, batch_size=2000)
            made = {league.number: league for league in League.objects.filter(week=week, tier=tier, number__gte=first)}
            room += [(made[league.number], size) for league in new]
        slots = iter((league, n) for league, free in room for n in range(free))
        members += [
            Member(league=league, account_id=account, week=week)
            for account, (league, _n) in zip(accounts, slots, strict=False)
        ]
    Member.objects.bulk_create(members, batch_size=2000)
    return len(members)


def run_finished(sender, run, **kwargs):
    """A ranked daily finished by a signed-in player places them in the week's league."""
    account_id = run.player.account_id if run.player_id else None
    if account_id is not None and run.daily_id is not None and not run.practice:
        place(account_id, run.finished_at)


def room_finished(sender, room_id, **kwargs):
    from .tasks import place_room

    place_room.delay(room_id)  # off the rooms' live path, as replays record theirs


def place_room(room_id: int) -> None:
    from rooms.models import Room, RoomResult

    room = Room.objects.filter(pk=room_id, public=True).values("code", "finished_at").first()
    if room is None:
        return
    accounts = RoomResult.objects.filter(room_code=room["code"], in_totals=True, player__account__isnull=False)
    for account_id in accounts.values_list("player__account_id", flat=True):
        place(account_id, room["finished_at"])

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
    """Bulk placement for the week's close: each tier's players fill its leagues in order."""
    placed = set(Member.objects.filter(week=week, account_id__in=account_ids).values_list("account_id", flat=True))
    todo = [a for a in account_ids if a not in placed]
    if not todo:
        return 0
    tiers = dict(Tier.objects.filter(account_id__in=todo).values_list("account_id", "tier"))
    by_tier: dict[int, list[int]] = {}
    for account in sorted(todo):
        by_tier.setdefault(tiers.get(account, 1), []).append(account)
    members = []
    for tier, accounts in by_tier.items():
        open_leagues = list(League.objects.filter(week=week, tier=tier).annotate(n=Count("members")).order_by("number"))
        number = max((league.number for league in open_leagues), default=0)
        room: list[tuple[League, int]] = [
            (league, settings.LEAGUE_SIZE - league.n) for league in open_leagues if league.n < settings.LEAGUE_SIZE
        ]
        for account in accounts:
            if not room:
                number += 1
                room = [(League.objects.create(week=week, tier=tier, number=number), settings.LEAGUE_SIZE)]
            league, left = room[0]
            members.append(Member(league=league, account_id=account, week=week))
            room[0] = (league, left - 1)
            if left - 1 == 0:
                room.pop(0)
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

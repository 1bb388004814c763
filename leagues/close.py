"""The week's close (docs/rules.md 11): every league's final table, the top LEAGUE_MOVES up a
tier and the bottom LEAGUE_MOVES down (ties share the better fate). Run by beat every hour;
idempotent: the ClosedWeek row is written first in the same transaction, so a second or
redelivered run waits for the first and then finds the week closed."""

import datetime as dt

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from .models import ClosedWeek, Member, Tier
from .placement import place_many
from .points import week_of, week_points


def played(week: dt.date) -> list[int]:
    """The accounts with a finish that scores in the week: a ranked daily or a public race."""
    from games.daily.boards import LISTED
    from games.models import SoloRun
    from rooms.models import Room, RoomResult

    start = dt.datetime.combine(week, dt.time(), tzinfo=dt.UTC)
    end = start + dt.timedelta(days=7)
    dailies = SoloRun.objects.filter(LISTED, daily__date__gte=week, daily__date__lt=week + dt.timedelta(days=7))
    public = Room.objects.filter(public=True, finished_at__gte=start, finished_at__lt=end).values("code")
    races = RoomResult.objects.filter(room_code__in=public, in_totals=True, player__account__isnull=False)
    return sorted(
        set(dailies.values_list("player__account_id", flat=True).distinct())
        | set(races.values_list("player__account_id", flat=True).distinct())
    )


def fates(points: dict[int, int]) -> dict[int, tuple[int, str]]:
    """One league's (place, outcome) per account. Up: fewer than LEAGUE_MOVES strictly ahead;
    down: fewer than LEAGUE_MOVES strictly behind, and not up. Equal points share a place."""
    ordered = sorted(points.values(), reverse=True)
    result = {}
    for account, p in points.items():
        ahead = sum(1 for q in ordered if q > p)
        behind = sum(1 for q in ordered if q < p)
        outcome = "up" if ahead < settings.LEAGUE_MOVES else "down" if behind < settings.LEAGUE_MOVES else "stay"
        result[account] = (ahead + 1, outcome)
    return result


def close(week: dt.date) -> int | None:
    """Close `week`; the number of players placed, None if it was closed already."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                ClosedWeek.objects.create(week=week)
        except IntegrityError:
            return None
        place_many(week, played(week))
        members = list(Member.objects.filter(week=week).only("pk", "league_id", "account_id"))
        league_of = {m.account_id: m.league_id for m in members}
        points = week_points(week, league_of, everyone=True)
        by_league: dict[int, dict[int, int]] = {}
        for account, league in league_of.items():
            by_league.setdefault(league, {})[account] = points.get(account, 0)
        decided = {league: fates(table) for league, table in by_league.items()}
        tiers = dict(Tier.objects.values_list("account_id", "tier"))
        moved = []
        for member in members:
            place, outcome = decided[member.league_id][member.account_id]
            member.points, member.place = by_league[member.league_id][member.account_id], place
            tier = tiers.get(member.account_id, 1)
            if outcome == "up":
                new = min(settings.LEAGUE_TIERS, tier + 1)
            else:
                new = max(1, tier - 1) if outcome == "down" else tier
            member.outcome = outcome if new != tier else "stay"
            if new != tier:
                moved.append(Tier(account_id=member.account_id, tier=new))
        write_members(members)
        Tier.objects.bulk_create(
            moved, batch_size=2000, update_conflicts=True, unique_fields=["account"], update_fields=["tier"]
        )
        ClosedWeek.objects.filter(week=week).update(players=len(members))
        return len(members)


def write_members(members: list[Member]) -> None:
    """Every member's final points, place and fate: one UPDATE ... FROM unnest on PostgreSQL
    (bulk_update's CASE statements took 2-4 minutes for 100,000 rows, bench/friends.py)."""
    if connection.vendor != "postgresql":
        Member.objects.bulk_update(members, ["points", "place", "outcome"], batch_size=2000)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leagues_member AS m SET points = v.points, place = v.place, outcome = v.outcome "
            "FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::text[]) AS v(id, points, place, outcome) "
            "WHERE m.id = v.id",
            [
                [m.pk for m in members],
                [m.points for m in members],
                [m.place for m in members],
                [m.outcome for m in members],
            ],
        )


def close_ended(now: dt.datetime | None = None) -> int | None:
    """Beat's job: close last week if it is not closed yet."""
    today = (now or timezone.now()).astimezone(dt.UTC).date()
    last_week = week_of(today) - dt.timedelta(days=7)
    if ClosedWeek.objects.filter(week=last_week).exists():
        return None
    return close(last_week)

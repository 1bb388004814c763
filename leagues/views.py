import datetime as dt

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from friends.graph import people

from .close import fates
from .models import Member
from .placement import tier_of
from .points import week_of, week_points


@login_required
@require_GET
def league(request):
    """The viewer's league this week, its live table (docs/rules.md 11), and last week's fate."""
    me = request.user.pk
    now = timezone.now()
    week = week_of(now.astimezone(dt.UTC).date())
    mine = Member.objects.filter(account_id=me, week=week).select_related("league").first()
    rows = []
    if mine is not None:
        accounts = list(Member.objects.filter(league_id=mine.league_id).values_list("account_id", flat=True))
        points = week_points(week, dict.fromkeys(accounts, mine.league_id))
        table = {a: points.get(a, 0) for a in accounts}
        decided = fates(table)
        names = people(accounts)
        rows = sorted(
            (
                {"person": names[a], "points": p, "place": decided[a][0], "fate": decided[a][1], "me": a == me}
                for a, p in table.items()
            ),
            key=lambda r: (r["place"], r["person"].name.casefold()),
        )
    last = Member.objects.filter(account_id=me, week=week - dt.timedelta(days=7)).exclude(place=None).first()
    ends = dt.datetime.combine(week + dt.timedelta(days=7), dt.time(), tzinfo=dt.UTC)
    return render(
        request,
        "leagues/league.html",
        {"mine": mine, "rows": rows, "tier": mine.league.tier if mine else tier_of(me), "ends_at": ends, "last": last},
    )

"""Each daily's leaderboard per level (docs/rules.md section 7): Classic finishes by time, then
fewer mistakes; Assisted finishes after them, by fewer hints, then fewer mistakes, then time.

Places need an account: the board lists ranked finishes of signed-in players (held, voided
and unlisted runs left out), the first DAILY_BOARD_SIZE in one query (ORDER BY ... LIMIT over
the partial index `daily_board`'s rows), cached DAILY_BOARD_CACHE_SECONDS. The
viewer's own run comes with its place (1 + the listed finishes strictly better) in one more
query, unless it is in the list already; an anonymous player's run is shown only to them,
where it would stand.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact

from games.engines.ranking import places
from games.models import SoloRun
from players.identity import record_filter

from .models import Daily

LISTED = Q(practice=False, state=SoloRun.State.FINISHED, review__in=["", "cleared"], player__account__isnull=False)
ORDER = [
    F("assisted").asc(),
    Case(When(assisted=True, then=F("hints")), default=Value(0)).asc(),
    Case(When(assisted=True, then=F("mistakes")), default=Value(0)).asc(),
    F("elapsed").asc(),
    F("mistakes").asc(),
]
FIELDS = (
    "pk",
    "player_id",
    "player__display_name",
    "player__account_id",
    "elapsed",
    "mistakes",
    "hints",
    "assisted",
    "player__account__member__handle",  # the name links to the profile (friends/)
)


@dataclass(frozen=True)
class Row:
    place: int
    run_id: int
    name: str
    account_id: int | None
    elapsed: float
    mistakes: int
    hints: int
    assisted: bool
    mine: bool = False
    review: str = ""  # the viewer's own run: held, voided, unlisted
    handle: str = ""  # the account's handle (friends/): the name links to its profile


_dailies: dict[tuple[dt.date, str], Daily] = {}  # a daily never changes once chosen


def daily_of(date: dt.date, level: str) -> Daily | None:
    daily = _dailies.get((date, level))
    if daily is None:
        daily = Daily.objects.filter(date=date, level=level).first()
        if daily is not None:
            _dailies[(date, level)] = daily
    return daily


def forget(daily_id: int) -> None:
    """A ranked finish drops the board's cached rows: the finisher sees their own place at
    once, not "No ranked finishes yet" until the cache runs out (issue 43 item 10)."""
    cache.delete(f"daily-board-{daily_id}")


def top(daily_id: int) -> list[Row]:
    """The board's first DAILY_BOARD_SIZE places, cached a few seconds (shared by every viewer)."""
    key = f"daily-board-{daily_id}"
    rows = cache.get(key)
    if rows is None:
        rows = _top(daily_id)
        cache.set(key, rows, settings.DAILY_BOARD_CACHE_SECONDS)
    return rows


def _top(daily_id: int) -> list[Row]:
    # ORDER BY ... LIMIT (a top-N sort on the partial index's rows) and the places numbered
    # here: a window RANK over every finish cost SQLite twice as much for 2,000 finishers.
    return _numbered(list(_top_query(daily_id).values_list(*FIELDS)))


def _top_query(daily_id: int):
    return SoloRun.objects.filter(LISTED, daily_id=daily_id).order_by(*ORDER, "pk")[: settings.DAILY_BOARD_SIZE]


def _numbered(found: list) -> list[Row]:
    return [
        Row(place, pk, name, account, elapsed, mistakes, hints, assisted, handle=handle or "")
        for place, (pk, _p, name, account, elapsed, mistakes, hints, assisted, handle) in places(found, _key)
    ]


def _key(row) -> tuple:
    """The board's order as a key: equal keys share a place."""
    _pk, _p, _name, _account, elapsed, mistakes, hints, assisted, _handle = row
    return (assisted, hints, mistakes, elapsed) if assisted else (assisted, elapsed, mistakes)


def ahead_of_outer() -> Q:
    """The listed finishes strictly ahead of the outer query's run, in the board's order:
    faster Classic ones of a Classic run; every Classic one and the better Assisted ones of an
    Assisted run."""
    outer_assisted = ExpressionWrapper(Q(Exact(OuterRef("assisted"), True)), output_field=BooleanField())
    return (
        Q(assisted=False)
        & (Q(elapsed__lt=OuterRef("elapsed")) | Q(elapsed=OuterRef("elapsed"), mistakes__lt=OuterRef("mistakes")))
    ) | (
        Q(outer_assisted)
        & (
            Q(assisted=False)
            | Q(hints__lt=OuterRef("hints"))
            | Q(hints=OuterRef("hints"), mistakes__lt=OuterRef("mistakes"))
            | Q(hints=OuterRef("hints"), mistakes=OuterRef("mistakes"), elapsed__lt=OuterRef("elapsed"))
        )
    )


def _count(condition: Q) -> Subquery:
    return Subquery(
        SoloRun.objects.filter(LISTED, condition, daily_id=OuterRef("daily_id"))
        .order_by()
        .values("daily_id")
        .annotate(n=Count("pk"))
        .values("n"),
        output_field=IntegerField(),
    )


def among(daily_id: int, accounts: Q) -> list[Row]:
    """The board of some accounts alone (a Friends tab: `accounts` a filter on the run's
    player__account_id, the viewer and their friends), placed among themselves, in one query."""
    found = SoloRun.objects.filter(LISTED, accounts, daily_id=daily_id).order_by(*ORDER, "pk")
    return _numbered(list(found.values_list(*FIELDS)))


def board(player, daily_id: int) -> tuple[list[Row], Row | None]:
    """top() and own() together. On a cold cache, a viewer's run and place come in the top
    query's own statement (UNION ALL of the two SELECTs), so the page still makes one query
    for the board however the viewer stands."""
    key = f"daily-board-{daily_id}"
    rows = cache.get(key)
    if rows is not None:
        return rows, own(player, daily_id, rows)
    mine_qs = _own_query(player, daily_id)
    if mine_qs is None:
        rows = _top(daily_id)
        cache.set(key, rows, settings.DAILY_BOARD_CACHE_SECONDS)
        return rows, None
    top_qs = _top_query(daily_id).annotate(ahead=Value(0), review_=Value("")).values_list("ahead", "review_", *FIELDS)
    top_sql, top_params = top_qs.query.sql_with_params()
    own_sql, own_params = mine_qs[:1].query.sql_with_params()
    # Each SELECT wrapped as a table: SQLite allows no ORDER BY/LIMIT in a compound's arms.
    sql = f"SELECT 0, t.* FROM ({top_sql}) t UNION ALL SELECT 1, o.* FROM ({own_sql}) o"
    with connection.cursor() as cursor:
        cursor.execute(sql, (*top_params, *own_params))
        found = [(arm, *_typed(rest)) for arm, *rest in cursor.fetchall()]
    # A UNION ALL keeps no order: the board's is restored here (its ORDER BY as a key, then pk).
    listed = sorted((r[3:] for r in found if r[0] == 0), key=lambda r: (_key(r), r[0]))
    rows = _numbered(listed)
    cache.set(key, rows, settings.DAILY_BOARD_CACHE_SECONDS)
    return rows, _mine(player, rows, next((r[1:] for r in found if r[0] == 1), None))


def _typed(values: list) -> tuple:
    """A raw row's columns as the ORM gives them (SQLite answers booleans as 0/1)."""
    ahead, review, pk, p, name, account, elapsed, mistakes, hints, assisted, handle = values
    return (ahead, review, pk, p, name, account, elapsed, mistakes, hints, bool(assisted), handle)


def _own_query(player, daily_id: int):
    if player is None or player.pk in (None, 0):
        return None
    return (
        SoloRun.objects.filter(record_filter(player), daily_id=daily_id, practice=False, state=SoloRun.State.FINISHED)
        .annotate(ahead=Coalesce(_count(ahead_of_outer()), 0))
        .values_list("ahead", "review", *FIELDS)
        .order_by("started_at")
    )


def _mine(player, listed: list[Row], found) -> Row | None:
    if player.account_id is not None:
        for row in listed:
            if row.account_id == player.account_id:
                return Row(**{**row.__dict__, "mine": True})
    if found is None:
        return None
    ahead, review, pk, _p, name, account, elapsed, mistakes, hints, assisted, handle = found
    return Row(
        ahead + 1, pk, name, account, elapsed, mistakes, hints, assisted, mine=True, review=review, handle=handle or ""
    )


def own(player, daily_id: int, listed: list[Row]) -> Row | None:
    """The viewer's ranked run of the daily with its place (finished), or None."""
    query = _own_query(player, daily_id)
    if query is None:
        return None
    if player.account_id is not None and any(row.account_id == player.account_id for row in listed):
        return _mine(player, listed, None)
    return _mine(player, listed, query.first())

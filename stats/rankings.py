"""Global rankings (docs/rules.md section 8): the Showdown rating's top list and the all-time
Solo Run boards across accounts, each with the viewer's own place. Equal results share a
place; a place is 1 + how many are strictly ahead (for the rating: in the same query as
the top list)."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from datetime import timedelta
from functools import reduce
from typing import Any

from django.conf import settings
from django.db.models import Case, F, Func, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce, Floor

from games.engines.ranking import places
from games.models import SoloBand, SoloBest
from games.sudoku.bests import FIELDS, PREFIX, order

from . import ratings
from .models import Rating

TOP = 100


class Count(Func):
    """COUNT(*) without GROUP BY, for a subquery that counts the rows ahead of one."""

    function = "COUNT"
    template = "%(function)s(*)"
    output_field = IntegerField()


class Total(Func):
    """SUM(...) without GROUP BY, for a subquery that adds the counts of the bands ahead."""

    function = "SUM"
    output_field = IntegerField()


def _count_of(queryset) -> Subquery:
    return Subquery(queryset.order_by().annotate(n=Count()).values("n")[:1])


# --- the Showdown rating --------------------------------------------------------------------


def ranked_q(now) -> Q:
    """Ratings in the top list: enough rated rooms, not provisional, played lately. Within
    the activity window no idle growth applies (its grace is as long), so the stored sigma
    is the shown one."""
    return Q(
        rooms__gte=settings.RANKING_MIN_ROOMS,
        rivals__gte=settings.RANKING_MIN_RIVALS,
        sigma__lte=settings.RATING_PROVISIONAL_SIGMA,
        last_room_at__gte=now - timedelta(days=settings.RANKING_ACTIVE_DAYS),
    )


def ranked_ratings(now):
    return Rating.objects.filter(ranked_q(now))


@dataclass
class MyRating:
    shown: ratings.Shown
    place: int | None  # None: not in the top list's pool (why: `missing`)
    missing: str  # "rooms", "rivals", "provisional", "inactive" or ""
    rooms_to_go: int
    rivals_to_go: int = 0


ROW = ("account_id", "shown", "rooms", "rivals", "mu", "sigma", "last_room_at", "name", "in_top", "above")


def rating_board(account_id, now, limit: int = TOP) -> tuple[list, MyRating | None]:
    """The top list [(place, row)], best first, and the viewer's own rating and place, in
    one query: the top's rows (along the rating's index) and the viewer's row, each found by
    its key; the count of ranked ratings above the viewer is one uncorrelated subquery
    (computed once, and over nothing when the viewer is not ranked). Rows are named tuples,
    not models (building 100 models was most of the view's time)."""
    ranked = ranked_ratings(now)
    top_ids = ranked.order_by("-shown", "account_id").values("account_id")[:limit]
    # The top's ids and the viewer's as one set of keys: PostgreSQL then looks 101 rows up
    # by their primary key (an OR of the two filters scanned the whole index).
    keys = (
        Rating.objects.filter(account_id__in=top_ids)
        .values("account_id")
        .union(Rating.objects.filter(account_id=account_id).values("account_id"), all=True)
    )
    viewer_shown = Rating.objects.filter(Q(account_id=account_id) & ranked_q(now)).values("shown")[:1]
    above = _count_of(ranked.filter(shown__gt=Subquery(viewer_shown)))
    rows = list(
        Rating.objects.filter(account_id__in=keys)
        .annotate(
            name=F("profile__display_name"),
            in_top=Case(When(account_id__in=top_ids, then=Value(True)), default=Value(False)),
            above=above,
        )
        .order_by("-shown", "account_id")
        .values_list(*ROW, named=True)
    )
    top = places([r for r in rows if r.in_top], lambda r: r.shown)
    own = next((r for r in rows if account_id is not None and r.account_id == account_id), None)
    return top, (_mine(own, now) if own is not None else None)


def _mine(row, now) -> MyRating:
    shown = ratings.shown_of(row, now)
    missing = ""
    if row.rooms < settings.RANKING_MIN_ROOMS:
        missing = "rooms"
    elif row.rivals < settings.RANKING_MIN_RIVALS:
        missing = "rivals"
    elif shown.provisional:
        missing = "provisional"
    elif row.last_room_at < now - timedelta(days=settings.RANKING_ACTIVE_DAYS):
        missing = "inactive"
    place = None if missing else row.above + 1
    rivals_to_go = max(0, settings.RANKING_MIN_RIVALS - row.rivals)
    return MyRating(shown, place, missing, max(0, settings.RANKING_MIN_ROOMS - row.rooms), rivals_to_go)


PROVISIONAL_SHOWN = 50


def provisional_board(now, limit: int = PROVISIONAL_SHOWN) -> list:
    """Who plays but is not ranked yet (too few rated rooms, or a rating not settled), with a
    rated room in the activity window: shown below the top list, highest first, so the page
    is never empty while people play (their number carries its "?")."""
    recent = Q(last_room_at__gte=now - timedelta(days=settings.RANKING_ACTIVE_DAYS))
    rows = (
        Rating.objects.filter(recent)
        .exclude(ranked_q(now))
        .annotate(name=F("profile__display_name"))
        .order_by("-shown", "account_id")
        .values_list("account_id", "name", "shown", "rooms", "sigma", named=True)[:limit]
    )
    return [(row, ratings.provisional(row.sigma)) for row in rows]


# --- all-time Solo Run boards across accounts -----------------------------------------------

# Each account's best run per board is a SoloBest row (games/sudoku/bests.py keeps them), so a board
# is its rows in board order, along the board's index.
SOLO_ROW = ("account_id", "name", "elapsed", "mistakes", "hints", "score", "finished_at")


def _key(row, assisted: bool) -> tuple:
    return tuple(-getattr(row, f[1:]) if f.startswith("-") else getattr(row, f) for f in FIELDS[assisted])


def _board(level: str, assisted: bool):
    return SoloBest.objects.filter(level=level, assisted=assisted).annotate(name=F("run__player__display_name"))


def solo_top(level: str, assisted: bool, limit: int = TOP) -> list[tuple[int, Any]]:
    """[(place, row)]: each account's best run on the board (its earliest of equal bests),
    best first; rows are named tuples of SOLO_ROW (the name: the profile that ran it)."""
    rows = _board(level, assisted).order_by(*order(assisted)[:-1], "run_id").values_list(*SOLO_ROW, named=True)
    return places(list(rows[:limit]), lambda row: _key(row, assisted))


def _ahead(level: str, assisted: bool):
    """How many rows of the outer row's board are strictly better than it (lexicographic on
    the board's order): the rows of the bands ahead of its band (sums over SoloBand, a few
    hundred rows, not a count of every row ahead), then within its own band the rows faster
    (from the band's whole second up to its time) and, at an equal time, those better on
    each field after it (each a range of the board's index)."""
    counts: list = []
    # The bands ahead: better on a band field with the fields before it equal; the fields a
    # board does not band by are 0 in all its bands.
    key: dict[str, Any] = {f: OuterRef(f) if f in PREFIX[assisted] else Value(0) for f in ("hints", "mistakes")}
    key["second"] = Floor(OuterRef("elapsed"))
    equal: dict[str, Any] = {}
    for name, value in key.items():
        if name == "second" or name in PREFIX[assisted]:
            bands = SoloBand.objects.filter(level=level, assisted=assisted, **equal, **{f"{name}__lt": value})
            counts.append(Coalesce(Subquery(bands.order_by().annotate(n=Total("runs")).values("n")[:1]), 0))
        equal[name] = value
    # Within the band: the same band fields, a time in [its whole second, its time) ...
    board = SoloBest.objects.filter(level=level, assisted=assisted, **{f: OuterRef(f) for f in PREFIX[assisted]})
    counts.append(_count_of(board.filter(elapsed__gte=Floor(OuterRef("elapsed")), elapsed__lt=OuterRef("elapsed"))))
    # ... or its time and better on a later field, the ones between equal.
    equal = {"elapsed": OuterRef("elapsed")}
    for field in FIELDS[assisted][len(PREFIX[assisted]) + 1 :]:
        name, better = (field[1:], "gt") if field.startswith("-") else (field, "lt")
        counts.append(_count_of(board.filter(**equal, **{f"{name}__{better}": OuterRef(name)})))
        equal[name] = OuterRef(name)
    return reduce(operator.add, counts)


@dataclass
class MySolo:
    run: Any  # a row of SOLO_ROW
    place: int


def my_solo(account_id, level: str, assisted: bool, top=()) -> MySolo | None:
    """The viewer's best run on the board and its place: read off `top` (solo_top's list)
    when the viewer is in it, else its row with 1 + the rows ahead, in one query."""
    if account_id is None:
        return None
    listed = next(((place, row) for place, row in top if row.account_id == account_id), None)
    if listed is not None:
        return MySolo(listed[1], listed[0])
    mine = (
        _board(level, assisted)
        .filter(account_id=account_id)
        .annotate(ahead=_ahead(level, assisted))
        .values_list(*SOLO_ROW, "ahead", named=True)
        .first()
    )
    return None if mine is None else MySolo(mine, mine.ahead + 1)


# --- Friends tabs (docs/rules.md 11): the viewer and their friends, placed among themselves ---


def friends_rating_board(account_id: int) -> list:
    """[(place, row)] of every rating among the viewer and friends, ranked or not (one query)."""
    from friends.graph import circle

    rows = (
        Rating.objects.filter(circle(account_id, "account_id"))
        .annotate(name=F("profile__display_name"), in_top=Value(True), above=Value(0))
        .order_by("-shown", "account_id")
        .values_list(*ROW, named=True)
    )
    return places(list(rows), lambda r: r.shown)


def friends_solo(account_id: int, level: str, assisted: bool) -> list[tuple[int, Any]]:
    from friends.graph import circle

    rows = (
        _board(level, assisted)
        .filter(circle(account_id, "account_id"))
        .order_by(*order(assisted)[:-1], "run_id")
        .values_list(*SOLO_ROW, named=True)
    )
    return places(list(rows), lambda row: _key(row, assisted))

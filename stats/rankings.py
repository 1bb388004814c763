"""Global rankings (RULES.md section 8): the Showdown rating's top list and the all-time
Solo Run boards across accounts, each with the viewer's own place. Equal results share a
place; a place is 1 + how many are strictly ahead, counted in one query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Func, IntegerField, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from games.engines.ranking import places
from games.models import SoloRun

from . import ratings
from .models import Rating

TOP = 100


class Count(Func):
    """COUNT(*) without GROUP BY, for a subquery that counts the rows ahead of one."""

    function = "COUNT"
    template = "%(function)s(*)"
    output_field = IntegerField()


def _count_of(queryset) -> Subquery:
    return Subquery(queryset.order_by().annotate(n=Count()).values("n")[:1])


# --- the Showdown rating --------------------------------------------------------------------


def ranked_ratings(now):
    """Ratings in the top list: enough rated rooms, not provisional, played lately. Within
    the activity window no idle growth applies (its grace is as long), so the stored sigma
    is the shown one."""
    return Rating.objects.filter(
        rooms__gte=settings.RANKING_MIN_ROOMS,
        sigma__lte=settings.RATING_PROVISIONAL_SIGMA,
        last_room_at__gte=now - timedelta(days=settings.RANKING_ACTIVE_DAYS),
    )


def rating_top(now, limit: int = TOP) -> list[tuple[int, Rating]]:
    """[(place, rating)] of the top list, best first (one query, along the rating's index)."""
    rows = ranked_ratings(now).select_related("profile").order_by("-shown", "account_id")[:limit]
    return places(list(rows), lambda r: r.shown)


@dataclass
class MyRating:
    shown: ratings.Shown
    place: int | None  # None: not in the top list's pool (why: `missing`)
    missing: str  # "rooms", "provisional", "inactive" or ""
    rooms_to_go: int


def my_rating(account_id, now) -> MyRating | None:
    """The viewer's rating and place in one query (the count of ranked ratings above it)."""
    if account_id is None:
        return None
    above = ranked_ratings(now).filter(shown__gt=OuterRef("shown"))
    rating = Rating.objects.filter(account_id=account_id).annotate(above=_count_of(above)).first()
    if rating is None:
        return None
    shown = ratings.shown_of(rating, now)
    missing = ""
    if rating.rooms < settings.RANKING_MIN_ROOMS:
        missing = "rooms"
    elif shown.provisional:
        missing = "provisional"
    elif rating.last_room_at < now - timedelta(days=settings.RANKING_ACTIVE_DAYS):
        missing = "inactive"
    return MyRating(
        shown,
        None if missing else rating.above + 1,
        missing,
        max(0, settings.RANKING_MIN_ROOMS - rating.rooms),
    )


# --- all-time Solo Run boards across accounts -----------------------------------------------

# The personal boards' orders (stats.leaderboards): Classic by time, then fewer mistakes,
# then higher score; Assisted by fewer hints, fewer mistakes, time, then higher score.
ORDER = {
    False: (F("elapsed").asc(), F("mistakes").asc(), F("score").desc()),
    True: (F("hints").asc(), F("mistakes").asc(), F("elapsed").asc(), F("score").desc()),
}
FIELDS = {False: ("elapsed", "mistakes", "-score"), True: ("hints", "mistakes", "elapsed", "-score")}


def _key(run, assisted: bool) -> tuple:
    return tuple(-getattr(run, f[1:]) if f.startswith("-") else getattr(run, f) for f in FIELDS[assisted])


def _board_runs(level: str, assisted: bool):
    finished = SoloRun.objects.filter(level=level, assisted=assisted, state=SoloRun.State.FINISHED)
    return finished.filter(elapsed__isnull=False, player__account__isnull=False)


def _ahead_of(run, assisted: bool) -> Q:
    """Runs strictly better than `run` on its board (lexicographic on the board's order)."""
    ahead, equal = Q(pk__in=[]), Q()
    for field in FIELDS[assisted]:
        name, better = (field[1:], "gt") if field.startswith("-") else (field, "lt")
        ahead |= equal & Q(**{f"{name}__{better}": getattr(run, name)})
        equal &= Q(**{name: getattr(run, name)})
    return ahead


def solo_top(level: str, assisted: bool, limit: int = TOP) -> list[tuple[int, SoloRun]]:
    """[(place, run)]: each account's best run on the board (its earliest of equal bests),
    best first. One query: the best per account is a window over the board's runs."""
    order = [*ORDER[assisted], F("finished_at").asc(), F("pk").asc()]
    best = (
        _board_runs(level, assisted)
        .annotate(n=Window(RowNumber(), partition_by=[F("player__account_id")], order_by=order))
        .filter(n=1)
        .select_related("player")
        .order_by(*order)[:limit]
    )
    return places(list(best), lambda run: _key(run, assisted))


@dataclass
class MySolo:
    run: SoloRun
    place: int


def my_solo(account_id, level: str, assisted: bool) -> MySolo | None:
    """The viewer's best run on the board and its place: 1 + the accounts with a better run."""
    if account_id is None:
        return None
    order = [*ORDER[assisted], F("finished_at").asc(), F("pk").asc()]
    mine = _board_runs(level, assisted).filter(player__account_id=account_id).order_by(*order).first()
    if mine is None:
        return None
    ahead = (
        _board_runs(level, assisted)
        .filter(_ahead_of(mine, assisted))
        .exclude(player__account_id=account_id)
        .values("player__account_id")
        .distinct()
        .count()
    )
    return MySolo(mine, ahead + 1)

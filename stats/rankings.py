"""Global rankings (RULES.md section 8): the Showdown rating's top list and the all-time
Solo Run boards across accounts, each with the viewer's own place. Equal results share a
place; a place is 1 + how many are strictly ahead (for the rating: in the same query as
the top list)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Case, F, Func, IntegerField, Q, Subquery, Value, When

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


def ranked_q(now) -> Q:
    """Ratings in the top list: enough rated rooms, not provisional, played lately. Within
    the activity window no idle growth applies (its grace is as long), so the stored sigma
    is the shown one."""
    return Q(
        rooms__gte=settings.RANKING_MIN_ROOMS,
        sigma__lte=settings.RATING_PROVISIONAL_SIGMA,
        last_room_at__gte=now - timedelta(days=settings.RANKING_ACTIVE_DAYS),
    )


def ranked_ratings(now):
    return Rating.objects.filter(ranked_q(now))


@dataclass
class MyRating:
    shown: ratings.Shown
    place: int | None  # None: not in the top list's pool (why: `missing`)
    missing: str  # "rooms", "provisional", "inactive" or ""
    rooms_to_go: int


ROW = ("account_id", "shown", "rooms", "mu", "sigma", "last_room_at", "name", "in_top", "above")


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
    elif shown.provisional:
        missing = "provisional"
    elif row.last_room_at < now - timedelta(days=settings.RANKING_ACTIVE_DAYS):
        missing = "inactive"
    place = None if missing else row.above + 1
    return MyRating(shown, place, missing, max(0, settings.RANKING_MIN_ROOMS - row.rooms))


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
    # Daily runs (one shared puzzle a day) have the daily boards; these are the Solo Runs.
    return finished.filter(elapsed__isnull=False, player__account__isnull=False, daily__isnull=True)


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
    best first. The board's runs are read in board order along its index, a chunk at a
    time, keeping each account's first, until `limit` accounts are in (usually one query)."""
    runs = _board_runs(level, assisted).select_related("player").order_by(*_order(assisted))
    best: list[SoloRun] = []
    seen: set[int] = set()
    start, chunk = 0, limit * 2
    while len(best) < limit:
        rows = list(runs[start : start + chunk])
        for run in rows:
            if run.player.account_id not in seen and len(best) < limit:
                seen.add(run.player.account_id)
                best.append(run)
        if len(rows) < chunk:
            break
        start, chunk = start + chunk, chunk * 4
    return places(best, lambda run: _key(run, assisted))


def _order(assisted: bool) -> list:
    return [*ORDER[assisted], F("finished_at").asc(), F("pk").asc()]


@dataclass
class MySolo:
    run: SoloRun
    place: int


def my_solo(account_id, level: str, assisted: bool, top=()) -> MySolo | None:
    """The viewer's best run on the board and its place: read off `top` (solo_top's list)
    when the viewer is in it, else 1 + the accounts with a better run (a count)."""
    if account_id is None:
        return None
    listed = next(((place, run) for place, run in top if run.player.account_id == account_id), None)
    if listed is not None:
        return MySolo(listed[1], listed[0])
    mine = _board_runs(level, assisted).filter(player__account_id=account_id).order_by(*_order(assisted)).first()
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

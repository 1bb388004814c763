"""Each account's best Solo Run per all-time board (games.models.SoloBest), which the
rankings across accounts read (stats/rankings.py, docs/rules.md section 8).

A run is on a board when it is a finished Solo Run (not a daily's) of a profile linked to
an account. `refresh_best` recomputes an account's rows from its runs, wherever a run joins
or leaves its boards: a Solo Run's finish (games/sudoku/solo.py; a finished run never changes), a
browser's profile linked at sign-in (accounts/linking.py), a run or profile the admin edits
or deletes (games/admin.py, players/admin.py). Deleting a run or an account deletes its
rows (accounts/records.py deletes the account's runs, then the account; `detach` first).
Unlinking a browser leaves its runs with the account (docs/rules.md section 6): nothing moves.
Daily runs, and so their fair-play review, are never on these boards.

Each board's rows are also counted per band (games.models.SoloBand), so that a place is a
sum over the bands ahead: every write here counts the bands it touched afresh, and a
deletion of runs (the admin's, an account's) takes their rows off first (`detach`): a
cascade would delete them without a word to their bands.

`rebuild` makes the table from scratch (the migration that made it, manage.py
rebuild_solo_bests, the bench's seeding).
"""

from __future__ import annotations

import math
import operator
from functools import reduce

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, IntegerField, Q, Value
from django.db.models.functions import Cast, Floor

from games.models import Level, SoloBand, SoloBest, SoloRun

# The personal boards' orders (stats.leaderboards): Classic by time, then fewer mistakes,
# then higher score; Assisted by fewer hints, fewer mistakes, time, then higher score.
# Of an account's equal bests, the earliest finish is its best (then the first run).
ORDER = {
    False: (F("elapsed").asc(), F("mistakes").asc(), F("score").desc()),
    True: (F("hints").asc(), F("mistakes").asc(), F("elapsed").asc(), F("score").desc()),
}
FIELDS = {False: ("elapsed", "mistakes", "-score"), True: ("hints", "mistakes", "elapsed", "-score")}
KEPT = ("elapsed", "mistakes", "hints", "score", "finished_at")  # copied from the run
# A board's bands: its order's fields before the time, then the time's whole seconds.
PREFIX = {assisted: FIELDS[assisted][: FIELDS[assisted].index("elapsed")] for assisted in (False, True)}
BAND = ("level", "assisted", "hints", "mistakes", "second")
BAND_OF = ("level", "assisted", "hints", "mistakes", "elapsed")  # a best's values that give its band
BOARDS = [(level, assisted) for level in Level.values for assisted in (False, True)]
BATCH = 5000


def order(assisted: bool) -> list:
    return [*ORDER[assisted], F("finished_at").asc(), F("pk").asc()]


def board_runs(runs=None):
    """The runs on the boards across accounts (of `runs`, SoloRun's manager by default)."""
    runs = SoloRun.objects if runs is None else runs
    finished = runs.filter(state=SoloRun.State.FINISHED, elapsed__isnull=False)
    # Daily runs (one shared puzzle a day) have the daily boards; these are the Solo Runs.
    return finished.filter(player__account__isnull=False, daily__isnull=True)


def refresh_best(account_id: int | None, level: str | None = None, assisted: bool | None = None) -> None:
    """Recompute `account_id`'s rows (of `level` and `assisted` if given, else all eight)
    from its runs: one indexed read per board, then one upsert and one delete."""
    if account_id is None:
        return
    boards = [(lv, a) for lv, a in BOARDS if level in (None, lv) and assisted in (None, a)]
    with transaction.atomic():
        # Two finishes of one account at once would each write the best it saw: the account's
        # row, locked, makes them take turns (SQLite's IMMEDIATE transaction already does).
        list(get_user_model().objects.select_for_update().filter(pk=account_id).values_list("pk"))
        touched = {band_of(row) for row in SoloBest.objects.filter(_on(boards), account_id=account_id).values(*BAND_OF)}
        found, empty = [], []
        for lv, a in boards:
            best = (
                board_runs()
                .filter(player__account_id=account_id, level=lv, assisted=a)
                .order_by(*order(a))
                .values_list("pk", *KEPT)
                .first()
            )
            if best is None:
                empty.append((lv, a))
            else:
                found.append(_row(SoloBest, account_id, lv, a, best))
        if found:
            SoloBest.objects.bulk_create(
                found,
                update_conflicts=True,
                unique_fields=["account", "level", "assisted"],
                update_fields=["run", *KEPT],
            )
        for lv, a in empty:
            SoloBest.objects.filter(account_id=account_id, level=lv, assisted=a).delete()
        recount(touched | {band_of(vars(row)) for row in found})


def band_of(row: dict) -> tuple:
    """A best's band (a key of BAND) from its values of BAND_OF."""
    prefix = PREFIX[row["assisted"]]
    hints, mistakes = (row[f] if f in prefix else 0 for f in ("hints", "mistakes"))
    return row["level"], row["assisted"], hints, mistakes, math.floor(row["elapsed"])


def _on(boards) -> Q:
    return reduce(operator.or_, (Q(level=lv, assisted=a) for lv, a in boards), Q(pk__in=[]))


def _in_band(key: tuple) -> Q:
    """The SoloBest rows of a band."""
    level, assisted, hints, mistakes, second = key
    prefix = {f: v for f, v in (("hints", hints), ("mistakes", mistakes)) if f in PREFIX[assisted]}
    return Q(level=level, assisted=assisted, elapsed__gte=second, elapsed__lt=second + 1, **prefix)


def recount(bands) -> None:
    """Count these bands' rows afresh, each band's row locked (made first if new) in one order
    across writers, so that two writers of one band take turns and the later counts the
    earlier's row too (a count, not an increment: a band once wrong is right again at its
    next write). In the caller's transaction (its own if none)."""
    keys = sorted(bands)
    if not keys:
        return
    with transaction.atomic():
        SoloBand.objects.bulk_create(
            [SoloBand(**dict(zip(BAND, key, strict=True)), runs=0) for key in keys], ignore_conflicts=True
        )
        match = reduce(operator.or_, (Q(**dict(zip(BAND, key, strict=True))) for key in keys))
        rows = list(SoloBand.objects.select_for_update().filter(match).order_by(*BAND))
        names = {key: f"b{i}" for i, key in enumerate(keys)}
        counts = SoloBest.objects.filter(reduce(operator.or_, map(_in_band, keys))).aggregate(
            **{name: Count("pk", filter=_in_band(key)) for key, name in names.items()}
        )
        for row in rows:
            row.runs = counts[names[tuple(getattr(row, f) for f in BAND)]]
        SoloBand.objects.bulk_update(rows, ["runs"])


def detach(runs) -> None:
    """Take the rows of `runs` (a SoloRun queryset) off the boards, their bands recounted:
    before the runs are deleted (their accounts are then refreshed from the runs left)."""
    with transaction.atomic():
        rows = SoloBest.objects.filter(run__in=runs.values("pk"))
        touched = {band_of(row) for row in rows.values(*BAND_OF)}
        rows.delete()
        recount(touched)


def _row(model, account_id: int, level: str, assisted: bool, run: tuple):
    """A row of `model` (SoloBest) from a run's values ("pk", *KEPT)."""
    pk, *kept = run
    return model(account_id=account_id, level=level, assisted=assisted, run_id=pk, **dict(zip(KEPT, kept, strict=True)))


def refresh_accounts(account_ids) -> None:
    for account_id in sorted({a for a in account_ids if a is not None}):
        refresh_best(account_id)


def rebuild(runs_model=None, bests_model=None) -> int:
    """Every account's rows from scratch, in bulk (the models: the migration's own); returns
    how many. Each Classic or Assisted pass reads the board runs in account, level and board
    order and keeps each (account, level)'s first."""
    bands = runs_model is None  # the migration that made SoloBest had no bands yet
    runs_model, bests_model = runs_model or SoloRun, bests_model or SoloBest
    made = 0
    with transaction.atomic():
        bests_model.objects.all().delete()
        for assisted in (False, True):
            runs = (
                board_runs(runs_model.objects)
                .filter(assisted=assisted)
                .order_by("player__account_id", "level", *order(assisted))
                .values_list("player__account_id", "level", "pk", *KEPT)
            )
            batch: list = []
            last = None
            for account_id, level, pk, *kept in runs.iterator(chunk_size=BATCH):
                if (account_id, level) == last:
                    continue
                last = (account_id, level)
                batch.append(_row(bests_model, account_id, level, assisted, (pk, *kept)))
                if len(batch) >= BATCH:
                    bests_model.objects.bulk_create(batch)
                    made, batch = made + len(batch), []
            bests_model.objects.bulk_create(batch)
            made += len(batch)
        if bands:
            rebuild_bands()
    return made


def rebuild_bands(bests_model=None, bands_model=None) -> None:
    """Every band's count from scratch, by one grouped read per board kind (the models: a
    migration's own). An operator's repair (rebuild_solo_bests) or a migration: a finish
    waiting on a band's lock meanwhile finds its row gone and leaves that band as rebuilt."""
    bests_model, bands_model = bests_model or SoloBest, bands_model or SoloBand
    with transaction.atomic():
        bands_model.objects.all().delete()
        for assisted in (False, True):
            key = {f: F(f) if f in PREFIX[assisted] else Value(0) for f in ("hints", "mistakes")}
            grouped = (
                bests_model.objects.filter(assisted=assisted)
                .annotate(**{f"band_{f}": v for f, v in key.items()}, second=Cast(Floor("elapsed"), IntegerField()))
                .values("level", *(f"band_{f}" for f in key), "second")
                .annotate(runs=Count("pk"))
                .order_by()
            )
            bands_model.objects.bulk_create(
                bands_model(level=g["level"], assisted=assisted, hints=g["band_hints"], mistakes=g["band_mistakes"],
                            second=g["second"], runs=g["runs"])
                for g in grouped
            )  # fmt: skip

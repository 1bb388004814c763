"""The all-time Solo Run boards across accounts (docs/rules.md section 8) read each account's best
run per board, a SoloBest row kept at every write that moves a run onto or off an account's
boards (games/sudoku/bests.py). The places must be those of the boards' definition, counted over
the runs (1 + the accounts with a run strictly ahead: what stats.rankings counted before
SoloBest), through a finish, a sign-in's link, an unlink, the admin's edits and deletes and
an account's deletion; a rebuild from scratch gives the rows kept; and the page for a viewer
outside the top costs at most 4 queries."""

import datetime as dt
import random
import re
import threading
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.linking import link_at_sign_in, unlink
from accounts.records import delete_account
from games.daily.models import Daily
from games.models import Puzzle, SoloBand, SoloBest, SoloRun
from games.sudoku import solo
from games.sudoku.bests import BAND, FIELDS, board_runs, order, rebuild, refresh_best
from players.models import Profile
from stats import rankings
from tests.conftest import EMPTY, PUZZLE, SOLUTION
from tests.stats.rated_rooms import signed_in
from tests.stats.test_rating_pages import browser_of, finished_run, text

pytestmark = pytest.mark.django_db
BOARDS = [("easy", False), ("easy", True)]
BEST_FIELDS = ("account_id", "level", "assisted", "run_id", "elapsed", "mistakes", "hints", "score", "finished_at")


# --- the definition, over the runs ------------------------------------------------------------


def _ahead_of(run, assisted: bool) -> Q:
    """Runs strictly better than `run` on its board (lexicographic on the board's order)."""
    ahead, equal = Q(pk__in=[]), Q()
    for field in FIELDS[assisted]:
        name, better = (field[1:], "gt") if field.startswith("-") else (field, "lt")
        ahead |= equal & Q(**{f"{name}__{better}": getattr(run, name)})
        equal &= Q(**{name: getattr(run, name)})
    return ahead


def defined_place(account_id, level, assisted) -> tuple[int, int] | None:
    """(place, best run's id) by the definition: the account's first run in board order, and
    1 + the other accounts with a run strictly ahead of it."""
    runs = board_runs().filter(level=level, assisted=assisted)
    mine = runs.filter(player__account_id=account_id).order_by(*order(assisted)).first()
    if mine is None:
        return None
    ahead = (
        runs.filter(_ahead_of(mine, assisted))
        .exclude(player__account_id=account_id)
        .values("player__account_id")
        .distinct()
        .count()
    )
    return ahead + 1, mine.pk


def accounts():
    return list(get_user_model().objects.values_list("pk", flat=True))


def assert_as_defined():
    """Every account's place and best on every board, and every top list, as defined."""
    for level, assisted in BOARDS:
        listed = rankings.solo_top(level, assisted)
        for account_id in accounts():
            defined = defined_place(account_id, level, assisted)
            counted = rankings.my_solo(account_id, level, assisted)  # not read off the list: counted
            read = rankings.my_solo(account_id, level, assisted, listed)
            best = SoloBest.objects.filter(account_id=account_id, level=level, assisted=assisted).first()
            if defined is None:
                assert counted is None and read is None and best is None
            else:
                assert (counted.place, best.run_id) == defined, (account_id, level, assisted)
                assert read.place == counted.place
        by_definition = {(defined[0], a) for a in accounts() if (defined := defined_place(a, level, assisted))}
        assert {(place, row.account_id) for place, row in listed} == by_definition
        assert [place for place, _row in listed] == sorted(place for place, _a in by_definition)
    # ... and a rebuild from scratch makes the rows kept at each write, and their bands' counts.
    kept, bands = set(SoloBest.objects.values_list(*BEST_FIELDS)), counted_bands()
    rebuild()
    assert set(SoloBest.objects.values_list(*BEST_FIELDS)) == kept
    assert counted_bands() == bands


def counted_bands() -> dict:
    """The bands with rows, as kept (an emptied band keeps its row, at 0)."""
    return {tuple(key): n for *key, n in SoloBand.objects.values_list(*BAND, "runs") if n}


def places(assisted=False) -> dict[str, int]:
    return {row.name: place for place, row in rankings.solo_top("easy", assisted)}


@pytest.fixture
def puzzle(db):
    return Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=3)


@pytest.fixture
def field(puzzle):
    """A worked example: ties, an account of two browsers, Classic and Assisted boards, a
    daily run under review and an anonymous player's run (neither on these boards)."""
    ada, grace, linus, mia = (signed_in(name) for name in ("Ada", "Grace", "Linus", "Mia"))
    ada_phone = Profile.objects.create(display_name="Ada's phone", account=ada.account)
    finished_run(ada, "easy", 300, puzzle=puzzle)
    finished_run(ada_phone, "easy", 200, puzzle=puzzle)  # Ada's best, on her other browser
    finished_run(grace, "easy", 200, puzzle=puzzle)  # equal to Ada's: a shared first place
    finished_run(grace, "easy", 200, puzzle=puzzle)  # equal again, later: counted once
    finished_run(linus, "easy", 200, mistakes=1, puzzle=puzzle)
    finished_run(mia, "easy", 250, score=900, puzzle=puzzle)
    finished_run(linus, "easy", 100, assisted=True, hints=1, puzzle=puzzle)
    finished_run(ada, "easy", 500, assisted=True, hints=1, puzzle=puzzle)
    finished_run(mia, "easy", 90, assisted=True, hints=2, puzzle=puzzle)
    finished_run(Profile.objects.create(display_name="Guest"), "easy", 50, puzzle=puzzle)  # no account
    daily_puzzle = Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=4)
    daily = Daily.objects.create(date=dt.date(2026, 1, 1), level="easy", puzzle=daily_puzzle)
    held = finished_run(mia, "easy", 40, puzzle=daily_puzzle)
    SoloRun.objects.filter(pk=held.pk).update(daily=daily, review=SoloRun.Review.HELD)
    refresh_best(mia.account_id)
    return SimpleNamespace(ada=ada, ada_phone=ada_phone, grace=grace, linus=linus, mia=mia)


def test_the_worked_example_places(field):
    assert places() == {"Ada's phone": 1, "Grace": 1, "Linus": 3, "Mia": 4}
    assert places(assisted=True) == {"Linus": 1, "Ada": 2, "Mia": 3}
    mia = rankings.my_solo(field.mia.account_id, "easy", False)
    assert (mia.place, mia.run.elapsed) == (4, 250)  # not the held daily run's 0:40
    assert_as_defined()


def test_unlinking_a_browser_keeps_its_runs_with_the_account(field):
    unlink(field.ada_phone)  # docs/rules.md section 6: what it played stays with the account
    assert places() == {"Ada's phone": 1, "Grace": 1, "Linus": 3, "Mia": 4}
    assert_as_defined()


def test_a_sign_in_brings_the_browsers_runs(field, puzzle):
    zoe = Profile.objects.create(display_name="Zoe")
    finished_run(zoe, "easy", 150, puzzle=puzzle)  # anonymous: on no board yet
    finished_run(zoe, "easy", 80, assisted=True, hints=3, puzzle=puzzle)
    assert "Zoe" not in places()
    account = get_user_model().objects.create(username="zoe", email="zoe@example.com")
    binding = SimpleNamespace(token=zoe.token, profile=None, loaded=False, created=False)
    link_at_sign_in(SimpleNamespace(_player_binding=binding, session={}, META={}), account)
    assert places() == {"Zoe": 1, "Ada's phone": 2, "Grace": 2, "Linus": 4, "Mia": 5}
    assert places(assisted=True)["Zoe"] == 4  # most hints
    assert_as_defined()


def test_the_admins_edits_and_deletes(field):
    runs, profiles = admin.site._registry[SoloRun], admin.site._registry[Profile]
    profiles.delete_model(None, field.ada_phone)  # its runs go with it: her laptop's 300 is her best now
    assert places() == {"Grace": 1, "Linus": 2, "Mia": 3, "Ada": 4}
    first, second = SoloRun.objects.filter(player=field.grace).order_by("pk")
    assert SoloBest.objects.get(account=field.grace.account).run_id == first.pk  # the earlier of equal bests
    runs.delete_model(None, first)
    assert SoloBest.objects.get(account=field.grace.account).run_id == second.pk
    linus_run = SoloRun.objects.get(player=field.linus, assisted=False)
    linus_run.player = field.ada  # moved to another account's profile: both are refreshed
    runs.save_model(None, linus_run, None, change=True)
    assert places() == {"Grace": 1, "Ada": 2, "Mia": 3}
    runs.delete_queryset(None, SoloRun.objects.filter(player=field.grace))
    assert places() == {"Ada": 1, "Mia": 2}
    profiles.delete_queryset(None, Profile.objects.filter(pk=field.mia.pk))
    assert places() == {"Ada": 1} and places(assisted=True) == {"Linus": 1, "Ada": 2}
    assert_as_defined()


def test_a_deleted_account_leaves_the_boards(field):
    delete_account(field.ada.account)
    assert places() == {"Grace": 1, "Linus": 2, "Mia": 3}
    assert places(assisted=True) == {"Linus": 1, "Mia": 2}
    assert_as_defined()


def test_a_finish_puts_the_run_on_its_board(field, puzzle):
    zoe = signed_in("Zoe")

    def play(assisted: bool, seconds: int):
        run = solo.new_run(zoe, puzzle)
        now = run.started_at + dt.timedelta(seconds=seconds)
        if assisted:
            solo.act(run.pk, zoe, solo.SoloAction("hint", cell=EMPTY[0]), now)
        for cell in EMPTY[1 if assisted else 0 :]:
            played = solo.act(run.pk, zoe, solo.SoloAction("enter", cell=cell, digit=int(SOLUTION[cell])), now)
        assert played.run.state == SoloRun.State.FINISHED and played.run.assisted == assisted
        return played.run

    first = play(False, 260)
    assert places()["Zoe"] == 5
    assert SoloBest.objects.get(account=zoe.account, assisted=False).run_id == first.pk
    faster = play(False, 150)
    assert places()["Zoe"] == 1
    play(False, 400)  # slower: the best stays
    assert SoloBest.objects.get(account=zoe.account, assisted=False).run_id == faster.pk
    play(True, 60)  # a hint: the Assisted board, the Classic best untouched
    assert places(assisted=True)["Zoe"] == 1 and places()["Zoe"] == 1
    assert_as_defined()


def test_the_rebuild_command_says_how_many_rows_differed(field, capsys):
    call_command("rebuild_solo_bests")
    assert "Solo Run bests rebuilt: 7 rows; 0 differed from the kept rows." in capsys.readouterr().out
    SoloBest.objects.filter(account=field.grace.account).delete()  # a row lost
    wrong = SoloRun.objects.get(player=field.mia, daily__isnull=False)  # a row pointing at another run
    SoloBest.objects.filter(account=field.mia.account, assisted=False).update(run=wrong)
    SoloBand.objects.filter(level="easy", assisted=True, hints=2).update(runs=5)  # Mia's band, miscounted
    call_command("rebuild_solo_bests")
    out = capsys.readouterr().out
    assert "7 rows; 3 differed" in out  # Grace's row; Mia's, as kept and as rebuilt
    assert "Their bands counted again: 5; 1 differed from the kept counts." in out  # Mia's
    assert_as_defined()


def test_a_viewer_outside_the_top_costs_four_queries_at_most(puzzle):
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"u{i}", email=f"u{i}@example.com") for i in range(rankings.TOP + 6)
    )
    profiles = Profile.objects.bulk_create(Profile(display_name=f"P{u.username}", account=u) for u in users)
    now = timezone.now()
    SoloRun.objects.bulk_create(
        SoloRun(player=p, puzzle=puzzle, level="easy", state=SoloRun.State.FINISHED, board={},
                elapsed=100 + i // 2, finished_at=now)  # two by two equal: shared places
        for i, p in enumerate(profiles)
    )  # fmt: skip
    rebuild()
    viewer = Profile.objects.get(pk=profiles[-1].pk)  # the slowest, with its twin: place 105
    client = browser_of(viewer)
    client.get("/rankings/solo/easy/classic/")  # warm: the session's first read
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/rankings/solo/easy/classic/")
    assert "place #105, best 2:32" in text(response)
    assert len(re.findall(r"<tr", response.content.decode())) == rankings.TOP + 1  # the head's row too
    assert len(queries) <= 4, [q["sql"] for q in queries]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_bests_of_existing_runs():
    from django.db.migrations.executor import MigrationExecutor

    def migrate(targets):
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    latest = list(MigrationExecutor(connection).loader.graph.leaf_nodes())
    old = migrate([("games", "0006_ranking_indexes")])
    try:
        User, Profile_, Puzzle_, Run = (
            old.get_model(*m)
            for m in (("auth", "User"), ("players", "Profile"), ("games", "Puzzle"), ("games", "SoloRun"))
        )
        puzzle = Puzzle_.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=5)
        ada = User.objects.create(username="ada")
        laptop, phone = (Profile_.objects.create(token=t, display_name="Ada", account=ada) for t in ("t1", "t2"))
        guest = Profile_.objects.create(token="t3", display_name="Guest")
        now = timezone.now()

        def run(player, elapsed, state="finished", **fields):
            return Run.objects.create(
                player=player, puzzle=puzzle, level="easy", board={}, state=state, elapsed=elapsed,
                finished_at=now, **fields,
            )  # fmt: skip

        run(laptop, 300)
        best = run(phone, 200)
        run(guest, 100)
        assisted = run(laptop, 90, assisted=True, hints=1)
        run(phone, 400, state="playing")
    finally:
        migrate(latest)
    assert set(SoloBest.objects.values_list("account_id", "level", "assisted", "run_id")) == {
        (ada.pk, "easy", False, best.pk),
        (ada.pk, "easy", True, assisted.pk),
    }


# --- the bands: a place off the top list is a sum over the bands ahead plus a count within its own


@pytest.mark.parametrize("seed", range(3))
def test_places_at_the_edges_of_the_bands_are_as_defined(puzzle, seed):
    """Times on a whole second, a hair either side of it and equal to each other, with hints,
    mistakes and scores spread (an Assisted band is hints, mistakes and a second): every
    counted place is the definition's, then again after bests move and leave."""
    rng = random.Random(seed)
    times = [100, 100.0001, 99.9999, 101, 100.5, 100.5, 102.25]
    profiles = [signed_in(f"R{i}") for i in range(24)]
    for profile in profiles:
        for _ in range(rng.randint(1, 3)):
            assisted = rng.random() < 0.5
            finished_run(
                profile, "easy", rng.choice(times), assisted=assisted, hints=rng.randint(1, 2) if assisted else 0,
                mistakes=rng.randint(0, 2), score=rng.choice([900, 1000]), puzzle=puzzle,
            )  # fmt: skip
    assert_as_defined()
    for profile in rng.sample(profiles, 6):  # bests move to other bands, and leave the boards
        finished_run(profile, "easy", rng.choice([50, 99.5]), puzzle=puzzle)
    delete_account(profiles[0].account)
    admin.site._registry[SoloRun].delete_queryset(None, SoloRun.objects.filter(player=profiles[1]))
    assert_as_defined()


def test_a_band_is_counted_afresh_so_a_wrong_count_is_put_right_at_its_next_write(field, puzzle):
    SoloBand.objects.filter(level="easy", assisted=False, second=200).update(runs=40)  # as if a write were lost
    assert rankings.my_solo(field.mia.account_id, "easy", False).place == 4 + 40 - 3  # 3 rows there
    finished_run(signed_in("Zoe"), "easy", 200.5, puzzle=puzzle)  # the same band: counted again
    assert rankings.my_solo(field.mia.account_id, "easy", False).place == 5
    assert_as_defined()


@pytest.mark.django_db(transaction=True)
def test_finishes_at_once_in_the_same_bands_lose_no_count(puzzle):
    """Eight accounts finish at the same moment into the same two bands, each in its own
    connection: the band rows, locked in one order, make them take turns, and the later
    count sees the earlier's row (on PostgreSQL; SQLite's writers take turns anyway)."""
    profiles = [signed_in(f"T{i}") for i in range(8)]
    barrier = threading.Barrier(len(profiles))
    errors = []

    def finish(n):
        try:
            barrier.wait()
            finished_run(profiles[n], "easy", 300.25 if n % 2 else 301.5, puzzle=puzzle)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(n,)) for n in range(len(profiles))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert counted_bands() == {("easy", False, 0, 0, 300): 4, ("easy", False, 0, 0, 301): 4}
    assert rankings.my_solo(profiles[1].account_id, "easy", False).place == 1
    assert rankings.my_solo(profiles[0].account_id, "easy", False).place == 5

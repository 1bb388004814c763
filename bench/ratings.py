"""The Showdown rating's costs (issue 24): rating rooms, and the rankings page at scale.

Run from the repo root:
    .venv/bin/python bench/ratings.py [--rooms 10000] [--players 100000] [--requests 40] [--backends sqlite,postgres]

On a fresh test database (SQLite always, PostgreSQL too when DATABASE_URL is set; each
backend in a process of its own, as the settings read DATABASE_URL when they load):

1. Rating: `--rooms` rooms of 2-5 players (random sizes and finishing orders, ties and
   leavers included) among 2,000 accounts, each rated the way a room's final write rates
   it (stats.ratings._apply in its own transaction: lock the players' ratings, the model,
   the RatingChange rows, the ratings saved). Also the model alone (ratings.update, no
   database). Target: <= 5 ms per room.
2. Rankings: `--players` accounts with a rating (rooms, sigma and last room spread so
   about half are ranked), then GET /rankings/ through the test client (every middleware,
   the view, the template) as a signed-in player near the bottom (the costliest own place:
   the most ratings above it), timing `--requests` requests after a warm-up and counting
   their queries. Target: <= 30 ms server time, <= 4 queries. One Solo Run board across
   accounts (/rankings/solo/easy/classic/) is timed the same way with a finished run per
   account (their bests filled by games.sudoku.bests.rebuild, the migration's bulk path), the
   viewer's run the slowest (the most accounts ahead); the same target.

Times are wall clock in this process (database included); the process's CPU time is
printed beside them, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))

ACCOUNTS_RATING_ROOMS = 2000


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def random_room(rng: random.Random, accounts: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[int]]:
    """(players as (account, profile), ranks): 2-5 players, shared places now and then,
    and sometimes a leaver, ranked after everyone who stayed."""
    size = rng.randint(2, 5)
    chosen = rng.sample(accounts, size)
    ranks: list[int] = []
    place = 1
    for i in range(size):
        if i and rng.random() < 0.1:
            ranks.append(ranks[-1])  # a tie with the previous player
        else:
            ranks.append(i + 1)
        place = ranks[-1]
    if rng.random() < 0.2:
        ranks[-1] = place + 1  # left: ranked last
    return chosen, ranks


def bench_rating(rooms: int, rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from players.models import Profile
    from rooms.models import Room
    from stats import ratings

    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"r{i}") for i in range(ACCOUNTS_RATING_ROOMS)
    )
    profiles = Profile.objects.bulk_create(Profile(display_name=f"R{u.pk}", account=u) for u in users)
    accounts = [(u.pk, p.pk) for u, p in zip(users, profiles, strict=True)]
    # RatingChange rows point at real rooms; made beforehand, not timed.
    made = Room.objects.bulk_create(Room(code=f"B{i:05d}", game="showdown", level="easy") for i in range(rooms))
    plan = [random_room(rng, accounts) for _ in range(rooms)]
    now = timezone.now()
    model_ms = []
    for players, ranks in plan[: min(rooms, 2000)]:  # the model alone, from fresh ratings
        t0 = time.perf_counter()
        ratings.update([(ratings.MU, ratings.SIGMA)] * len(players), ranks)
        model_ms.append(1000 * (time.perf_counter() - t0))
    per_room, t_start, c_start = [], time.perf_counter(), time.process_time()
    for room, (players, ranks) in zip(made, plan, strict=True):
        t0 = time.perf_counter()
        with transaction.atomic():
            ratings._apply(room.pk, players, ranks, now)
        per_room.append(1000 * (time.perf_counter() - t0))
    total_s, cpu_s = time.perf_counter() - t_start, time.process_time() - c_start
    return {
        "rooms": rooms,
        "model_median_ms": statistics.median(model_ms),
        "median_ms": statistics.median(per_room),
        "p99_ms": pct(per_room, 0.99),
        "mean_ms": 1000 * total_s / rooms,
        "cpu_mean_ms": 1000 * cpu_s / rooms,
    }


def seed_rankings(players: int, rng: random.Random):
    """`players` accounts, each with a profile and a rating; about half pass the top list's
    gates. Returns (the viewer's profile, the viewer's account)."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Puzzle, SoloRun
    from games.sudoku import bests
    from players.models import Profile
    from stats import ratings
    from stats.models import Rating

    User = get_user_model()
    now = timezone.now()
    start = User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    batch = 5000
    puzzle = Puzzle.objects.create(level="easy", givens="0" * 81, solution="1" * 81, clues=0, seed=1)
    for lo in range(0, players, batch):
        n = min(batch, players - lo)
        users = User.objects.bulk_create(User(username=f"p{start + lo + i}") for i in range(n))
        profiles = Profile.objects.bulk_create(Profile(display_name=f"Player {u.pk}", account=u) for u in users)
        rows, runs = [], []
        for u, p in zip(users, profiles, strict=True):
            mu = rng.gauss(25, 4)
            sigma = rng.choice([2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.0])
            rooms = rng.choice([3, 8, 12, 20, 40, 80])
            last = now - timedelta(days=rng.choice([0, 1, 3, 10, 20, 45, 90]))
            rows.append(
                Rating(account=u, profile=p, mu=mu, sigma=sigma, shown=ratings.shown(mu, sigma), rooms=rooms,
                       last_room_at=last)
            )  # fmt: skip
            runs.append(
                SoloRun(player=p, puzzle=puzzle, level="easy", state=SoloRun.State.FINISHED, board={},
                        elapsed=rng.uniform(120, 1200), mistakes=rng.randint(0, 3), score=rng.randint(500, 1500),
                        finished_at=now - timedelta(days=rng.randint(0, 300)))
            )  # fmt: skip
        Rating.objects.bulk_create(rows)
        SoloRun.objects.bulk_create(runs)
    # The viewer: ranked, near the bottom of the ranked pool (the most ratings above it), and
    # the slowest on the Solo Run board (every other account ahead).
    viewer = Profile.objects.filter(account__isnull=False).order_by("-pk").first()
    assert viewer is not None
    Rating.objects.filter(account_id=viewer.account_id).update(
        rooms=settings.RANKING_MIN_ROOMS + 5, sigma=3.0, shown=1000, last_room_at=now
    )
    SoloRun.objects.filter(player=viewer).update(elapsed=1300)
    bests.rebuild()  # each account's best per board (games.models.SoloBest)
    return viewer


def time_page(client, url: str, requests: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(3):  # warm up: templates, connections, the database's caches
        assert client.get(url).status_code == 200
    wall, cpu, counts = [], [], []
    for _ in range(requests):
        with CaptureQueriesContext(connection) as queries:
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(url)
            wall.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
        assert response.status_code == 200
        counts.append(len(queries))
    return {
        "url": url,
        "median_ms": statistics.median(wall),
        "p95_ms": pct(wall, 0.95),
        "cpu_median_ms": statistics.median(cpu),
        "queries": max(counts),
        "bytes": len(response.content),
    }


def run_backend(rooms: int, players: int, requests: int, out: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tests.conftest import cookie_for

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(24)
        result: dict = {"backend": connection.vendor, "rating": bench_rating(rooms, rng)}
        t0 = time.perf_counter()
        viewer = seed_rankings(players, rng)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE stats_rating")  # what autovacuum does after a bulk load
                cursor.execute("VACUUM ANALYZE games_solorun")
                cursor.execute("VACUUM ANALYZE games_solobest")
        else:
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        result["seed_s"] = time.perf_counter() - t0
        client = Client()
        client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(viewer)
        client.force_login(viewer.account)
        result["players"] = players
        result["rankings"] = time_page(client, "/rankings/", requests)
        result["solo"] = time_page(client, "/rankings/solo/easy/classic/", requests)
        Path(out).write_text(json.dumps(result))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def report(result: dict) -> None:
    r = result["rating"]
    print(f"\n{result['backend']}:")
    print(
        f"  rating {r['rooms']} rooms of 2-5 players: {r['mean_ms']:.2f} ms per room on average "
        f"(median {r['median_ms']:.2f}, p99 {r['p99_ms']:.2f}; CPU {r['cpu_mean_ms']:.2f}); "
        f"the model alone {r['model_median_ms']:.2f} ms  [target <= 5 ms]"
    )
    print(f"  seeded {result['players']} rated players (+ one Solo Run each) in {result['seed_s']:.0f} s")
    for key in ("rankings", "solo"):
        p = result[key]
        print(
            f"  GET {p['url']}: median {p['median_ms']:.1f} ms, p95 {p['p95_ms']:.1f} ms "
            f"(CPU {p['cpu_median_ms']:.1f}), {p['queries']} queries, {p['bytes'] // 1024} KB"
            "  [target <= 30 ms, <= 4 queries]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--backends", default=None, help="comma-separated: sqlite, postgres")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_backend(args.rooms, args.players, args.requests, args.out)
        return
    url = os.environ.get("DATABASE_URL", "")
    backends = (
        args.backends.split(",") if args.backends else ["sqlite"] + (["postgres"] if url.startswith("postgres") else [])
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench/ratings.py (load {load:.1f} at the start, {os.cpu_count()} cores)")
    for backend in backends:
        env = dict(os.environ)
        if backend == "sqlite":
            env.pop("DATABASE_URL", None)
        elif not url.startswith("postgres"):
            print("postgres: skipped (set DATABASE_URL=postgres://...)")
            continue
        env.pop("REDIS_URL", None)
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            command = [sys.executable, str(Path(__file__).resolve()), "--child", "--out", out.name]
            command += ["--rooms", str(args.rooms), "--players", str(args.players), "--requests", str(args.requests)]
            subprocess.run(command, env=env, cwd=ROOT, check=True)
            report(json.loads(Path(out.name).read_text()))


if __name__ == "__main__":
    main()

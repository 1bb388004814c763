"""Daily puzzles (issue 23): a daily's board with 2,000 finishers, and the job choosing 7 days.

Run from the repo root:
    .venv/bin/python bench/daily.py [--finishers 2000] [--renders 60] [--backends sqlite,postgres]

Each backend runs in a process of its own on a fresh test database (SQLite always; PostgreSQL
when DATABASE_URL is set or --backends names it, then DATABASE_URL must point at a server).

1. The job: `choose_dailies` on an empty database chooses every open date and the next 7 days
   (9 or 10 dates x 4 levels, each puzzle generated and graded); then again (nothing to do).
2. The board: 2,000 players (1,800 signed in, 200 anonymous) finish today's Easy daily, rows
   inserted directly: lognormal times (median 6:00), mistakes 0-6, one in five Assisted with
   1-3 hints. The page /daily/<date>/easy/ is rendered through Django's test client (every
   middleware, the view, the template; no network) for three viewers: an anonymous player with
   a run (place ~1,500), a signed-in player outside the top 100, one inside it. "cold": the
   board's cache emptied before each render; "warm": read from it. Server time is the wall
   clock of the whole request; queries are every query the request made (the player cookie's
   profile, a signed-in browser's session and user included).

Targets: a render <= 20 ms with <= 3 queries; the 7-day job <= 2 s (generation included).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))


def child(finishers: int, renders: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import datetime as dt

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    settings.ALLOWED_HOSTS = ["testserver"]  # no setup_test_environment(): its template signal copies every context
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    result: dict = {"backend": connection.vendor}
    try:
        from games.daily.models import Daily
        from games.daily.schedule import choose_dailies
        from games.models import SoloRun
        from players.models import Profile
        from tests.conftest import cookie_for

        settings.DAILY_DAYS_AHEAD = 7
        started, started_cpu = time.perf_counter(), time.process_time()
        chosen = choose_dailies()
        result["job_first"] = (time.perf_counter() - started, chosen, time.process_time() - started_cpu)
        started = time.perf_counter()
        again = choose_dailies()
        result["job_again"] = (time.perf_counter() - started, again)

        daily = Daily.objects.get(date=timezone.now().date(), level="easy")
        rng = random.Random(23)
        User = get_user_model()
        users = User.objects.bulk_create(
            [User(username=f"bench{n}", email=f"bench{n}@example.com") for n in range(int(finishers * 0.9))]
        )
        profiles = Profile.objects.bulk_create(
            [
                Profile(display_name=f"Player {n}", account=users[n] if n < len(users) else None)
                for n in range(finishers)
            ]
        )
        now = timezone.now()
        runs = []
        for profile in profiles:
            assisted = rng.random() < 0.2
            elapsed = rng.lognormvariate(5.886, 0.35)  # median e^5.886 = 360 s
            runs.append(
                SoloRun(
                    player=profile,
                    puzzle=daily.puzzle,
                    level="easy",
                    board={},
                    daily=daily,
                    log=[],
                    closes_at=now + dt.timedelta(hours=20),
                    state="finished",
                    elapsed=elapsed,
                    mistakes=min(6, int(rng.expovariate(0.8))),
                    hints=rng.randint(1, 3) if assisted else 0,
                    assisted=assisted,
                    finished_at=now,
                    started_at=now - dt.timedelta(seconds=elapsed),
                )
            )
        SoloRun.objects.bulk_create(runs, batch_size=500)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE games_solorun")
        url = f"/daily/{daily.date.isoformat()}/easy/"
        board = list(
            SoloRun.objects.filter(daily=daily, player__account__isnull=False)
            .order_by("assisted", "elapsed")
            .values_list("player_id", flat=True)
        )
        viewers = {
            "anonymous, with a run": profiles[-1],
            "signed in, outside the top 100": Profile.objects.get(pk=board[1200]),
            "signed in, in the top 100": Profile.objects.get(pk=board[10]),
        }
        result["renders"] = {}
        for label, profile in viewers.items():
            client = Client()
            client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(profile)
            if profile.account is not None:
                client.force_login(profile.account)
            assert client.get(url).status_code == 200  # warm up: templates, connections
            for mode in ("cold", "warm"):
                times, cpu, queries = [], [], []
                for _ in range(renders):
                    if mode == "cold":
                        cache.clear()
                    with CaptureQueriesContext(connection) as captured:
                        started, started_cpu = time.perf_counter(), time.process_time()
                        response = client.get(url)
                        times.append((time.perf_counter() - started) * 1000)
                        cpu.append((time.process_time() - started_cpu) * 1000)
                    assert response.status_code == 200 and b"daily-table" in response.content
                    queries.append(len(captured.captured_queries))
                sql = [q["sql"][:140] for q in captured.captured_queries]
                result["renders"][f"{label}, {mode}"] = {
                    "median": statistics.median(times),
                    "p95": sorted(times)[int(len(times) * 0.95) - 1],
                    "cpu": statistics.median(cpu),
                    "queries": max(queries),
                    "sql": sql,
                }
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finishers", type=int, default=2000)
    parser.add_argument("--renders", type=int, default=60)
    parser.add_argument(
        "--backends", default=None, help="sqlite,postgres (default: sqlite, and postgres if DATABASE_URL)"
    )
    parser.add_argument("--show-sql", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.finishers, args.renders)))
        return
    database = os.environ.get("DATABASE_URL", "")
    backends = (args.backends or ("sqlite,postgres" if database.startswith("postgres") else "sqlite")).split(",")
    load = " ".join(f"{n:.2f}" for n in os.getloadavg())
    print(f"finishers={args.finishers} renders={args.renders}; load average {load}")
    for backend in backends:
        env = {**os.environ, "PUZZLE_BANK_INLINE": "1"}
        if backend == "sqlite":
            env.pop("DATABASE_URL", None)
            env.pop("REDIS_URL", None)
        elif not database.startswith("postgres"):
            sys.exit("postgres: set DATABASE_URL=postgres://...")
        out = subprocess.run(
            [sys.executable, __file__, "--child", f"--finishers={args.finishers}", f"--renders={args.renders}"],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        if out.returncode:
            sys.exit(out.stderr[-3000:])
        result = json.loads(out.stdout.strip().splitlines()[-1])
        seconds, chosen, cpu = result["job_first"]
        print(
            f"[{result['backend']}] the 7-day job: {chosen} dailies chosen (generated and graded) in {seconds:.2f} s"
            f" ({cpu:.2f} s of CPU);"
            f" run again: {result['job_again'][1]} in {result['job_again'][0] * 1000:.1f} ms"
        )
        for label, row in result["renders"].items():
            print(
                f"[{result['backend']}] board page, {label}: median {row['median']:.1f} ms, p95 {row['p95']:.1f} ms"
                f" (CPU median {row['cpu']:.1f} ms), {row['queries']} queries"
            )
            if args.show_sql:
                for sql in row["sql"]:
                    print("      ", sql)


if __name__ == "__main__":
    main()

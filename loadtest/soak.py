"""Load and soak: R rooms x 5 players through complete showdowns on daphne + PostgreSQL + Redis.

    .venv/bin/python loadtest/soak.py [--rooms 50] [--players 5] [--rounds 1] [--rate 0.1]

Every player is a real HTTP + WebSocket client (loadtest/client.py): it opens the home
page, sets its name, creates or joins the room over HTTP, plays over the socket with
random correct and wrong entries, hints, notes, refused taps, reconnects (clean, page
reloads, connections dying with a move in flight) and some players forfeit mid-game.
Afterwards loadtest/checks.py proves against the database that nothing acknowledged was
lost or doubled, that every score, mistake count and place equals a replay of the move
log, that every update reached every connected client, that each client shows what the
database holds, and that there were no 5xx, tracebacks or error closes.

Defaults: DATABASE_URL=postgres://postgres@127.0.0.1:5432/showdown_load,
REDIS_URL=redis://127.0.0.1:6379/4 (a Redis database of its own). daphne runs in
production mode (DJANGO_DEBUG=false) as a subprocess; its log is kept for the checks.
Exit status 1 when any check fails.
"""

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.common import PRODUCTION_ENV, daphne_env, ensure_database
from loadtest.scenario import Config, run_clients

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/showdown_load"
DEFAULT_REDIS = "redis://127.0.0.1:6379/4"


def setup_django(database_url: str, redis_url: str):
    """Django in this process, on the run's database (for puzzles and the checks)."""
    os.environ["DATABASE_URL"], os.environ["REDIS_URL"] = database_url, redis_url
    for key, value in PRODUCTION_ENV.items():
        os.environ.setdefault(key, value)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def stock_puzzles(count: int, seed: int) -> dict:
    """Make sure the bank holds `count` unused easy puzzles; givens -> solution of all."""
    from games.models import Puzzle
    from loadtest.common import add_puzzles

    ready = Puzzle.objects.filter(level="easy", used_at__isnull=True).count()
    if ready < count:
        add_puzzles(count - ready, seed=seed + int(time.time()) % 100000)
    return dict(Puzzle.objects.filter(level="easy", used_at__isnull=True).values_list("givens", "solution"))


def parser(description=__doc__):
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=50)
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--rounds", type=int, default=1, help="showdowns per room, one after another")
    p.add_argument(
        "--rate", type=float, default=0.1, help="moves per second per player (0.1: a move every 5-15 s, a human pace)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--ramp", type=float, default=60.0, help="seconds over which the groups arrive (0: everyone at once)"
    )
    p.add_argument("--countdown", type=float, default=3.0, help="COUNTDOWN_SECONDS for the server")
    p.add_argument("--max-seconds", type=float, default=1800)
    p.add_argument("--progress", type=float, default=15.0, help="seconds between progress lines (0: quiet)")
    p.add_argument(
        "--servers",
        type=int,
        default=1,
        help="daphne processes sharing PostgreSQL and Redis (each room's players alternate)",
    )
    p.add_argument("--database-url", default=os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DB))
    p.add_argument("--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS))
    return p


def config_from(args, **overrides) -> Config:
    return Config(
        rooms=args.rooms,
        players=args.players,
        rounds=args.rounds,
        rate=args.rate,
        seed=args.seed,
        max_seconds=args.max_seconds,
        ramp=args.ramp,
        progress=args.progress,
        **overrides,
    )


def print_report(title, config, report):
    print(
        f"{title}: rooms={config.rooms} players/room={config.players} rounds={config.rounds} "
        f"rate/player={config.rate}/s"
    )
    print(report.text())
    print("RESULT:", "all checks passed" if report.ok else "CHECKS FAILED")


def main():
    args = parser().parse_args()
    ensure_database(args.database_url)
    setup_django(args.database_url, args.redis_url)
    from loadtest.checks import figures, verify

    config = config_from(args)
    solutions = stock_puzzles(config.rooms * config.rounds + 5, args.seed)
    from loadtest.faults import Servers

    servers = Servers(
        daphne_env(args.database_url, args.redis_url, COUNTDOWN_SECONDS=args.countdown),
        count=args.servers,
        log_dir=tempfile.mkdtemp(prefix="soak-"),
    )
    try:
        servers.start()
        run = asyncio.run(run_clients(config, servers.ports, solutions))
    finally:
        servers.stop()
    report = figures(run, verify(run, logs=servers.logs))
    print_report(f"soak on {args.servers} daphne process{'es' if args.servers > 1 else ''}", config, report)
    print("daphne logs:", " ".join(servers.logs))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()

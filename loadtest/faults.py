"""Fault runs: the soak's players and checks, with something breaking mid-race.

    .venv/bin/python loadtest/faults.py kill-daphne    [--rooms 6] [--rate 0.15] [--after 60] [--down 1]
    .venv/bin/python loadtest/faults.py restart-redis  [--rooms 6] [--rate 0.15] [--after 60] [--down 3]
    .venv/bin/python loadtest/faults.py two-daphne     [--rooms 6] [--rate 0.15]

kill-daphne    SIGKILL the daphne process `--after` seconds into the race, start a new
               one on the same port `--down` seconds later. Every client reconnects,
               resyncs, re-sends the move it had in flight and finishes; nothing
               acknowledged is lost and finish times match the log's clock and the
               clients' clocks.
restart-redis  The run gets a private redis-server (never the shared one); it is killed
               mid-race and restarted empty after `--down` seconds. Clients reconnect and
               resync; a move made during the outage is applied or refused with a
               message, never silently lost.
two-daphne     Two daphne processes on different ports share PostgreSQL and Redis; the
               players of every room are split across them. Every update must reach
               every player (the checks compare each connection's pushes with the log).

The same checks as loadtest/soak.py run afterwards (socket closes and connection
failures inside the fault's window are expected and not counted as errors).
"""

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.common import RedisServer, daphne_env, ensure_database, free_port, kill9, start_daphne, stop  # noqa: E402
from loadtest.scenario import run_clients  # noqa: E402


class Servers:
    """The daphne processes of a run (replaced when one is killed and restarted)."""

    def __init__(self, env: dict, count: int = 1, log_dir: str | None = None):
        self.env = env
        self.ports = [free_port() for _ in range(count)]
        log_dir = log_dir or tempfile.mkdtemp(prefix="faults-")
        self.logs = [str(Path(log_dir) / f"daphne-{port}.log") for port in self.ports]
        self.processes = [None] * count

    def start(self, i=None):
        for j in ([i] if i is not None else range(len(self.ports))):
            self.processes[j] = start_daphne(self.ports[j], "config.asgi:application", self.env, self.logs[j],
                                             wait=False)
        for j in ([i] if i is not None else range(len(self.ports))):
            from loadtest.common import wait_for_port

            wait_for_port(self.ports[j], self.processes[j], what="daphne")
        return self

    def stop(self):
        for process in self.processes:  # all at once: each takes a second or two to drain
            if process is not None and process.poll() is None:
                process.terminate()
        for process in self.processes:
            stop(process)


async def wait_for_play(run, after: float):
    while run.stats.play_started is None:
        await asyncio.sleep(0.1)
    await asyncio.sleep(after)


def kill_daphne_fault(servers: Servers, after: float, down: float):
    async def fault(run):
        await wait_for_play(run, after)
        window = [time.time(), None]
        run.stats.fault_windows.append(window)
        applied = run.stats.replies["applied"]
        kill9(servers.processes[0])
        await asyncio.sleep(down)
        await asyncio.get_running_loop().run_in_executor(None, servers.start, 0)
        window[1] = time.time()
        run.stats.fault_note = f"daphne killed after {applied} applied moves, back {window[1] - window[0]:.1f}s later"
    return fault


async def http_probes(run):
    """While Redis is down, a second tab of a seated player forfeits over HTTP, a spectator
    tries to join, and both load the room page: each gets an answer, never a 5xx."""
    from loadtest.common import HttpSession

    probes = []
    player = next((p for p in run.players if not p.host and not p.watcher and p.view.status == "playing"
                   and p.room.code and p.http), None)
    watcher = next((p for p in run.players if p.watcher and p.http and p.room.code), None)
    for client, method, path in ((player, "GET", "/r/{code}/"), (player, "POST", "/r/{code}/leave/"),
                                 (watcher, "POST", "/r/{code}/join/"), (watcher, "GET", "/r/{code}/")):
        if client is None:
            continue
        tab = HttpSession(client.http.port)
        tab.cookies = dict(client.http.cookies)
        data = {"csrfmiddlewaretoken": tab.csrf()} if method == "POST" else None
        path = path.format(code=client.room.code)
        try:
            response = await tab.request(method, path, data=data, headers={"HX-Request": "true"})
        except (OSError, ConnectionError, asyncio.TimeoutError) as error:
            probes.append(f"{method} {path}: {error!r}")
            continue
        run.stats.http[f"{response.status // 100}xx"] += 1
        probes.append(f"{method} {path}: {response.status}")
        if response.status >= 500:
            run.stats.http_5xx.append((time.time(), method, path + " (Redis down)", response.status,
                                       response.text[:200]))
        if method == "POST" and "leave" in path and response.status < 400:
            run.stats.forfeited_during_outage = client.name
    return probes


def restart_redis_fault(redis: RedisServer, after: float, down: float):
    async def fault(run):
        await wait_for_play(run, after)
        window = [time.time(), None]
        run.stats.fault_windows.append(window)
        applied = run.stats.replies["applied"]
        redis.kill()
        started = time.monotonic()
        run.stats.probes = await http_probes(run)
        await asyncio.sleep(max(0.0, down - (time.monotonic() - started)))
        await asyncio.get_running_loop().run_in_executor(None, redis.start)
        window[1] = time.time()
        run.stats.fault_note = f"redis killed after {applied} applied moves, back {window[1] - window[0]:.1f}s later"
    return fault


def run_fault(kind: str, config, database_url: str, redis_url: str | None, solutions: dict,
              after: float = 15.0, down: float = 2.0, countdown: float = 1.0, log_dir: str | None = None):
    """Run one fault scenario; returns (run, report). Django must be set up on `database_url`."""
    from loadtest.checks import figures, verify

    phases = {"begin": time.monotonic()}
    redis = None
    if kind == "restart-redis":
        redis = RedisServer().start()
        redis_url = redis.url
    servers = Servers(daphne_env(database_url, redis_url, COUNTDOWN_SECONDS=countdown),
                      count=2 if kind == "two-daphne" else 1, log_dir=log_dir)
    fault = None
    try:
        servers.start()
        phases["servers up"] = time.monotonic()
        if kind == "kill-daphne":
            fault = kill_daphne_fault(servers, after, down)
        elif kind == "restart-redis":
            fault = restart_redis_fault(redis, after, down)
        run = asyncio.run(run_clients(config, servers.ports, solutions, fault))
        phases["clients done"] = time.monotonic()
    finally:
        servers.stop()
        if redis is not None:
            redis.cleanup()
    phases["servers stopped"] = time.monotonic()
    report = figures(run, verify(run, logs=servers.logs, expect_fault=fault is not None))
    phases["checked"] = time.monotonic()
    marks = list(phases.items())
    report.figures["phases"] = ", ".join(f"{name} +{t - marks[i][1]:.1f}s" for i, (name, t) in enumerate(marks[1:]))
    note = getattr(run.stats, "fault_note", None)
    if note:
        report.figures["fault"] = note
    if getattr(run.stats, "probes", None):
        report.figures["HTTP during the outage"] = "; ".join(run.stats.probes)
    if fault is not None and not run.stats.fault_windows:
        report.problem("fault never injected", "the race ended before the fault's time")
    if kind == "two-daphne":
        report.figures["servers"] = f"ports {servers.ports}, players of each room alternate between them"
    return run, report, servers.logs


def main():
    from loadtest.soak import config_from, parser, print_report, setup_django, stock_puzzles

    p = parser(__doc__)
    p.add_argument("kind", choices=["kill-daphne", "restart-redis", "two-daphne"])
    p.add_argument("--after", type=float, default=60.0, help="seconds into the race before the fault")
    p.add_argument("--down", type=float, default=None, help="seconds the killed server stays down")
    p.set_defaults(rooms=6, rate=0.15, countdown=1.0, ramp=5.0)
    args = p.parse_args()
    ensure_database(args.database_url)
    setup_django(args.database_url, args.redis_url)
    config = config_from(args)
    solutions = stock_puzzles(config.rooms * config.rounds + 5, args.seed)
    down = args.down if args.down is not None else (1.0 if args.kind == "kill-daphne" else 3.0)
    run, report, logs = run_fault(args.kind, config, args.database_url, args.redis_url, solutions,
                                  after=args.after, down=down, countdown=args.countdown)
    print_report(args.kind, config, report)
    print("daphne logs:", " ".join(logs))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()

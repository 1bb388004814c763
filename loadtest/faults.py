"""Fault runs: the soak's players and checks, with something breaking mid-race.

    .venv/bin/python loadtest/faults.py kill-daphne    [--rooms 6] [--rate 0.15] [--after 60] [--down 1]
    .venv/bin/python loadtest/faults.py restart-redis  [--rooms 6] [--rate 0.15] [--after 60] [--down 3]
    .venv/bin/python loadtest/faults.py two-daphne     [--rooms 6] [--rate 0.15]
    .venv/bin/python loadtest/faults.py drop-db        [--rooms 6] [--rate 0.15] [--after 60] [--drops 3] [--gap 2]
    .venv/bin/python loadtest/faults.py redis-away     [--rooms 6] [--rate 0.15] [--after 60] [--down 10]

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
drop-db        `--drops` times, `--gap` seconds apart, pg_terminate_backend on every
               connection the daphne process holds (its pool, the move log's, the live
               rooms' thread's: application_name showdown-faults-daphne). Right after the
               first drop a socket handshake, the room page and a Solo Run move are probed.
               A drop costs at most what was in flight, answered "try again".
redis-away     Two daphne processes; the first reaches Redis through a TCP relay
               (common.TcpProxy) that is cut for `--down` seconds (connections reset, new
               ones refused); the other process and the harness keep Redis. A handshake
               and the room page are probed on the cut-off process during the outage.

drop-db and redis-away are strict: no socket may close with an error and no connect or
request may fail, in the fault's window too; an update missed inside the window counts as
delivered when the same connection's later full state (the resync) shows it.

The same checks as loadtest/soak.py run afterwards (socket closes and connection
failures inside the fault's window are expected and not counted as errors).
"""

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.common import RedisServer, TcpProxy, daphne_env, ensure_database, free_port, kill9, start_daphne, stop
from loadtest.scenario import run_clients


class Servers:
    """The daphne processes of a run (replaced when one is killed and restarted); `envs`
    gives a process an environment of its own (redis-away: another REDIS_URL)."""

    def __init__(self, env: dict, count: int = 1, log_dir: str | None = None, envs: list | None = None):
        self.envs = envs or [env] * count
        count = len(self.envs)
        self.ports = [free_port() for _ in range(count)]
        log_dir = log_dir or tempfile.mkdtemp(prefix="faults-")
        self.logs = [str(Path(log_dir) / f"daphne-{port}.log") for port in self.ports]
        self.processes = [None] * count

    def start(self, i=None):
        for j in [i] if i is not None else range(len(self.ports)):
            self.processes[j] = start_daphne(
                self.ports[j], "config.asgi:application", self.envs[j], self.logs[j], wait=False
            )
        for j in [i] if i is not None else range(len(self.ports)):
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
    player = next(
        (
            p
            for p in run.players
            if not p.host and not p.watcher and p.view.status == "playing" and p.room.code and p.http
        ),
        None,
    )
    watcher = next((p for p in run.players if p.watcher and p.http and p.room.code), None)
    for client, method, path in (
        (player, "GET", "/r/{code}/"),
        (player, "POST", "/r/{code}/leave/"),
        (watcher, "POST", "/r/{code}/join/"),
        (watcher, "GET", "/r/{code}/"),
    ):
        if client is None:
            continue
        tab = HttpSession(client.http.port)
        tab.cookies = dict(client.http.cookies)
        data = {"csrfmiddlewaretoken": tab.csrf()} if method == "POST" else None
        path = path.format(code=client.room.code)
        try:
            response = await tab.request(method, path, data=data, headers={"HX-Request": "true"})
        except (TimeoutError, OSError, ConnectionError) as error:
            probes.append(f"{method} {path}: {error!r}")
            continue
        run.stats.http[f"{response.status // 100}xx"] += 1
        probes.append(f"{method} {path}: {response.status}")
        if response.status >= 500:
            run.stats.http_5xx.append(
                (time.time(), method, path + " (Redis down)", response.status, response.text[:200])
            )
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


APP_NAME = "showdown-faults-daphne"  # the daphne processes' PostgreSQL application_name


def terminate_backends(database_url: str) -> int:
    """pg_terminate_backend on every connection the run's daphne processes hold (their
    pools, the move log's, the live rooms' thread's); the harness's own is left alone."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            (APP_NAME,),
        ).fetchall()
    return len(rows)


async def handshake_probe(run, port: int) -> str:
    """A seated player's second socket to its room: the handshake and the full state it
    must bring (no 500, no close)."""
    import websockets

    player = next((p for p in run.players if not p.watcher and p.room.code and p.http), None)
    if player is None:
        return "no player to probe with"
    headers = {
        "Origin": f"http://127.0.0.1:{port}",
        "Cookie": f"showdown_player={player.http.cookies.get('showdown_player', '')}",
    }
    url = f"ws://127.0.0.1:{port}/ws/r/{player.room.code}/"
    try:
        async with websockets.connect(url, additional_headers=headers, proxy=None, open_timeout=15) as ws:
            while True:  # a push may come first; the resync follows
                frame = await asyncio.wait_for(ws.recv(), 15)
                if 'id="room-body"' in frame:
                    return f"socket to :{port}: full state"
    except Exception as error:  # noqa: BLE001 - reported as the probe's answer and counted
        run.stats.connect_failures.append((time.time(), f"probe {url}: {error!r}"[:200]))
        return f"socket to :{port}: {error!r}"[:200]


async def http_probe(run, session, method: str, path: str, data=None, note="") -> str:
    try:
        response = await session.request(method, path, data=data, headers={"HX-Request": "true"})
    except (OSError, ConnectionError, TimeoutError) as error:
        run.stats.http_errors.append((time.time(), f"probe {method} {path}: {error!r}"))
        return f"{method} {path}: {error!r}"
    run.stats.http[f"{response.status // 100}xx"] += 1
    if response.status >= 500:
        run.stats.http_5xx.append((time.time(), method, path + note, response.status, response.text[:200]))
    return f"{method} {path}: {response.status}"


async def solo_probe_session(run, port: int):
    """A player's second tab with a Solo Run started before the fault: (session, run path)."""
    import re

    from loadtest.common import HttpSession

    player = next(p for p in run.players if not p.watcher and p.http)
    tab = HttpSession(port)
    tab.cookies = dict(player.http.cookies)
    response = await tab.request("POST", "/solo/new/", data={"level": "easy", "csrfmiddlewaretoken": tab.csrf()})
    match = re.search(r"/solo/(\d+)/", response.header("Location") or "")
    return tab, (match.group(0) if match else None)


def applied_between(run, start: float, end: float) -> int:
    """Moves acknowledged (applied) whose send fell in [start, end] (monotonic)."""
    return sum(
        1
        for p in run.players
        for mid, answer in p.outcomes.items()
        if answer[0] == "applied" and start <= p.sent_at.get(mid, -1) <= end
    )


def drop_db_fault(servers: Servers, database_url: str, after: float, drops: int, gap: float):
    async def fault(run):
        loop = asyncio.get_running_loop()
        while run.stats.play_started is None:
            await asyncio.sleep(0.1)
        solo_tab, solo_path = await solo_probe_session(run, servers.ports[0])
        await wait_for_play(run, after)
        window = [time.time(), None]
        run.stats.fault_windows.append(window)
        began, applied = time.monotonic(), run.stats.replies["applied"]
        terminated, probes = [], []
        for i in range(drops):
            terminated.append(await loop.run_in_executor(None, terminate_backends, database_url))
            if i == 0:  # the next requests after the drop: a socket, a page, a Solo Run move
                code = next(p.room.code for p in run.players if p.room.code)
                probes += await asyncio.gather(
                    handshake_probe(run, servers.ports[0]),
                    http_probe(run, solo_tab, "GET", f"/r/{code}/"),
                    http_probe(
                        run,
                        solo_tab,
                        "POST",
                        f"{solo_path}act/",
                        note=" (after the drop)",
                        data={"cell": "0", "digit": "1", "mode": "enter", "csrfmiddlewaretoken": solo_tab.csrf()},
                    )
                    if solo_path
                    else asyncio.sleep(0),
                )
            await asyncio.sleep(gap)
        window[1] = time.time()
        await asyncio.sleep(3.0)
        run.stats.probes = [p for p in probes if p]
        run.stats.fault_note = (
            f"{drops} drops {gap:.0f}s apart after {applied} applied moves, connections terminated "
            f"{'+'.join(map(str, terminated))}; moves applied in the drops' window (+3 s): "
            f"{applied_between(run, began, time.monotonic())}"
        )

    return fault


def redis_away_fault(servers: Servers, proxy, after: float, down: float):
    async def fault(run):
        await wait_for_play(run, after)
        window = [time.time(), None]
        run.stats.fault_windows.append(window)
        applied = run.stats.replies["applied"]
        began = time.monotonic()
        proxy.cut()
        await asyncio.sleep(min(2.0, down / 2))
        code = next(p.room.code for p in run.players if p.room.code)
        from loadtest.common import HttpSession

        tab = HttpSession(servers.ports[0])
        probes = [
            await handshake_probe(run, servers.ports[0]),
            await http_probe(run, tab, "GET", f"/r/{code}/", note=" (Redis away)"),
        ]
        await asyncio.sleep(max(0.0, down - (time.monotonic() - began)))
        proxy.restore()
        window[1] = time.time()
        ended = time.monotonic()
        # Moves answered on the cut-off process while Redis was away from it.
        on_cut = sum(
            1
            for p in run.players
            for mid, answer in p.outcomes.items()
            if answer[0] == "applied" and began <= p.sent_at.get(mid, -1) <= ended and p.port == servers.ports[0]
        )
        run.stats.probes = probes
        run.stats.fault_note = (
            f"Redis cut off from daphne :{servers.ports[0]} after {applied} applied moves for "
            f"{ended - began:.1f}s; moves applied during the outage: "
            f"{applied_between(run, began, ended)} ({on_cut} by players on the cut-off process)"
        )

    return fault


def run_fault(
    kind: str,
    config,
    database_url: str,
    redis_url: str | None,
    solutions: dict,
    after: float = 15.0,
    down: float = 2.0,
    countdown: float = 1.0,
    log_dir: str | None = None,
    drops: int = 3,
    gap: float = 2.0,
):
    """Run one fault scenario; returns (run, report). Django must be set up on `database_url`."""
    from loadtest.checks import figures, verify

    phases = {"begin": time.monotonic()}
    redis = RedisServer().start() if kind == "restart-redis" else None
    proxy = None
    if redis is not None:
        redis_url = redis.url
    if redis_url is None:
        raise ValueError(f"{kind} needs REDIS_URL (only restart-redis starts a Redis of its own)")
    env = daphne_env(database_url, redis_url, COUNTDOWN_SECONDS=countdown, PGAPPNAME=APP_NAME)
    envs = None
    if kind == "redis-away":  # the first process reaches Redis through a relay that is cut
        parsed = urlsplit(redis_url)
        proxy = TcpProxy(parsed.port or 6379).start()
        envs = [dict(env, REDIS_URL=proxy.url(int(parsed.path.strip("/") or 0))), env]
    servers = Servers(env, count=2 if kind == "two-daphne" else 1, log_dir=log_dir, envs=envs)
    fault = None
    try:
        servers.start()
        phases["servers up"] = time.monotonic()
        if kind == "kill-daphne":
            fault = kill_daphne_fault(servers, after, down)
        elif redis is not None:  # restart-redis
            fault = restart_redis_fault(redis, after, down)
        elif kind == "drop-db":
            fault = drop_db_fault(servers, database_url, after, drops, gap)
        elif kind == "redis-away":
            fault = redis_away_fault(servers, proxy, after, down)
        run = asyncio.run(run_clients(config, servers.ports, solutions, fault))
        phases["clients done"] = time.monotonic()
    finally:
        servers.stop()
        if redis is not None:
            redis.cleanup()
        if proxy is not None:
            proxy.close()
    phases["servers stopped"] = time.monotonic()
    # drop-db and redis-away promise more: no socket closed, no failed connect, no 500, in the
    # fault's window too (only a restart of daphne or of the only Redis may close sockets).
    strict = kind in ("drop-db", "redis-away")
    report = figures(run, verify(run, logs=servers.logs, expect_fault=fault is not None, strict=strict))
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
    if kind in ("two-daphne", "redis-away"):
        report.figures["servers"] = f"ports {servers.ports}, players of each room alternate between them"
    return run, report, servers.logs


def main():
    from loadtest.soak import config_from, parser, print_report, setup_django, stock_puzzles

    p = parser(__doc__)
    p.add_argument("kind", choices=["kill-daphne", "restart-redis", "two-daphne", "drop-db", "redis-away"])
    p.add_argument("--after", type=float, default=60.0, help="seconds into the race before the fault")
    p.add_argument("--down", type=float, default=None, help="seconds the killed server (or Redis) stays away")
    p.add_argument("--drops", type=int, default=3, help="drop-db: how many times every connection is terminated")
    p.add_argument("--gap", type=float, default=2.0, help="drop-db: seconds between drops")
    p.set_defaults(rooms=6, rate=0.15, countdown=1.0, ramp=5.0)
    args = p.parse_args()
    ensure_database(args.database_url)
    setup_django(args.database_url, args.redis_url)
    config = config_from(args)
    solutions = stock_puzzles(config.rooms * config.rounds + 5, args.seed)
    down = args.down if args.down is not None else {"kill-daphne": 1.0, "redis-away": 10.0}.get(args.kind, 3.0)
    _run, report, logs = run_fault(
        args.kind,
        config,
        args.database_url,
        args.redis_url,
        solutions,
        after=args.after,
        down=down,
        countdown=args.countdown,
        drops=args.drops,
        gap=args.gap,
    )
    print_report(args.kind, config, report)
    print("daphne logs:", " ".join(logs))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()

"""Race now (issue 38): the pairing pool's CPU cost, and 1,000 players asking to race on daphne.

Run from the repo root:
    .venv/bin/python bench/pool.py [--players 1000] [--seconds 60] [--quick] [--part a|b|both]

Part A, the pairing alone (pure, no Django): `pool.pairing.pair()` on synthetic waiting lists
of 100 and 1,000 players (keys 800-2200, both bands, 30% with last-race opponents set, asked
within the last 30 s), --reps calls each; CPU time (time.process_time) per pairing decision
and per waiting player, p50 and p99 over the calls, and the growth from 100 to 1,000: the
pairing is a sort and one pass, so 10x the players costs ~15x (n log n), not 100x (n^2).

Part B, end to end (PostgreSQL + Redis): DATABASE_URL (default the database
`showdown_bench_pool`, created and migrated if missing; not bench/realtime.py's
`showdown_bench`: the rows this bench leaves slowed realtime.py's moves 5x on a database
PostgreSQL had not analyzed since) and REDIS_URL (default Redis db 14; the bench EMPTIES that
database before the load: give it one nothing else uses). The Easy puzzle bank is topped up
first (real puzzles, games.bank.fill_bank; ~2 s for 500), public races left by an earlier run
are set expired (nobody plays the bench's races and no Celery beat sweeps them: they would stay
in countdown for good), then two daphne processes (config.asgi, production mode) start on
loopback ports with the pool's per-profile and per-IP ask limits raised (every simulated
player comes from 127.0.0.1). --players players arrive over --seconds (Poisson, or --arrivals
even), alternating between the processes. Each is an HTTP client with its own cookies, like a
browser: GET / (the CSRF cookie), POST /race/now/ with level=easy and a display_name (the
name gate, passed in the same post; this post makes its player cookie), GET /race/ (where the
redirect leads: already the room when the ask formed it), then GET /race/status/ (HX-Request)
every second until the answer's HX-Redirect names /r/CODE/. After the window, followers keep
arriving at the same rate until every measured player is seated (a steady flow: otherwise the
run's last player waits alone for good, or the last two as a pair for PAIR_SECONDS, which says
nothing about the pool under load); they are not measured, and cancel (POST /race/cancel/)
once the measured players are done. --no-tail leaves the last players to that drain. A
measured player still waiting --grace seconds after the window gives up (and cancels).

Read from the database afterwards (this run's rows only): the measured players' wait from
PoolEntry.asked_at to the room's countdown start (Room.starts_at - COUNTDOWN_SECONDS), median
and p99; players seated; players seated twice (a second seated PoolEntry, or a second Seat in
a public room); the rooms' sizes. Also the client's answer times per endpoint and its own wait
(the ask sent -> the room's address received: the queueing before the view runs, which
asked_at does not see, and the 1 s polls), each daphne process's CPU (user + system, /proc)
over the load, per request, per player and per room, with a guest GET / (the home page, not
the pool's) measured alone before the load and taken out; and the errors in daphne's logs,
one traceback of each kind. --py-spy DIR records each daphne process over the arrivals.

Targets (the exit code is 1 when one is missed): Part A a waiting player's cost at 1,000 within
3x of that at 100 (n log n: ~1.5x; n^2: 10x); Part B median wait <= 5 s, p99 <= 20 s, nobody
seated twice, every room of 2-5 players and started, every measured player seated (with
--no-tail: but one), no HTTP error (a 4xx/5xx, or no answer within --timeout).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/showdown_bench_pool")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_DEBUG"] = "false"
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnop")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
os.environ["LOG_LEVEL"] = "WARNING"

from loadtest.common import daphne_env, ensure_database, free_port, pct, start_daphne, stop  # noqa: E402
from pool import pairing  # noqa: E402  (pure: no Django)

MEASURED, FOLLOWER = "Bench", "Tail"  # display names: the database tells the two apart by them
LIMITS = {  # every simulated player asks from 127.0.0.1
    "POOL_ASK_LIMIT": "100000",
    "POOL_ASK_LIMIT_IP": "1000000",
}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# --- Part A: the pairing alone ------------------------------------------------------------


def waiting_list(n: int, rng: random.Random, now: float) -> list[pairing.Waiting]:
    """n waiting players: keys 800-2200, half rated, asked within 30 s, 30% with a last race."""
    players = rng.sample(range(1, 10 * n + 1), n)
    out = []
    for i, player in enumerate(players):
        last = frozenset(rng.sample(players, rng.randint(1, 4))) - {player} if rng.random() < 0.3 else frozenset()
        out.append(
            pairing.Waiting(
                entry=i + 1,
                player=player,
                key=rng.uniform(800, 2200),
                band=pairing.RATED if rng.random() < 0.5 else pairing.OPEN,
                asked=now - rng.uniform(0, 30),
                last=last,
            )
        )
    return out


def part_a(sizes: list[int], reps: int, seed: int) -> bool:
    rng = random.Random(seed)
    now = 1_000_000.0
    print(f"Part A: pool.pairing.pair() alone, {reps} calls per size (CPU time, time.process_time)", flush=True)
    per_player = {}
    per_call = {}
    for n in sizes:
        lists = [waiting_list(n, rng, now) for _ in range(20)]  # different lists, taken in turn
        pairing.pair(lists[0], now)  # warm up
        times = []
        seated = 0
        for r in range(reps):
            waiting = lists[r % len(lists)]
            t0 = time.process_time()
            result = pairing.pair(waiting, now)
            times.append(time.process_time() - t0)
            if r < len(lists):
                seated += sum(len(g) for g in result.groups)
                check_pairing(waiting, result)
        p50, p99 = pct(times, 50), pct(times, 99)
        per_call[n], per_player[n] = p50, p50 / n
        print(
            f"  n={n:>5} waiting: per pairing decision p50 {p50 * 1e3:8.3f} ms, p99 {p99 * 1e3:8.3f} ms; "
            f"per waiting player p50 {p50 / n * 1e6:6.2f} us, p99 {p99 / n * 1e6:6.2f} us; "
            f"{seated / min(reps, len(lists)) / n:.0%} seated per call",
            flush=True,
        )
    ok = True
    if len(sizes) >= 2:
        small, big = sizes[0], sizes[-1]
        grow = per_call[big] / per_call[small]
        per = per_player[big] / per_player[small]
        factor = big / small
        nlogn = factor * math.log(big) / math.log(small)
        ok = per <= 3.0
        print(
            f"  n={small} -> n={big} ({factor:g}x the players): a decision costs {grow:.1f}x "
            f"(n log n predicts {nlogn:.0f}x, n^2 {factor**2:.0f}x); a waiting player costs {per:.2f}x "
            f"[target <= 3x: {'met' if ok else 'MISSED'}]",
            flush=True,
        )
    return ok


def check_pairing(waiting, result) -> None:
    """The pure pairing's own invariants on the synthetic lists: each player at most once,
    groups of 2-5."""
    seen = collections.Counter(w.entry for g in result.groups for w in g)
    assert all(c == 1 for c in seen.values()), "a player in two groups"
    assert all(2 <= len(g) <= pairing.MAX_SEATS for g in result.groups), "a group outside 2-5"
    assert seen.keys() <= {w.entry for w in waiting}


# --- Part B: end to end -------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.latency = collections.defaultdict(list)  # endpoint -> seconds
        self.status = collections.Counter()  # (endpoint, status)
        self.errors: list[str] = []
        self.requests = 0


class Player:
    """One browser: its own cookies (name -> value; attributes ignored: production cookies
    are Secure, and this is plain http on 127.0.0.1)."""

    def __init__(self, index: int, port: int, arrive: float, follower: bool = False):
        self.index, self.port, self.arrive, self.follower = index, port, arrive, follower
        self.name = f"{FOLLOWER if follower else MEASURED} {index}"
        self.cookies: dict[str, str] = {}
        self.asked: float | None = None  # perf_counter times
        self.seated_at: float | None = None
        self.code: str | None = None
        self.outcome = "not started"
        self.polls = 0

    def headers(self, extra=None) -> dict:
        h = dict(extra or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return h

    async def request(self, http, stats: Stats, method: str, path: str, label: str, data=None, headers=None):
        url = f"http://127.0.0.1:{self.port}{path}"
        t0 = time.perf_counter()
        stats.requests += 1
        async with http.request(
            method, url, data=data, headers=self.headers(headers), allow_redirects=False
        ) as response:
            body = await response.text()
            for name, morsel in response.cookies.items():
                if morsel.value in ("", '""') or morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        stats.latency[label].append(time.perf_counter() - t0)
        stats.status[(label, response.status)] += 1
        if response.status >= 500 or response.status in (400, 403, 409, 429):
            stats.errors.append(f"{method} {path} -> {response.status}: {body[:300]!r}")
        return response, body

    async def run(self, http, stats: Stats, t_start: float, give_up_at: float, level: str, stop: asyncio.Event):
        """Ask, then poll until seated; give up (cancel) at `give_up_at`, or for a follower
        once `stop` is set (every measured player is done)."""
        await asyncio.sleep(max(0.0, t_start + self.arrive - time.perf_counter()))
        if self.follower and stop.is_set():
            self.outcome = "not needed (run over)"
            return
        try:
            await self.request(http, stats, "GET", "/", "GET /")
            token = self.cookies.get("csrftoken", "")
            post_headers = {"X-CSRFToken": token, "Referer": f"http://127.0.0.1:{self.port}/"}
            self.asked = time.perf_counter()
            response, _ = await self.request(
                http,
                stats,
                "POST",
                "/race/now/",
                "POST /race/now/",
                data={"level": level, "display_name": self.name},
                headers=post_headers,
            )
            if response.status != 302:
                self.outcome = f"ask refused ({response.status})"
                return
            response, _ = await self.request(
                http, stats, "GET", response.headers.get("Location", "/race/"), "GET /race/"
            )
            if response.status == 302 and "/r/" in response.headers.get("Location", ""):
                self.seat(response.headers["Location"])
                return
            while time.perf_counter() < give_up_at and not (self.follower and stop.is_set()):
                await asyncio.sleep(1.0)  # the panel's hx-trigger="every 1s"
                self.polls += 1
                response, _ = await self.request(
                    http, stats, "GET", "/race/status/", "GET /race/status/", headers={"HX-Request": "true"}
                )
                where = response.headers.get("HX-Redirect")
                if where and "/r/" in where:
                    self.seat(where)
                    return
                if where:  # back to /race/: the entry is gone (dropped by the pool)
                    self.outcome = f"dropped (sent to {where})"
                    return
            self.outcome = "still waiting at the end" if not self.follower else "stopped waiting (run over)"
            await self.request(http, stats, "POST", "/race/cancel/", "POST /race/cancel/", headers=post_headers)
        except Exception as error:  # noqa: BLE001 - a failed request is counted, never fatal
            stats.errors.append(f"player {self.name}: {type(error).__name__}: {error}")
            self.outcome = f"error ({type(error).__name__})"

    def seat(self, where: str) -> None:
        self.seated_at = time.perf_counter()
        self.code = where.rstrip("/").rsplit("/", 1)[-1]
        self.outcome = "seated"


async def drive(players: list[Player], ports: list[int], args) -> tuple[Stats, list[Player]]:
    """The measured players, and (unless --no-tail) followers arriving at the same rate after
    the window until every measured player is seated: a steady flow, so the last measured
    players are not left to a finite run's drain (one alone, or a pair waiting PAIR_SECONDS)."""
    import aiohttp

    stats = Stats()
    # No limit on connections: each browser has its own, so a request waits in the server's
    # queue (HTTP_CONCURRENCY), never in the client's.
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=args.timeout)
    stop = asyncio.Event()
    followers: list[Player] = []
    # One connection pool; each player's cookies are its own (DummyCookieJar: none shared).
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()) as http:
        t_start = time.perf_counter() + 0.5
        give_up_at = t_start + args.seconds + args.grace

        async def measured(p: Player):
            await p.run(http, stats, t_start, give_up_at, args.level, stop)

        async def tail():
            rng = random.Random(args.seed + 1)
            gap = args.seconds / args.players
            at = args.seconds
            tasks = []
            while not stop.is_set() and time.perf_counter() < give_up_at:
                at += gap if args.arrivals == "even" else rng.expovariate(1 / gap)
                f = Player(len(followers), ports[(args.players + len(followers)) % len(ports)], at, follower=True)
                followers.append(f)
                tasks.append(asyncio.create_task(f.run(http, stats, t_start, give_up_at, args.level, stop)))
                await asyncio.sleep(max(0.0, t_start + at - time.perf_counter()))
            await asyncio.gather(*tasks)

        tailing = asyncio.create_task(tail()) if not args.no_tail else None
        await asyncio.gather(*(measured(p) for p in players))
        stop.set()
        if tailing is not None:
            await tailing
    return stats, followers


async def warm_up(ports: list[int]) -> None:
    """A few looks at each process (guest GETs: they create nothing) before the clock starts."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        for port in ports:
            for path in ("/", "/race/", "/", "/race/"):
                async with http.get(f"http://127.0.0.1:{port}{path}", allow_redirects=False) as response:
                    await response.read()


def calibrate(servers, ports: list[int], n: int = 30) -> float:
    """CPU of one guest GET / (the home page, not the pool's): n in a row on each process."""
    import urllib.request

    before = [cpu_seconds(s) for s in servers]
    for port in ports:
        for _ in range(n):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:
                response.read()
    return sum(cpu_seconds(s) - b for s, b in zip(servers, before, strict=True)) / (n * len(ports))


def profile(servers, directory: str | None, seconds: float) -> list:
    """--py-spy DIR: sample each daphne process over the arrivals (raw collapsed stacks)."""
    if not directory:
        return []
    import subprocess

    Path(directory).mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen(
            [
                str(Path(sys.executable).parent / "py-spy"),
                "record",
                "--pid",
                str(server.pid),
                "--format",
                "raw",
                "--rate",
                "100",
                "--duration",
                str(int(seconds)),
                "--nonblocking",
                "--output",
                str(Path(directory) / f"pool-daphne-{server.pid}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for server in servers
    ]


def arrivals(count: int, seconds: float, kind: str, rng: random.Random) -> list[float]:
    if kind == "even":
        return [seconds * i / count for i in range(count)]
    return sorted(rng.uniform(0, seconds) for _ in range(count))  # a Poisson process given its count


def cpu_seconds(process) -> float:
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()


def fill_easy(target: int) -> None:
    """Unused Easy puzzles in the bank up to `target` (one room takes one)."""
    from games.bank import fill_bank
    from games.models import Puzzle

    ready = Puzzle.objects.filter(level="easy", used_at__isnull=True, for_daily=False).count()
    t0, c0 = time.perf_counter(), time.process_time()
    made = fill_bank(target, levels=["easy"])["easy"]
    print(
        f"  puzzle bank: {ready} unused Easy puzzles, {made} generated to reach {target} in "
        f"{time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} s of CPU)",
        flush=True,
    )


def retire_races(whose: str) -> None:
    """The bench's public races end as expired once read: nobody plays them, and no sweeper
    (Celery beat) runs here, so they would stay in countdown for good, and every later run's
    ticks (pool/service.py _count: the racing seats) and asks (the "already in a race" check)
    would read them. The bench's
    database only; then ANALYZE, so that the planner knows the tables' sizes (a fresh
    database has no statistics)."""
    from django.db import connection
    from django.utils import timezone

    from pool.models import PoolEntry
    from rooms.models import Room

    active = (Room.State.LOBBY, Room.State.COUNTDOWN, Room.State.PLAYING)
    n = Room.objects.filter(public=True, state__in=active).update(
        state=Room.State.EXPIRED, expired_at=timezone.now(), expiry_reason="bench/pool.py"
    )
    gone = PoolEntry.objects.filter(state=PoolEntry.State.WAITING).update(state=PoolEntry.State.GONE)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"  {whose} public races set expired: {n} (and {gone} entries still waiting set gone)", flush=True)


def high_water() -> dict:
    from pool.models import PoolEntry
    from rooms.models import Room

    return {
        "entry": PoolEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
        "room": Room.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
    }


def read_back(before: dict, level: str) -> dict:
    """This run's rows: the measured players' waits and seats (followers apart), every
    player's seats, the rooms."""
    from django.conf import settings
    from django.db.models import Count

    from pool.models import PoolEntry
    from rooms.models import Room, Seat

    rows = PoolEntry.objects.filter(pk__gt=before["entry"], level=level).values(
        "player_id", "player__display_name", "state", "asked_at", "room_id", "room__starts_at"
    )
    entries: list[dict[str, Any]] = [dict(row) for row in rows]
    for e in entries:
        e["measured"] = e["player__display_name"].startswith(MEASURED + " ")
    profiles = {e["player_id"] for e in entries}
    rooms = dict(
        Room.objects.filter(pk__gt=before["room"], public=True, level=level)
        .order_by()
        .annotate(n=Count("seats"))
        .values_list("pk", "n")
    )
    countdown = settings.COUNTDOWN_SECONDS
    waits, by_size, unstarted = [], collections.defaultdict(list), set()
    for e in entries:
        if e["state"] != PoolEntry.State.SEATED:
            continue
        if e["room__starts_at"] is None:
            unstarted.add(e["room_id"])
            continue
        if e["measured"]:
            wait = (e["room__starts_at"] - e["asked_at"]).total_seconds() - countdown
            waits.append(wait)
            by_size[rooms.get(e["room_id"], 0)].append(wait)
    seated_per_player = collections.Counter(e["player_id"] for e in entries if e["state"] == PoolEntry.State.SEATED)
    seats_per_player = collections.Counter(
        dict(
            Seat.objects.filter(player_id__in=profiles, room__public=True)
            .order_by()
            .values_list("player_id")
            .annotate(n=Count("id"))
            .values_list("player_id", "n")
        )
    )
    # A tick starts its rooms with its own `now`: one countdown start per tick that formed rooms.
    ticks = (
        Room.objects.filter(pk__gt=before["room"], public=True, level=level, starts_at__isnull=False)
        .order_by()
        .values("starts_at")
        .distinct()
    )
    measured = [e for e in entries if e["measured"]]
    followers = [e for e in entries if not e["measured"]]
    return {
        "entries": len(measured),
        "states": collections.Counter(e["state"] for e in measured),
        "followers": collections.Counter(e["state"] for e in followers),
        "waits": waits,
        "by_size": by_size,
        "seated": len({e["player_id"] for e in measured if e["state"] == PoolEntry.State.SEATED}),
        "twice_entries": sum(1 for n in seated_per_player.values() if n > 1),
        "twice_seats": sum(1 for n in seats_per_player.values() if n > 1),
        "sizes": collections.Counter(rooms.values()),
        "rooms": len(rooms),
        "unstarted": len(unstarted),
        "room_writes": ticks.count(),
    }


def scan_logs(paths: list[Path]) -> None:
    """Each daphne log's errors: counted, the commonest lines, and one traceback of each kind."""
    kinds: dict[str, list[str]] = {}
    for path in paths:
        text = path.read_text(errors="replace") if path.exists() else ""
        lines = text.splitlines()
        notable = [
            line
            for line in lines
            if any(w in line for w in ("ERROR", "WARNING", "Exception", "Error", "did not start"))
        ]
        print(
            f"  daphne log {path}: {len(lines)} lines, {text.count('Traceback (most recent call last)')} tracebacks, "
            f"{len(notable)} error/warning lines",
            flush=True,
        )
        shown = collections.Counter(
            re.sub(r"public room \w+ ", "public room CODE ", line.strip())[:200] for line in notable
        )
        for line, n in shown.most_common(6):
            print(f"    {n:>5} x {line}", flush=True)
        for i, line in enumerate(lines):
            if line.startswith("Traceback (most recent call last)"):
                end = i + 1
                while end < len(lines) and lines[end].startswith(" "):
                    end += 1
                block = lines[max(0, i - 1) : end + 1]
                kinds.setdefault(block[-1][:200], block)
    for block in kinds.values():
        print("    a traceback of this kind:", flush=True)
        for line in block:
            print(f"      {line}", flush=True)


def part_b(args) -> bool:
    print(
        f"Part B: {args.players} players ask to race at {args.level} over {args.seconds:g} s "
        f"({args.arrivals} arrivals) on {args.servers} daphne processes; "
        f"DATABASE_URL={os.environ['DATABASE_URL']} REDIS_URL={os.environ['REDIS_URL']}; load average {load()}",
        flush=True,
    )
    ensure_database()
    import django

    django.setup()
    from django.conf import settings

    fill_easy(args.bank or (args.players // 2 + 20))
    retire_races("an earlier bench run's")
    flush_redis()
    before = high_water()
    env = daphne_env(os.environ["DATABASE_URL"], os.environ["REDIS_URL"], **LIMITS)
    ports = [free_port() for _ in range(args.servers)]
    logs = [Path(tempfile.gettempdir()) / f"bench-pool-daphne-{port}.log" for port in ports]
    for log in logs:
        log.unlink(missing_ok=True)
    servers = []
    try:
        for port, log in zip(ports, logs, strict=True):
            servers.append(start_daphne(port, app="config.asgi:application", env=env, log_path=str(log)))
        asyncio.run(warm_up(ports))  # first requests compile templates and open pools: not the load's cost
        home_cpu = calibrate(servers, ports)
        rng = random.Random(args.seed)
        times = arrivals(args.players, args.seconds, args.arrivals, rng)
        players = [Player(i, ports[i % len(ports)], t) for i, t in enumerate(times)]
        cpu_before = [cpu_seconds(s) for s in servers]
        own_before = time.process_time()
        wall0 = time.perf_counter()
        spies = profile(servers, args.py_spy, args.seconds + 5)
        stats, followers = asyncio.run(drive(players, ports, args))
        for spy in spies:
            spy.wait()
        wall = time.perf_counter() - wall0
        cpu = [cpu_seconds(s) - b for s, b in zip(servers, cpu_before, strict=True)]
        own = time.process_time() - own_before
    finally:
        for server in servers:
            stop(server)
    rows = read_back(before, args.level)

    print(f"  load: {wall:.1f} s wall clock, {stats.requests} requests; load average {load()}", flush=True)
    outcomes = collections.Counter(p.outcome for p in players)
    print("  measured clients: " + ", ".join(f"{n} {what}" for what, n in outcomes.most_common()), flush=True)
    if followers:
        tail = collections.Counter(p.outcome for p in followers)
        print(
            "  followers (arriving after the window at the same rate until every measured player was seated): "
            + ", ".join(f"{n} {what}" for what, n in tail.most_common()),
            flush=True,
        )
    for label in ("GET /", "POST /race/now/", "GET /race/", "GET /race/status/", "POST /race/cancel/"):
        lat = stats.latency.get(label)
        if lat:
            codes = ", ".join(f"{code}: {n}" for (lab, code), n in sorted(stats.status.items()) if lab == label)
            print(
                f"  {label:<20} n={len(lat):>5}  p50 {pct(lat, 50) * 1e3:7.1f} ms  p99 {pct(lat, 99) * 1e3:7.1f} ms  "
                f"max {max(lat) * 1e3:7.1f} ms  ({codes})",
                flush=True,
            )
    client_waits = [p.seated_at - p.asked for p in players if p.seated_at is not None and p.asked is not None]
    polls = [p.polls for p in players if p.seated_at is not None]
    if client_waits:
        print(
            "  client side, POST /race/now/ sent -> the room's address received (measured players): "
            f"median {statistics.median(client_waits):.2f} s, "
            f"p99 {pct(client_waits, 99):.2f} s (polled every 1 s; median {statistics.median(polls):g} polls)",
            flush=True,
        )

    waits = rows["waits"]
    med = statistics.median(waits) if waits else float("nan")
    p99 = pct(waits, 99)
    states = ", ".join(f"{n} {s}" for s, n in rows["states"].most_common())
    print(
        f"  pool entries of the measured players: {rows['entries']} ({states}); followers' entries: "
        + (", ".join(f"{n} {s}" for s, n in rows["followers"].most_common()) or "none"),
        flush=True,
    )
    print(
        f"  wait, asked_at -> countdown start (Room.starts_at - {settings.COUNTDOWN_SECONDS:g} s), "
        f"{len(waits)} seated: median {med:.2f} s [target <= 5 s], p99 {p99:.2f} s [target <= 20 s], "
        f"max {max(waits, default=float('nan')):.2f} s",
        flush=True,
    )
    for size, group in sorted(rows["by_size"].items()):
        print(
            f"    in rooms of {size}: {len(group)} seated, median {statistics.median(group):.2f} s, "
            f"max {max(group):.2f} s",
            flush=True,
        )
    sizes = rows["sizes"]
    print(f"  players seated: {rows['seated']} of {args.players}", flush=True)
    print(
        f"  players seated twice: {rows['twice_entries']} (a second seated PoolEntry), "
        f"{rows['twice_seats']} (a second Seat in a public room) [target 0]",
        flush=True,
    )
    print(
        f"  rooms: {rows['rooms']} public rooms, sizes "
        + ", ".join(f"{k}: {sizes[k]}" for k in sorted(sizes))
        + f" (measured players and followers) [target: every room 2-5]; never started: {rows['unstarted']}",
        flush=True,
    )
    total_cpu = sum(cpu)
    print(
        "  daphne CPU over the load (user + system): "
        + ", ".join(f"port {port}: {c:.1f} s" for port, c in zip(ports, cpu, strict=True))
        + f"; total {total_cpu:.1f} s = {total_cpu / max(wall, 1e-9):.0%} of one core",
        flush=True,
    )
    asks = len(stats.latency.get("POST /race/now/", []))
    homes = len(stats.latency.get("GET /", []))
    pool_cpu = total_cpu - homes * home_cpu
    print(
        f"    per request {total_cpu / max(stats.requests, 1) * 1e3:.2f} ms; "
        f"per player {total_cpu / max(asks, 1) * 1e3:.1f} ms "
        f"(its GET /, ask, GET /race/ and polls), of which the home page {home_cpu * 1e3:.1f} ms (a guest GET / "
        f"measured alone before the load) and the pool's part (the ask with its tick, /race/, the polls) "
        f"{pool_cpu / max(asks, 1) * 1e3:.1f} ms; per room formed {total_cpu / max(rows['rooms'], 1) * 1e3:.1f} ms "
        f"(the pool's part {pool_cpu / max(rows['rooms'], 1) * 1e3:.1f} ms)",
        flush=True,
    )
    n_polls = len(stats.latency.get("GET /race/status/", []))
    print(
        f"    ticks: {asks} forced by the asks (one each), "
        f"at most {min(n_polls, int(wall) + 1)} more by the {n_polls} polls "
        f"(one a second per level at most), {rows['room_writes']} of them formed rooms; the load generator used "
        f"{own:.1f} s of CPU",
        flush=True,
    )
    scan_logs(logs)

    alone = sum(1 for p in players if p.outcome == "still waiting at the end")
    allowed = 1 if args.no_tail else 0  # a finite run's last player may be left alone, a steady flow's not
    checks = {
        "median wait <= 5 s": med <= 5,
        "p99 wait <= 20 s": p99 <= 20,
        "nobody seated twice": rows["twice_entries"] == 0 and rows["twice_seats"] == 0,
        "every room of 2-5 players": bool(sizes) and all(2 <= k <= 5 for k in sizes),
        "every room started": rows["unstarted"] == 0,
        f"at most {allowed} measured player(s) left waiting at the end": alone <= allowed,
        "every measured player seated or left waiting": rows["seated"] + alone == args.players,
        "no HTTP error": not stats.errors,
    }
    for error in stats.errors[:10]:
        print(f"  error: {error}", flush=True)
    if len(stats.errors) > 10:
        print(f"  ... {len(stats.errors) - 10} more errors", flush=True)
    missed = [name for name, ok in checks.items() if not ok]
    retire_races("this run's")
    print(f"  Part B targets: {'all met' if not missed else 'MISSED: ' + '; '.join(missed)}", flush=True)
    return not missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("a", "b", "both"), default="both")
    parser.add_argument("--players", type=int, default=None, help="players asking (default 1000; --quick 200)")
    parser.add_argument("--seconds", type=float, default=None, help="arrival window (default 60; --quick 20)")
    parser.add_argument("--quick", action="store_true", help="200 players over 20 s, fewer Part A calls")
    parser.add_argument("--arrivals", choices=("poisson", "even"), default="poisson")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (players alternate between them)")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--grace", type=float, default=40.0, help="seconds after the last arrival to keep polling")
    parser.add_argument(
        "--bank", type=int, default=None, help="unused Easy puzzles to have first (default players/2+20)"
    )
    parser.add_argument("--reps", type=int, default=None, help="Part A calls per size (default 1000; --quick 200)")
    parser.add_argument("--sizes", default="100,1000", help="Part A waiting-list sizes")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds a request may take before it counts as failed"
    )
    parser.add_argument(
        "--no-tail",
        action="store_true",
        help="no followers after the window: the last players are left to the drain (alone, or a 20 s pair)",
    )
    parser.add_argument("--py-spy", metavar="DIR", help="record each daphne process with py-spy over the arrivals")
    args = parser.parse_args()
    args.players = args.players or (200 if args.quick else 1000)
    args.seconds = args.seconds or (20.0 if args.quick else 60.0)
    args.reps = args.reps or (200 if args.quick else 1000)
    ok = True
    if args.part in ("a", "both"):
        ok &= part_a([int(s) for s in args.sizes.split(",")], args.reps, args.seed)
    if args.part in ("b", "both"):
        ok &= part_b(args)
    print(f"targets: {'all met' if ok else 'MISSED (exit 1)'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

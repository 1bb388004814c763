"""Real-time benchmark: R rooms x 5 players on daphne, PostgreSQL + Redis.

    .venv/bin/python bench/realtime.py [--rooms 50] [--rate 1] [--duration 20] [--servers 1] [--find-max]

Every player is a WebSocket client (with an Origin header and its profile cookie) making
entries at a fixed rate, 90% correct and 10% wrong. Latency is measured from sending an
entry to the LAST opponent receiving the standings that include it (room versions
correlate the two). The baseline is a bare channels-redis group_send to 5 sockets, in
the same daphne process and the same run. --servers N runs N daphne processes with each
room's players alternating between them (how the site scales past one process).
--find-max steps the offered total rate up on ONE process (same rooms and players) and
reports the highest entry rate whose p99 stays within 100 ms. Entries whose update never reached every opponent (a
saturated server) are counted, never silently dropped from the percentiles' story.

--previous REV (repeatable) plays the same load against an older commit too (checked out in a temporary
worktree, its daphne processes on the same Redis; the schema moves between commits, so the
older tree gets a database of its own, DATABASE_URL's name + "_previous", created afresh and
migrated, and its rooms are set up by its own code): the two trees take turns (this one
first in odd repeats, the older one first in even ones), each row is printed as it comes,
and at the end each tree's totals and their ratio.

The bench's Redis database (REDIS_URL, db 3 by default) is emptied before every phase: give
it one nothing else uses.

--pace S: one entry per player every S seconds on average, each gap drawn between 0.5 S and
1.5 S (a racer makes an entry every 3-10 s, not every second): with many rooms at a person's
pace, the per-room background work (write-behind, lease renewals, clocks) is most of the cost.

--feedback delayed plays Tournament rooms (delayed feedback: every entry is kept as typed, the
standings count filled cells) instead of Friendly ones (immediate feedback), to compare the CPU
per move of the two modes.

--cpu-quota F caps every daphne process at F of one core (a Linux cgroup v1 `cpu` quota; needs
root): on a machine with fewer cores than the servers plus the load generator, PostgreSQL and
Redis need, this is how "N processes hold N times what one holds" can be measured at all, each
process getting the same CPU budget whatever else runs.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/showdown_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DJANGO_DEBUG"] = "false"
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0123456789-abcdefghijklmnop")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
os.environ["LOG_LEVEL"] = "WARNING"
os.environ.setdefault("ROOM_SOCKETS_PER_IP", "100000")  # every simulated player connects from 127.0.0.1
os.environ.setdefault("ROOM_CONNECTS_PER_IP", "100000")  # and so do their connects

import websockets  # noqa: E402

from loadtest.common import PUZZLE, SOLUTION, ensure_database, free_port, pct, setup_rooms, start_daphne, stop  # noqa: E402

# The mover's answer carries the room version it produced (the full own board's data-version,
# or the fragment answer's room-version input); opponents' standings carry the room version.
VERSION = re.compile(r'id="(standings|game)"[^>]*data-version="(\d+)"|id="room-(version)"[^>]*value="(\d+)"')


class Player:
    def __init__(self, url, cookie, room_stats):
        self.url, self.cookie, self.room = url, cookie, room_stats
        self.cells = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
        random.shuffle(self.cells)
        self.pending = []  # send times awaiting this player's own reply
        self.arrivals = []  # (version, time) of standings pushes received

    async def connect(self):
        # The socket's own origin: the Origin check compares scheme, host and port.
        headers = {"Origin": "http://" + self.url.split("/")[2], "Cookie": f"showdown_player={self.cookie}"}
        try:
            self.ws = await websockets.connect(self.url, additional_headers=headers, max_size=2**22, open_timeout=30)
            await asyncio.wait_for(self.ws.recv(), 30)  # resync push
        except (TimeoutError, OSError, websockets.WebSocketException):
            self.room.failed_connects += 1
            self.ws = None

    async def run(self, rate, clock):
        """Entries at `rate` per second from the common start until `clock.stop_at`; with
        `clock.jitter` each gap is drawn between half and one and a half of 1 / rate (a
        person's pace, --pace)."""
        if self.ws is None:
            return
        async with self.ws as ws:
            reader = asyncio.create_task(self.read(ws))
            # A random phase, so entries arrive spread out; at low rates many players make
            # no entry inside the window at all (the offered total stays rooms x players x rate).
            await asyncio.sleep(min(random.random() / rate, max(0.0, clock.stop_at - time.perf_counter())))
            n = 0
            while time.perf_counter() < clock.stop_at and self.cells:
                if random.random() < 0.1:
                    cell = self.cells[0]
                    digit = int(SOLUTION[cell]) % 9 + 1
                else:
                    cell = self.cells.pop()
                    digit = int(SOLUTION[cell])
                n += 1
                self.pending.append(time.perf_counter())
                try:
                    await ws.send(json.dumps({"cell": cell, "digit": digit, "mode": "enter", "mid": f"{id(self)}-{n}"}))
                except websockets.ConnectionClosed:
                    break
                gap = (random.uniform(0.5, 1.5) if clock.jitter else 1) / rate
                # never past the window's end: at --pace 200 a last gap of up to 300 s was
                # counted as the play window, its idle CPU divided among a few moves
                await asyncio.sleep(min(gap, max(0.0, clock.stop_at - time.perf_counter())))
            await asyncio.sleep(1.0)  # the last answers and pushes
            reader.cancel()

    async def read(self, ws):
        try:
            async for message in ws:
                self.note(message, time.perf_counter())
        except websockets.ConnectionClosed:
            self.room.closed += 1

    def note(self, message, now):
        answered = False  # one answer per message, however many version marks it carries
        for kind, version, own, own_version in VERSION.findall(message):
            if own:
                kind, version = "game", own_version
            if kind == "game" and self.pending and not answered:
                answered = True
                self.room.sent[int(version)] = (self.pending.pop(0), self)
            elif kind == "standings":
                self.arrivals.append((int(version), now))


class RoomStats:
    def __init__(self):
        self.sent = {}
        self.players = []
        self.failed_connects = self.closed = self.missed = 0

    def latencies(self):
        out = []
        for version, (t0, sender) in self.sent.items():
            worst = None
            for p in self.players:
                if p is sender:
                    continue
                t = next((t for v, t in p.arrivals if v >= version), None)
                if t is None:
                    worst = None
                    self.missed += 1
                    break
                worst = t if worst is None else max(worst, t)
            if worst is not None:
                out.append((worst - t0) * 1000)
        return out


async def run_load(ports, rooms, rate, duration, batch=25, servers=(), split="players"):
    """Connect every player first (`batch` at a time, as a ramp: a daphne process drops
    handshakes it cannot accept within 5 s), then all play from one common start. With
    several processes, `split="players"` alternates each room's players between them (the
    forwarding path), `split="rooms"` puts each room on one of them (the proxy's hash routing)."""
    stats, players = [], []
    for n, (code, cookies) in enumerate(rooms):
        rs = RoomStats()
        stats.append(rs)
        for i, cookie in enumerate(cookies):
            port = ports[(n if split == "rooms" else i) % len(ports)]
            p = Player(f"ws://127.0.0.1:{port}/ws/r/{code}/", cookie, rs)
            rs.players.append(p)
            players.append(p)
    rss_before = rss_bytes(servers)
    for i in range(0, len(players), batch):
        await asyncio.gather(*(p.connect() for p in players[i : i + batch]))
    await settle(servers)
    connected = sum(1 for p in players if p.ws is not None)
    rss_per_socket = (rss_bytes(servers) - rss_before) / max(connected, 1)
    clock = types.SimpleNamespace(stop_at=time.perf_counter() + duration, jitter=JITTER)
    cpu_before = cpu_seconds(servers)  # the play window only: not the connects and resyncs
    spies = profile(servers, duration)
    await asyncio.gather(*(p.run(rate, clock) for p in players))
    for spy in spies:
        spy.wait()
    trouble_cpu = cpu_seconds(servers) - cpu_before
    latencies = [x for rs in stats for x in rs.latencies()]
    entries = sum(len(rs.sent) for rs in stats)  # answered entries, over the sending window
    trouble = {key: sum(getattr(rs, key) for rs in stats) for key in ("failed_connects", "closed", "missed")}
    trouble["cpu"] = trouble_cpu
    trouble["rss_per_socket"] = rss_per_socket
    return entries / duration, latencies, trouble


async def baseline(port, groups, rate, duration, route="bench"):
    latencies = []
    handshakes = asyncio.Semaphore(25)  # the same connect ramp as the players
    connected = asyncio.Barrier(groups * 5)

    async def member(group, sender):
        async with handshakes:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{route}/{group}/",
                additional_headers={"Origin": "http://127.0.0.1"},
                open_timeout=30,
            )
        async with ws:
            await connected.wait()
            end = time.perf_counter() + duration

            async def send_loop():
                await asyncio.sleep(random.random() / rate)  # spread like the players
                while time.perf_counter() < end:
                    await ws.send(json.dumps({"t": time.perf_counter()}))
                    await asyncio.sleep(1 / rate)

            sending = asyncio.create_task(send_loop()) if sender else None
            while True:
                try:
                    message = await asyncio.wait_for(ws.recv(), timeout=max(0.1, end - time.perf_counter() + 1))
                except (TimeoutError, websockets.ConnectionClosed):
                    if sending:
                        sending.cancel()
                    return
                if not sender:
                    latencies.append((time.perf_counter() - json.loads(message)["t"]) * 1000)

    await asyncio.gather(*(member(f"g{g}", i == 0) for g in range(groups) for i in range(5)))
    return latencies


def report(label, rate, lat, trouble):
    print(
        f"{label}: entries applied {rate:.1f}/s, measured updates {len(lat)}; "
        f"entry -> last opponent updated: p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, "
        f"max {max(lat, default=float('nan')):.1f} ms; updates never seen by every opponent {trouble['missed']}, "
        f"failed connects {trouble['failed_connects']}, sockets closed {trouble['closed']}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--rate", type=float, default=1.0, help="entries per second per player")
    parser.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="S",
        help="instead of --rate: one entry per player every S seconds, jittered (0.5 S to 1.5 S)",
    )
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--servers", type=int, default=1, help="daphne processes for the main run")
    parser.add_argument("--find-max", action="store_true")
    parser.add_argument("--repeats", type=int, default=1, help="run the baselines and the load this many times")
    parser.add_argument("--hostile", action="store_true", help="also run the hostile-lobby repro")
    parser.add_argument(
        "--cpu-quota",
        type=float,
        default=None,
        help="cap every daphne process at this fraction of one core (cgroup v1 cpu quota; root)",
    )
    parser.add_argument(
        "--feedback",
        choices=("immediate", "delayed"),
        default="immediate",
        help="the rooms' feedback: immediate (the Friendly preset) or delayed (Tournament)",
    )
    parser.add_argument(
        "--previous",
        metavar="REV",
        action="append",
        help="also play the load on this older commit (a temporary worktree; repeatable), the trees taking turns",
    )
    parser.add_argument(
        "--arena",
        action="store_true",
        help="also play the same load in arena rooms (docs/rules.md 12) of this tree, the two taking turns",
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="also step the rate up on --servers processes with each room on one of them (hash routing)",
    )
    parser.add_argument(
        "--py-spy",
        metavar="DIR",
        help="profile each daphne process over each play window with py-spy (raw stacks into DIR)",
    )
    args = parser.parse_args()
    args.preset = "tournament" if args.feedback == "delayed" else "friendly"
    global CPU_QUOTA, JITTER, PYSPY
    CPU_QUOTA, PYSPY = args.cpu_quota, args.py_spy
    if args.pace:
        args.rate, JITTER = 1 / args.pace, True

    ensure_database()
    print(
        f"rooms={args.rooms} players/room={args.players} rate/player={args.rate:g}/s"
        f"{f' (--pace {args.pace:g} s, jittered)' if args.pace else ''} "
        f"feedback={args.feedback} duration={args.duration}s daphne processes={args.servers}"
        f"{f', each capped at {CPU_QUOTA:g} of a core' if CPU_QUOTA else ''}; load average {load()}",
        flush=True,
    )
    trees: list[tuple[Path | None, str]] = [(None, "this tree")]
    for rev in args.previous or ():  # the older code in a temporary worktree, its daphnes started from there
        old = Path(tempfile.mkdtemp(prefix="bench-previous-"))
        subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(old), rev], cwd=ROOT, check=True)
        trees.append((old, f"previous {rev[:7]}"))
        previous_database(old)
    if args.arena:  # this tree again, its rooms an arena's: the live path must cost the same
        trees.append((None, "arena rooms"))
    totals: dict[str, list] = {label: [] for _, label in trees}
    try:
        # Every phase gets fresh daphne processes: a saturated run leaves a backlog behind.
        for n in range(args.repeats):
            with daphnes(1) as (ports, _):
                local = asyncio.run(baseline(ports[0], args.rooms, args.rate, min(args.duration, 10), route="local"))
            with daphnes(1) as (ports, _):
                base = asyncio.run(baseline(ports[0], args.rooms, args.rate, min(args.duration, 10)))
            print(
                f"baseline, a frame written to 5 local sockets ({args.rooms} groups, {args.rate:g}/s each, one "
                f"process, no layer, no logic): p50 {pct(local, 50):.1f} ms, p99 {pct(local, 99):.1f} ms",
                flush=True,
            )
            print(
                f"baseline, a bare channels-redis group_send to 5 sockets (same shape): "
                f"p50 {pct(base, 50):.1f} ms, p99 {pct(base, 99):.1f} ms",
                flush=True,
            )
            order = trees if n % 2 == 0 else trees[::-1]  # turns: ABBA..., so drift hits every tree alike
            for tree, label in order:
                PYSPY_LABEL[0] = "this" if tree is None else f"previous-{label.split()[-1]}"
                with daphnes(args.servers, tree) as (ports, servers):
                    if tree is not None:
                        rooms = old_rooms(tree, args)
                    else:
                        rooms = setup_rooms(args.rooms, args.players, args.preset, arena=label == "arena rooms")
                    rate, lat, trouble = asyncio.run(run_load(ports, rooms, args.rate, args.duration, servers=servers))
                    spent = trouble["cpu"]
                report(f"load, {label}", rate, lat, trouble)
                moves = rate * args.duration
                print(
                    f"  server CPU per move: {1000 * spent / max(moves, 1):.2f} ms ({spent:.1f} s of CPU over the play "
                    f"window, {moves:.0f} moves, all daphne processes); p50 vs the local baseline: "
                    f"{pct(lat, 50) / max(pct(local, 50), 0.001):.1f}x; resident memory per open socket "
                    f"{trouble['rss_per_socket'] / 1024:.0f} KiB (the daphne processes' RSS growth over the "
                    f"connects, owners loaded included); load average {load()}",
                    flush=True,
                )
                totals[label].append((moves, spent, lat, trouble["missed"]))
        if args.previous or args.arena:
            compare(totals)
    finally:
        for old, _label in trees[1:]:
            if old is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    if args.hostile:
        hostile_lobby(args)
    # With a quota a process holds far less: finer steps, so that the ratio means something.
    if CPU_QUOTA:
        steps = [round(CPU_QUOTA * 400 * k / 16) for k in range(6, 33)]
        scaled = [round(CPU_QUOTA * 400 * args.servers * k / 32) for k in range(12, 65)]
    else:
        steps = [25, 50, 100, 150, 200, 250, 300, 400, 500, 700, 1000]
        scaled = [250, 400, 500, 600, 700, 800, 900, 1000, 1200]
    one = find_max(args, 1, steps) if args.find_max else None
    if args.scale and args.servers > 1:
        many = find_max(args, args.servers, scaled)
        if one and many:
            print(f"{args.servers} processes hold {many / one:.2f}x what one process holds", flush=True)


def compare(totals: dict[str, list]) -> None:
    """Each tree's rounds together (CPU per move over all its moves, percentiles over all
    its updates), and this tree's figures over the older one's."""
    rows = {}
    for label, runs in totals.items():
        moves, spent = sum(r[0] for r in runs), sum(r[1] for r in runs)
        lat = [x for r in runs for x in r[2]]
        rows[label] = (1000 * spent / max(moves, 1), pct(lat, 50), pct(lat, 99), sum(r[3] for r in runs))
        cpu, p50, p99, missed = rows[label]
        print(
            f"{label}, {len(runs)} round(s): CPU per move {cpu:.2f} ms, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"missed {missed}",
            flush=True,
        )
    now = rows["this tree"]
    for label, before in rows.items():
        if label != "this tree":
            print(
                f"this tree / {label}: CPU per move {now[0] / max(before[0], 1e-9):.2f}x, "
                f"p50 {now[1] / max(before[1], 1e-9):.2f}x, p99 {now[2] / max(before[2], 1e-9):.2f}x",
                flush=True,
            )


def find_max(args, servers: int, steps) -> float | None:
    """Step the offered total rate up on `servers` processes (each room on one of them):
    the highest applied rate whose p99 stays within 100 ms, with no update missed."""
    best = None
    players = args.rooms * args.players
    label = "one process" if servers == 1 else f"{servers} processes, rooms split"
    for total in steps:
        with daphnes(servers) as (ports, procs):
            rooms = setup_rooms(args.rooms, args.players, args.preset)
            rate, lat, trouble = asyncio.run(run_load(ports, rooms, total / players, 20, servers=procs, split="rooms"))
        ok = pct(lat, 99) <= 100 and not trouble["missed"] and not trouble["failed_connects"]
        report(f"  {label}, {total:g} entries/s offered", rate, lat, trouble)
        print(f"    server CPU per move: {1000 * trouble['cpu'] / max(rate * 20, 1):.2f} ms; load {load()}", flush=True)
        if not ok:
            break
        best = rate
    print(
        f"highest entry rate {label} hold(s) with p99 <= 100 ms: {best:.0f} entries/s"
        if best is not None
        else f"no step held p99 <= 100 ms on {label}",
        flush=True,
    )
    return best


def hostile_lobby(args):
    """Issue 12's repro: one socket toggling ready at 5/s in a lobby beside 100 idle sockets
    of the same cookie; a victim room's entries, idle and under attack."""
    from loadtest.common import setup_lobby

    for label, attack in (("victim room, quiet", False), ("victim room, hostile lobby beside it", True)):
        with daphnes(1) as (ports, _):
            rooms = setup_rooms(5, args.players)
            lobby_code, cookie = setup_lobby()
            result = asyncio.run(with_attack(ports[0], rooms, lobby_code, cookie, attack, args.rate))
        report(f"  {label}", *result)


async def with_attack(port, rooms, lobby_code, cookie, attack, rate):
    stop_at = time.perf_counter() + 15
    refused = []

    async def idle_socket():
        url = f"ws://127.0.0.1:{port}/ws/r/{lobby_code}/"
        headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"showdown_player={cookie}"}
        try:
            async with websockets.connect(url, additional_headers=headers, open_timeout=30) as ws:
                while time.perf_counter() < stop_at:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), 1)
        except (OSError, websockets.WebSocketException):
            refused.append(1)

    async def toggler():
        url = f"ws://127.0.0.1:{port}/ws/r/{lobby_code}/"
        headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"showdown_player={cookie}"}
        try:
            async with websockets.connect(url, additional_headers=headers, open_timeout=30) as ws:
                ready = True
                while time.perf_counter() < stop_at:
                    await ws.send(json.dumps({"action": "ready" if ready else "unready", "mid": str(time.time())}))
                    ready = not ready
                    await asyncio.sleep(0.2)
        except (OSError, websockets.WebSocketException):
            refused.append(1)

    tasks = (
        [asyncio.create_task(idle_socket()) for _ in range(100)] + [asyncio.create_task(toggler())] if attack else []
    )
    await asyncio.sleep(1 if attack else 0)
    result = await run_load([port], rooms, rate, 10)
    for task in tasks:
        task.cancel()
    if attack:
        print(f"    hostile sockets refused at the handshake: {len(refused)} of 101", flush=True)
    return result


async def settle(servers, quiet=0.1, timeout=60.0) -> None:
    """Wait until the daphne processes are done with what the connects set off (a socket's
    resync returns before the refreshes it causes for the rest of its room are rendered:
    about half of 250 connects' CPU comes after the last one): under `quiet` of a core per
    process over half a second. Otherwise the play window (CPU per move, the first seconds'
    latencies) would carry the connects' cost."""
    deadline = time.perf_counter() + timeout
    before = cpu_seconds(servers)
    while time.perf_counter() < deadline:
        await asyncio.sleep(0.5)
        after = cpu_seconds(servers)
        if after - before < 0.5 * quiet * len(servers):
            return
        before = after


def profile(servers, duration) -> list:
    """--py-spy DIR: sample each daphne process over the play window (py-spy record, raw
    collapsed stacks, one file per process and round), to compare where two trees spend."""
    if not PYSPY:
        return []
    spies = []
    for server in servers:
        PYSPY_ROUND[0] += 1
        out = Path(PYSPY) / f"{PYSPY_LABEL[0]}-{PYSPY_ROUND[0]}.txt"
        spies.append(
            subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "py-spy"),
                    "record",
                    "--pid",
                    str(server.pid),
                    "--format",
                    "raw",
                    "--rate",
                    "200",
                    "--duration",
                    str(int(duration)),
                    "--nonblocking",
                    "--output",
                    str(out),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    return spies


def rss_bytes(servers) -> int:
    """Resident memory of the daphne processes now (Linux /proc: VmRSS)."""
    total = 0
    for server in servers:
        for line in Path(f"/proc/{server.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def cpu_seconds(servers) -> float:
    """User + system CPU time of the daphne processes so far (Linux /proc)."""
    total = 0.0
    for server in servers:
        fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


CPU_QUOTA: float | None = None
PREVIOUS_TREES: list[Path] = []  # --previous: the older trees' checkouts, in order
PYSPY: str | None = None  # --py-spy DIR
PYSPY_LABEL = ["this"]  # which tree the next profile is of
PYSPY_ROUND = [0]
JITTER = False  # --pace: each player's gaps drawn around its mean
CGROUP = Path("/sys/fs/cgroup/cpu")


def cap_cpu(server, quota: float) -> Path:
    """Put a daphne process in a cgroup of its own limited to `quota` of one core."""
    group = CGROUP / f"showdown-bench-{server.pid}"
    group.mkdir()
    # A 10 ms period (not the default 100 ms): a throttled process waits at most the rest of
    # one short period, so the cap costs throughput, not a 60 ms stall in the percentiles.
    period = 10_000
    (group / "cpu.cfs_period_us").write_text(str(period))
    (group / "cpu.cfs_quota_us").write_text(str(int(quota * period)))
    (group / "cgroup.procs").write_text(str(server.pid))  # every thread, now and later
    return group


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def previous_url(tree: Path) -> str:
    """An older tree's own database: DATABASE_URL's name + "_previous" (+ its place after
    the first: several older trees may run side by side)."""
    n = PREVIOUS_TREES.index(tree)
    return os.environ["DATABASE_URL"] + "_previous" + (str(n + 1) if n else "")


def previous_database(tree: Path) -> None:
    """A fresh database for the older tree, migrated by its own code (its schema, not ours)."""
    import psycopg

    PREVIOUS_TREES.append(tree)
    url = previous_url(tree)
    name, admin = url.rsplit("/", 1)[1], url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=tree, check=True, env=dict(os.environ, DATABASE_URL=url)
    )


def old_rooms(tree: Path, args) -> list:
    """The rooms of a load run, set up by the older tree's own code in its own database."""
    script = (
        "import json; from loadtest.common import setup_rooms; "
        f"print('ROOMS ' + json.dumps(setup_rooms({args.rooms}, {args.players})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, DATABASE_URL=previous_url(tree)),
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("ROOMS "))
    return [(code, cookies) for code, cookies in json.loads(line[len("ROOMS ") :])]


def forget_redis() -> None:
    """Empty the bench's own Redis database before each phase: trees share it, and an older
    tree's rate-limit counters under the same keys in another format made this tree's INCR
    fail ("value is not an integer"), its limits refuse every connect (4429) for a while."""
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()


@contextlib.contextmanager
def daphnes(count, tree: Path | None = None):
    """`count` daphne processes of this tree's code, or of `tree` (an older checkout, on its
    own database)."""
    forget_redis()
    ports = [free_port() for _ in range(count)]
    logs = Path(tempfile.gettempdir())
    env = None if tree is None else dict(os.environ, DATABASE_URL=previous_url(tree))
    servers = [
        start_daphne(port, log_path=str(logs / f"bench-daphne-{port}.log"), tree=tree, env=env) for port in ports
    ]
    groups = [cap_cpu(server, CPU_QUOTA) for server in servers] if CPU_QUOTA else []
    try:
        yield ports, servers
    finally:
        for server in servers:
            stop(server)
        for group in groups:
            group.rmdir()  # empty once its process has exited


if __name__ == "__main__":
    main()

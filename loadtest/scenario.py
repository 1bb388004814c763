"""A run of R rooms x N players through complete showdowns, with an optional fault
injected while it runs. Pure asyncio: no Django in here (the checks come afterwards)."""

import asyncio
import random
import string
import time
from dataclasses import dataclass, field

from .client import Deadline, Player, RoomPlan, RunStats


@dataclass
class Config:
    rooms: int = 50
    players: int = 5
    rounds: int = 1  # showdowns played one after another by the same group ("Play again")
    rate: float = 0.1  # moves per second per player (think time 0.5-1.5 x 1/rate)
    p_hint: float = 0.03
    p_note: float = 0.06
    p_wrong: float = 0.06
    p_silly: float = 0.01  # taps on a given or solved cell (refused)
    p_reconnect: float = 0.01  # clean close + reconnect between moves
    p_reload: float = 0.005  # page reload: GET the room page, new socket
    p_drop: float = 0.01  # the connection dies right after a move is sent
    leave_fraction: float = 0.08  # players who forfeit mid-game (HTTP POST, then leave the page)
    watchers_every: int = 5  # one spectator in every n-th room
    ramp: float = 0.0  # seconds over which the rooms' groups arrive (room r at r/rooms x ramp)
    progress: float = 0.0  # print a progress line every n seconds (0: quiet)
    presets: tuple = ("standard", "friendly", "hardcore")
    seed: int = 1
    max_seconds: float = 900.0


@dataclass
class Run:
    config: Config
    ports: list
    solutions: dict  # givens -> solution, for the puzzles in the bank
    stats: RunStats = field(default_factory=RunStats)
    deadline: float = 0.0
    players: list = field(default_factory=list)
    plans: list = field(default_factory=list)  # [round][room] RoomPlan
    failures: list = field(default_factory=list)
    tag: str = ""

    @property
    def codes(self):
        return [plan.code for rnd in self.plans for plan in rnd if plan.code]

    def clients_of(self, code):
        return [p for p in self.players if code in p.history]


async def run_clients(config: Config, ports: list, solutions: dict, fault=None) -> Run:
    """Play every room to the end (or the deadline). `fault(run)` runs alongside."""
    run = Run(config, list(ports), solutions)
    rng = random.Random(config.seed)
    run.tag = "".join(rng.choice(string.ascii_lowercase) for _ in range(4))
    run.deadline = time.monotonic() + config.max_seconds
    run.stats.started = time.monotonic()
    run.plans = [
        [RoomPlan(r, config.presets[(r + rnd) % len(config.presets)], config.players) for r in range(config.rooms)]
        for rnd in range(config.rounds)
    ]
    for r in range(config.rooms):
        for i in range(config.players):
            run.players.append(
                Player(run, run.plans[0][r], i, f"{run.tag}{r}p{i}", random.Random(rng.random()), host=i == 0)
            )
        if config.watchers_every and r % config.watchers_every == 0:
            run.players.append(
                Player(
                    run, run.plans[0][r], config.players, f"{run.tag}{r}w", random.Random(rng.random()), watcher=True
                )
            )

    async def one(player):
        rooms = [rnd[player.room.index] for rnd in run.plans]
        if config.ramp:
            await asyncio.sleep(config.ramp * player.room.index / config.rooms + player.rng.random())
        try:
            await player.run_all(rooms)
        except Deadline:
            run.failures.append(f"{player.name}: deadline reached")
        except Exception as error:  # noqa: BLE001 - reported, never swallowed
            run.failures.append(f"{player.name}: {error!r}")
            for plan in rooms:  # nobody waits forever for a room this host never made
                if not plan.code_future.done():
                    plan.code_future.set_exception(RuntimeError(f"host failed: {error!r}"))
                    plan.code_future.exception()
        finally:
            await player.close()

    tasks = [asyncio.create_task(one(p)) for p in run.players]
    fault_task = asyncio.create_task(fault(run)) if fault else None
    reporter = asyncio.create_task(report_progress(run, tasks)) if config.progress else None
    await asyncio.gather(*tasks)
    if reporter:
        reporter.cancel()
    if fault_task:
        try:
            await fault_task
        except Exception as error:  # noqa: BLE001
            run.failures.append(f"fault injector: {error!r}")
    run.stats.ended = time.monotonic()
    return run


async def report_progress(run, tasks):
    stats = run.stats
    while True:
        await asyncio.sleep(run.config.progress)
        states = {}
        for p in run.players:
            key = p.view.state or "connecting"
            states[key] = states.get(key, 0) + 1
        open_sockets = sum(1 for p in run.players if p.conn is not None and not p.conn.done.is_set())
        lat = sorted(stats.latencies[-500:])
        p50 = lat[len(lat) // 2] if lat else float("nan")
        print(
            f"[{time.monotonic() - stats.started:6.0f}s] clients {states} sockets {open_sockets} "
            f"answers {dict(stats.replies)} recent p50 {p50:.0f} ms connects failed "
            f"{len(stats.connect_failures)} timeouts {len(stats.timeouts)} reconnects {stats.reconnects['total']} "
            f"done {sum(t.done() for t in tasks)}/{len(tasks)}",
            flush=True,
        )

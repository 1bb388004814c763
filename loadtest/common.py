"""Helpers shared by bench/realtime.py and the load, soak and fault runs: databases,
daphne and redis-server subprocesses, puzzles, a tiny asyncio HTTP client, percentiles.

Nothing here touches Django at import time: callers set the environment first.
"""

import asyncio
import contextlib
import hashlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# The puzzle of tests/conftest.py; variants below relabel digits and shuffle rows/columns.
PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"

PRODUCTION_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "loadtest-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_SECURE_SSL_REDIRECT": "false",  # plain http on 127.0.0.1
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "WARNING",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process=None, timeout: float = 60.0, what: str = "server") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"{what} exited with {process.returncode}: {_tail(process)}") from None
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout:.0f}s")


def _tail(process) -> str:
    path = getattr(process, "log_path", None)
    if path and os.path.exists(path):
        return Path(path).read_text(errors="replace")[-3000:]
    if process.stderr:
        return process.stderr.read().decode(errors="replace")[-3000:]
    return ""


# --- databases ---------------------------------------------------------------------------


def ensure_database(url: str | None = None, migrate: bool = True) -> None:
    """Create the PostgreSQL database of DATABASE_URL if missing, then migrate."""
    url = url or os.environ["DATABASE_URL"]
    if url.startswith("postgres"):
        import psycopg

        name = url.rsplit("/", 1)[1]
        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname=%s", (name,)).fetchone():
                conn.execute(f'CREATE DATABASE "{name}"')
    if migrate:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True, env=dict(os.environ, DATABASE_URL=url)
        )


def static_root() -> str:
    """Collected static files for production-mode daphne (manifest storage needs them).
    Cached in the temp directory per checkout (two checkouts on one machine, e.g. a worktree
    and a clone, once served each other's manifest: every page that named a file the other
    tree lacked answered 500), and rebuilt when the files under static/ differ from the ones
    collected (names, sizes, times)."""
    tree = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    default = Path(tempfile.gettempdir()) / f"showdown-loadtest-static-{tree}"
    root = Path(os.environ.get("LOADTEST_STATIC_ROOT") or default)
    files = sorted(p for p in (ROOT / "static").rglob("*") if p.is_file())
    digest = hashlib.sha256(
        "\n".join(f"{p.relative_to(ROOT)} {p.stat().st_size} {p.stat().st_mtime_ns}" for p in files).encode()
    ).hexdigest()
    stamp = root / "collected-from.sha256"
    if not (root / "staticfiles.json").exists() or not stamp.exists() or stamp.read_text() != digest:
        env = dict(
            os.environ, **PRODUCTION_ENV, LOADTEST_STATIC_ROOT=str(root), DJANGO_SETTINGS_MODULE="loadtest.settings"
        )
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, check=True, env=env)
        stamp.write_text(digest)
    return str(root)


# --- subprocesses ------------------------------------------------------------------------


class Daphne(subprocess.Popen):
    log_path: str | None = None  # where its stderr goes (None: a pipe)


def start_daphne(
    port: int,
    app: str = "bench.asgi:application",
    env: dict | None = None,
    log_path: str | None = None,
    wait: bool = True,
    tree: Path | None = None,
) -> Daphne:
    """daphne as a subprocess. With `log_path` its stderr goes to that file (appended), so
    a long run never blocks on a full pipe; without it, stderr is a pipe (read on failure)."""
    with open(log_path, "ab") if log_path else contextlib.nullcontext() as log:  # the child keeps its own copy
        process = Daphne(
            # A socket's connect may wait behind a burst of others (an arena round starts every
            # room at once): 30 s, as in production (docs/operations.md), not daphne's 5 s.
            [PYTHON, "-m", "daphne", "--websocket_connect_timeout", "30", "-b", "127.0.0.1", "-p", str(port), app],
            cwd=tree or ROOT,  # `tree`: another checkout's code (bench/realtime.py --previous)
            stdout=subprocess.DEVNULL,
            stderr=log or subprocess.PIPE,
            env=None if env is None else dict(os.environ, **env),
        )
    process.log_path = log_path
    if wait:
        wait_for_port(port, process, what="daphne")
    return process


def daphne_env(database_url: str, redis_url: str, **extra) -> dict:
    """Environment for a production-mode daphne on the given database and Redis."""
    # PUZZLE_BANK_INLINE: load runs start no Celery worker to top the puzzle bank up. Every
    # simulated player connects from 127.0.0.1: the per-address connect budget is raised
    # (the per-profile one stays).
    env = dict(
        PRODUCTION_ENV,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        PUZZLE_BANK_INLINE="1",
        DJANGO_SETTINGS_MODULE="loadtest.settings",
        LOADTEST_STATIC_ROOT=static_root(),
        ROOM_CONNECTS_PER_IP="100000",
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


def stop(process, timeout: float = 10.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout)


def kill9(process) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


class RedisServer:
    """A private redis-server for one run (never the shared one): fault runs stop it."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="loadtest-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
                "--logfile",
                os.path.join(self.dir, "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, timeout=20, what="redis-server")
        return self

    def kill(self) -> None:
        if self.process is not None:
            kill9(self.process)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class TcpProxy:
    """A TCP relay to a port on 127.0.0.1 (run in a thread of its own): `cut()` resets
    every connection through it and refuses new ones until `restore()`. One daphne's
    REDIS_URL points here, so Redis goes away for that process only (faults.py redis-away)."""

    def __init__(self, target_port: int):
        import threading

        self.target, self.port, self.down = target_port, free_port(), False
        self.writers: set = set()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="tcp-proxy")

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> "TcpProxy":
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._client, "127.0.0.1", self.port), self.loop
        ).result(10)
        return self

    async def _client(self, reader, writer):
        if self.down:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, up_writer}

        async def pipe(source, sink):
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (OSError, ConnectionError):
                pass
            finally:
                sink.transport.abort()
                self.writers.discard(sink)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        def reset():
            self.down = True
            for writer in list(self.writers):
                writer.transport.abort()
            self.writers.clear()

        self.loop.call_soon_threadsafe(reset)

    def restore(self) -> None:
        def up():
            self.down = False

        self.loop.call_soon_threadsafe(up)

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# --- puzzles -------------------------------------------------------------------------------


def puzzle_variant(rng: random.Random) -> tuple[str, str]:
    """A different puzzle with the same (unique) solution structure: digits relabelled,
    bands, rows within bands, stacks and columns within stacks shuffled, maybe transposed."""
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    relabel["0"] = "0"

    def order():
        bands = rng.sample(range(3), 3)
        return [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]

    rows, cols, transpose = order(), order(), rng.random() < 0.5

    def transform(grid: str) -> str:
        out = []
        for r in range(9):
            for c in range(9):
                rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
                out.append(relabel[grid[rr * 9 + cc]])
        return "".join(out)

    return transform(PUZZLE), transform(SOLUTION)


def add_puzzles(count: int, level: str = "easy", seed: int = 0, blanks: int | None = None) -> dict:
    """Put `count` unused puzzles in the bank (Django must be set up); givens -> solution.
    With `blanks`, only that many cells are empty (short showdowns for the test suite;
    the engine judges against the stored solution either way)."""
    from games.models import Puzzle

    rng = random.Random(seed)
    rows = []
    for i in range(count):
        givens, solution = puzzle_variant(rng)
        if blanks is not None:
            empty = set(rng.sample(range(81), blanks))
            givens = "".join("0" if j in empty else ch for j, ch in enumerate(solution))
        rows.append(
            Puzzle(level=level, givens=givens, solution=solution, clues=81 - givens.count("0"), seed=seed * 100000 + i)
        )
    Puzzle.objects.bulk_create(rows)
    return {row.givens: row.solution for row in rows}


def setup_rooms(count, players_per_room, preset="friendly", arena=False):
    """Started rooms (past the countdown) of `players_per_room` profiles each, on the fixed
    PUZZLE, with the rules of `preset` ("tournament": delayed feedback): [(code, [cookie, ...])].
    `arena`: an arena's rooms instead (docs/rules.md 12: made as the arena's tick makes them,
    with its end and a berserk player each), to measure that their live path costs the same.
    Used by bench/realtime.py."""
    import django

    django.setup()
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Puzzle
    from players.models import Profile
    from rooms import actions as A
    from rooms.api import act, create_public_room, create_room
    from tests.conftest import cookie_for

    Puzzle.objects.bulk_create(
        [Puzzle(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=i) for i in range(count)]
    )
    rooms = []
    past = timezone.now() - timedelta(seconds=10)
    if arena:
        from arenas.models import Arena

        start = timezone.now()
        hall = Arena.objects.create(
            level="easy", preset=preset, starts_at=start, minutes=90, ends_at=start + timedelta(minutes=90)
        )
    for r in range(count):
        profiles = [Profile.objects.create(display_name=f"b{r}-{p}") for p in range(players_per_room)]
        if arena:
            room = create_public_room(
                profiles,
                "easy",
                preset=preset,
                arena=hall.code,
                ends_at=hall.ends_at,
                berserk=[profiles[0].pk],
            )
            act(room.code, None, A.Start(), now=past)
            act(room.code, profiles[0], A.Sync())
            rooms.append((room.code, [cookie_for(p) for p in profiles]))
            continue
        room = create_room(profiles[0], level="easy", preset=preset)
        for p in profiles[1:]:
            act(room.code, p, A.Join())
        for p in profiles:
            act(room.code, p, A.SetReady(True))
        act(room.code, profiles[0], A.Start(), now=past)
        act(room.code, profiles[0], A.Sync())
        rooms.append((room.code, [cookie_for(p) for p in profiles]))
    return rooms


def setup_lobby():
    """A lobby with one seated player: (code, cookie). Used by bench/realtime.py --hostile."""
    import django

    django.setup()
    from players.models import Profile
    from rooms.api import create_room
    from tests.conftest import cookie_for

    host = Profile.objects.create(display_name="toggler")
    return create_room(host, level="easy", preset="friendly").code, cookie_for(host)


# --- a tiny HTTP/1.0 client (no extra dependency; one connection per request) --------------


class HttpResponse:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class HttpSession:
    """Cookies kept like a browser's (name -> value; attributes ignored)."""

    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.port, self.host = port, host
        self.cookies: dict[str, str] = {}

    async def request(
        self, method: str, path: str, data: dict | None = None, headers: dict | None = None, timeout: float = 60.0
    ) -> HttpResponse:
        return await asyncio.wait_for(self._request(method, path, data, headers or {}), timeout)

    async def _request(self, method, path, data, headers) -> HttpResponse:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            body = urlencode(data, doseq=True).encode() if data is not None else b""
            lines = [f"{method} {path} HTTP/1.0", f"Host: {self.host}:{self.port}", "User-Agent: showdown-loadtest"]
            if self.cookies:
                lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            if data is not None:
                lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head, _, payload = raw.partition(b"\r\n\r\n")
        head_lines = head.decode("latin-1").split("\r\n")
        if not head_lines or len(head_lines[0].split()) < 2:
            raise ConnectionError("no HTTP response")
        status = int(head_lines[0].split()[1])
        parsed = []
        for line in head_lines[1:]:
            name, _, value = line.partition(":")
            parsed.append((name.strip(), value.strip()))
            if name.strip().lower() == "set-cookie":
                pair = value.strip().split(";", 1)[0]
                key, _, val = pair.partition("=")
                if val in ('""', ""):
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val
        return HttpResponse(status, parsed, payload)

    def csrf(self) -> str:
        return self.cookies.get("csrftoken", "")


_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def csrf_from(html: str) -> str | None:
    match = _CSRF_INPUT.search(html)
    return match.group(1) if match else None


# --- numbers -------------------------------------------------------------------------------


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))] if values else float("nan")

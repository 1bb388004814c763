"""Server time and answer size per move: Solo Run, Cardoku and Sudoku Domino.

Run from the repo root:
    .venv/bin/python bench/moves.py [--moves 400] [--rounds 4] [--backends sqlite,postgres] [--previous REV]
                                    [--pg-alt prepared,async-commit]

Plays whole games through Django's test client (every middleware, the view, the write
path, the answer; no network) on a fresh test database: SQLite always, PostgreSQL too
when DATABASE_URL is set (or --backends names it). Each run is a process of its own,
because the settings read DATABASE_URL when they load.

Every move is timed one of three ways, in turn: the answer that carries only what changed
(what the game pages use), the same answer with the move written through the locked write
path a move used before games/common/rowwriter.py kept games (LOCKED: the old design beside the new one,
move by move), and the whole-board answer (the same move asking for the whole game: Solo Run
with a version the run does not have, Cardoku and Domino with `full=1`). With
`--previous REV` the same moves are also played on that older commit (checked out in a
temporary worktree), and with `--pg-alt` on PostgreSQL settings that are not the project's
(prototypes). The trees and prototypes take turns (`--rounds`), so a machine whose load
changes during the run weighs on each alike; compare rows of one run only. Moves that end
a game answer with the finish screen and are left out.

Three rows at the end show the floor of this stack on this machine: the same POST to a
view that does nothing, to one that makes a locked read and one write in a transaction (a
move before games/common/rowwriter.py kept games), and to one that sends one UPDATE (a move now).

A player signed in to an account (issue 22: a linked profile, the session a sign-in leaves) plays
whole games in turn with the anonymous one; its `fragments` moves are the `fragments, signed in`
rows (its others are played, not timed).

Moves are posted form-encoded, as htmx sends them (not multipart, the test client's
default). Times are wall clock (what a player waits for, database included); the CPU time of the
process is printed beside them because a shared machine adds scheduling noise.

Targets (issue 15): median <= 3 ms, p99 <= 10 ms of server time per move, and an
answer <= 3 KB, for each game.
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
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(os.environ.get("BENCH_TREE") or ROOT)  # the code under test (--previous: an older checkout)
if str(TREE) not in sys.path[:1]:
    sys.path.insert(0, str(TREE))

PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
HX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"
FRAGMENTS, WHOLE, LOCKED = "fragments", "whole board", "fragments, locked write"
SIGNED_IN = "fragments, signed in"  # the same answer for a player signed in to an account (issue 22)
MODES = [FRAGMENTS, WHOLE]  # + LOCKED where the tree has games/rows.write


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


class Timer:
    """Times `client.post` and keeps (ms, bytes) per (game, move kind, answer mode)."""

    def __init__(self, client, signed_in: bool = False):
        self.client = client
        self.signed_in = signed_in  # its fragments moves are kept as SIGNED_IN, the others untimed
        self.samples: dict[tuple[str, str, str], list[tuple[float, float, int]]] = defaultdict(list)

    def post(self, url: str, data: dict, key: tuple[str, str, str] | None):
        if key is not None and self.signed_in:
            key = (key[0], key[1], SIGNED_IN) if key[2] == FRAGMENTS else None
        body = urlencode(data)  # as htmx sends a form (the test client's default is multipart)
        LOCKED_WRITE[0] = key is not None and key[2] == LOCKED
        t0, c0 = time.perf_counter(), time.process_time()
        response = self.client.post(url, body, content_type=FORM, **HX)
        ms, cpu = 1000 * (time.perf_counter() - t0), 1000 * (time.process_time() - c0)
        if response.status_code >= 500:
            raise SystemExit(f"{url} {data}: HTTP {response.status_code}")
        if key is not None:
            self.samples[key].append((ms, cpu, len(response.content)))
        return response


def _mode(n: int) -> str:
    return MODES[n % len(MODES)]


LOCKED_WRITE = [False]


def install_locked_write() -> None:
    """The same moves through the write path before games/common/rowwriter.py kept games (BEGIN, a locked
    SELECT, the UPDATE, COMMIT), for the moves timed as LOCKED: the old design beside the new
    one, move by move, in one process. It keeps the copy it wrote as the new path would, so
    the next move of the other kind finds it."""
    from django.db import transaction

    try:
        from games.common import rowwriter as rows
    except ImportError:  # a tree from before games/common/ (issue 42), or before rows.py was rowwriter.py
        try:
            from games import rowwriter as rows  # type: ignore[no-redef,attr-defined]
        except ImportError:
            from games import rows  # type: ignore[no-redef,attr-defined]

    if not hasattr(rows, "write"):  # an older tree: its only write path is the locked one
        return
    kept_write = rows.write

    def write(model, pk, player, change, missing, related=None, related_fields=()):
        if not LOCKED_WRITE[0]:
            return kept_write(model, pk, player, change, missing, related, related_fields)
        with transaction.atomic():
            instance = rows.read(model, pk, player, related, related_fields, lock=True)
            if instance is None:
                raise missing
            result, names = change(instance)
            assert rows.update(instance, names)
        return rows._keep(instance, player, result)

    rows.write = write
    MODES.append(LOCKED)


# --- Solo Run ---------------------------------------------------------------------------------


def play_solo(timer: Timer, player, rng: random.Random) -> None:
    from django.urls import reverse

    from games.models import Puzzle, SoloRun
    from games.sudoku.solo import start_run

    Puzzle.objects.create(
        level="easy", givens=PUZZLE, solution=SOLUTION, clues=81 - PUZZLE.count("0"), techniques=[], seed=0
    )
    run = start_run(player, "easy")
    url = reverse("solo_act", args=[run.pk])
    empty = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
    rng.shuffle(empty)
    version, n = 0, 0
    for k, cell in enumerate(empty):
        if rng.random() < 0.2:  # a wrong entry now and then
            mode = _mode(n)
            digit = int(SOLUTION[cell]) % 9 + 1
            timer.post(
                url,
                {"cell": cell, "digit": digit, "version": version if mode != WHOLE else 10**6},
                ("Solo Run", "wrong entry", mode),
            )
            version, n = version + 1, n + 1
        mode = _mode(n)
        last = k == len(empty) - 1
        timer.post(
            url,
            {"cell": cell, "digit": SOLUTION[cell], "version": version if mode != WHOLE else 10**6},
            None if last else ("Solo Run", "correct entry", mode),
        )
        version, n = version + 1, n + 1
    assert SoloRun.objects.get(pk=run.pk).state == "finished"


# --- Cardoku ----------------------------------------------------------------------------------


def play_cardoku(timer: Timer, player, rng: random.Random) -> None:
    from django.urls import reverse

    from games.cardoku import solo
    from games.engines import cardoku as ck

    game = solo.start_game(player, {"layout": "default"}, rng=rng)
    url = reverse("cardoku_act", args=[game.pk])
    n = 0
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        if state.finished:
            break
        legal = sorted(ck.legal_squares(state))
        mode = _mode(n)
        data = {"step": game.step, **({"full": "1"} if mode == WHOLE else {})}
        last = state.cards_left == 1
        if legal and rng.random() < 0.9:
            row, col = rng.choice(legal)
            timer.post(
                url, {**data, "action": "place", "row": row, "col": col}, None if last else ("Cardoku", "place", mode)
            )
        else:
            timer.post(url, {**data, "action": "discard"}, None if last else ("Cardoku", "discard", mode))
        n += 1


# --- Sudoku Domino ----------------------------------------------------------------------------


def play_domino(timer: Timer, player, rng: random.Random) -> None:
    from django.urls import reverse

    from games.domino import solo
    from games.engines import domino as engine
    from games.models import Puzzle

    Puzzle.objects.create(
        level="easy", givens=PUZZLE, solution=SOLUTION, clues=81 - PUZZLE.count("0"), techniques=[], seed=0
    )
    game = solo.start_game(player, "easy", seed=rng.randrange(2**40))
    url = reverse("domino_act", args=[game.pk])
    n = 0
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        if state.finished:
            break
        mode = _mode(n)
        data = {"version": state.move_count, **({"full": "1"} if mode == WHOLE else {})}
        entries = engine.entry_points(state)
        right = [
            (e, cell)
            for e, cell in entries.items()
            if state.solution[(cell[0] - 1) * 9 + cell[1] - 1] == state.current_stone
        ]
        wrong = [(e, cell) for e, cell in entries.items() if (e, cell) not in right]
        ending = state.stones_left <= 1
        if right and (rng.random() < 0.9 or not wrong or state.lives <= 1):
            (edge, line), _ = rng.choice(right)
            timer.post(url, {**data, "push": f"{edge}-{line}"}, None if ending else ("Domino", "correct push", mode))
        elif wrong and state.lives > 1 and rng.random() < 0.5:
            (edge, line), _ = rng.choice(wrong)
            timer.post(url, {**data, "push": f"{edge}-{line}"}, ("Domino", "wrong push", mode))
        else:
            kind = "gold" if state.gold_jokers else "grey" if state.grey_jokers else None
            empty = [(r, c) for r in range(1, 10) for c in range(1, 10) if state.cell(r, c) == engine.EMPTY]
            if kind is None or not empty:
                break
            row, col = rng.choice(empty)
            timer.post(url, {**data, "joker": kind, "cell": f"{row}-{col}"}, None)
        n += 1


# --- a player signed in to an account ---------------------------------------------------------------


def signed_in_client(timer: Timer):
    """A profile linked to an account and a client signed in to it as a real sign-in leaves the
    session (accounts/linking.py): its moves pay the session and the account check of
    players.middleware. Shares `timer`'s samples. None in a tree from before accounts."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from players.models import Profile
    from tests.conftest import cookie_for

    try:
        from players.middleware import LINKED_PROFILE
    except ImportError:
        return None
    user = get_user_model().objects.create_user("bench", email="bench@example.com")
    profile = Profile.objects.create(display_name="Bench", account=user)
    client = Client()
    client.force_login(user)
    session = client.session
    session[LINKED_PROFILE] = profile.pk
    session.save()
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(profile)
    signed = Timer(client, signed_in=True)
    signed.samples = timer.samples
    return signed, profile


# --- the floor: what any move costs before the game -------------------------------------------------


def time_floor(timer: Timer, player, n: int = 200) -> None:
    """The same kind of POST to two views that do no game work: one that answers at once
    (every middleware, the cookie's player token) and one that also makes one locked read
    and one write of a row, in a transaction, as a move's write path does."""
    from django.db import transaction
    from django.http import HttpResponse
    from django.urls import clear_url_caches, path

    import config.urls
    from players.models import Profile

    def nothing(request):
        return HttpResponse("")

    def one_read_one_write(request):
        with transaction.atomic():
            row = Profile.objects.select_for_update().filter(pk=player.pk).first()
            row.save(update_fields=["display_name"])
        return HttpResponse("")

    def one_update(request):  # what a move of a kept game sends (games/common/rowwriter.py)
        Profile.objects.filter(pk=player.pk).update(display_name="Bench")
        return HttpResponse("")

    config.urls.urlpatterns[:0] = [
        path("bench/nothing/", nothing),
        path("bench/rw/", one_read_one_write),
        path("bench/w/", one_update),
    ]
    clear_url_caches()
    for _ in range(n):
        timer.post("/bench/nothing/", {"cell": 1, "digit": 2}, ("floor", "no game work", "request only"))
        timer.post("/bench/rw/", {"cell": 1, "digit": 2}, ("floor", "no game work", "+ locked read + write"))
        timer.post("/bench/w/", {"cell": 1, "digit": 2}, ("floor", "no game work", "+ one UPDATE"))


# --- one backend --------------------------------------------------------------------------------


def run_backend(moves: int, seed: int, label: str | None, out: str, floor: int) -> None:
    """Play `moves` timed moves of each game on a fresh test database (in this process's
    settings) and write the samples to `out` as JSON."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from players.models import Profile
    from tests.conftest import cookie_for

    setup_test_environment()
    alternatives = [a for a in os.environ.get("BENCH_PG_ALT", "").split(",") if a]
    if connection.vendor == "postgresql" and alternatives:  # a prototype beside the settings' path
        options = connection.settings_dict.setdefault("OPTIONS", {})
        if "prepared" in alternatives:  # server-side binding: psycopg prepares a statement run 5 times
            options["server_side_binding"] = True
        if "async-commit" in alternatives:  # a commit does not wait for the WAL flush
            options["options"] = "-c synchronous_commit=off"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    if connection.vendor == "sqlite" and os.environ.get("BENCH_SQLITE_WAL"):
        from django.db.backends.signals import connection_created

        def wal(sender, connection, **kwargs):
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")

        connection_created.connect(wal)
        connection.close()
    try:
        install_locked_write()
        player = Profile.objects.create(display_name="Bench")
        client = Client()
        client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(player)
        timer = Timer(client)
        rng = random.Random(seed)
        # whole games of an anonymous player and of a signed-in one take turns
        players = [(timer, player)] + ([signed] if (signed := signed_in_client(timer)) else [])
        plays = {"Solo Run": play_solo, "Cardoku": play_cardoku, "Domino": play_domino}
        for play in plays.values():  # warm up: imports, template loading, connections
            for who, profile in players:
                play(Timer(who.client, who.signed_in), profile, rng)
        for name, play in plays.items():  # whole games until each has `moves` timed moves
            while sum(len(v) for k, v in timer.samples.items() if k[0] == name) < moves:
                for who, profile in players:
                    play(who, profile, rng)
        if floor:
            time_floor(timer, player, floor)
        if label:  # an older tree or a prototype: one row per move kind
            merged: defaultdict[tuple, list] = defaultdict(list)
            for (game, kind, mode), samples in timer.samples.items():
                if mode == FRAGMENTS or game == "floor":  # an older tree answered with the whole board
                    merged[(game, kind, mode if game == "floor" else label)] += samples
            timer.samples = merged
        backend = connection.vendor
        if connection.vendor == "sqlite":  # what the settings (or --sqlite-wal) made of the journal
            with connection.cursor() as cursor:
                journal = cursor.execute("PRAGMA journal_mode").fetchone()[0]
                sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[
                    cursor.execute("PRAGMA synchronous").fetchone()[0]
                ]
            backend += f" journal_mode={journal}, synchronous={sync}"
        Path(out).write_text(
            json.dumps({"backend": backend, "label": label, "samples": [[*k, v] for k, v in timer.samples.items()]})
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def report(backend: str, samples: dict, order: list[str]) -> None:
    print(backend)
    print(
        f"  {'game':<9} {'move':<14} {'answer':<24} {'n':>4} {'median':>8} {'p99':>8} {'max':>8} "
        f"{'cpu med':>8} {'cpu p99':>8} {'bytes med':>10} {'bytes max':>10}"
    )
    rank = {mode: i for i, mode in enumerate(order)}
    for game, kind, mode in sorted(samples, key=lambda k: (k[0] == "floor", k[0], k[1], rank.get(k[2], 99))):
        rows = samples[(game, kind, mode)]
        ms, cpu, size = ([s[i] for s in rows] for i in range(3))
        sizes = f"{int(statistics.median(size)):10d} {max(size):10d}" if game != "floor" else ""
        print(
            f"  {game:<9} {kind:<14} {mode:<24} {len(ms):4d} {statistics.median(ms):6.2f}ms "
            f"{pct(ms, 0.99):6.2f}ms {max(ms):6.2f}ms {statistics.median(cpu):6.2f}ms {pct(cpu, 0.99):6.2f}ms "
            f"{sizes}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="timed moves per game and backend (default 400)")
    parser.add_argument(
        "--backends",
        default=None,
        help="comma-separated: sqlite, postgres (default: sqlite, plus postgres if DATABASE_URL is set)",
    )
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--previous",
        metavar="REV",
        help="also time the same moves on an older commit (e.g. the one before issue 15) in the same run",
    )
    parser.add_argument(
        "--sqlite-wal",
        action="store_true",
        help="SQLite in WAL mode with synchronous=NORMAL (a commit without an fsync), for comparison",
    )
    parser.add_argument(
        "--pg-alt",
        default="",
        help="on PostgreSQL, also run these prototypes (taking turns with the settings' run), each a run of its own "
        "('+' combines): prepared (server-side binding, prepared statements), "
        "async-commit (synchronous_commit=off); e.g. prepared,async-commit,prepared+async-commit",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="the trees and prototypes take turns, each playing moves/rounds per turn (default 4)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--floor", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_backend(args.moves, args.seed, args.label, args.out, args.floor)
        return
    url = os.environ.get("DATABASE_URL", "")
    backends = (
        args.backends.split(",") if args.backends else ["sqlite"] + (["postgres"] if url.startswith("postgres") else [])
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"bench/moves.py: server time per move through the test client (load {load:.1f} at the start, "
        f"{os.cpu_count()} cores; {args.rounds} alternating rounds)"
    )
    trees: list[tuple[Path, str | None]] = [(ROOT, None)]
    if args.previous:  # the older code in a temporary worktree, run by this same script
        old = Path(tempfile.mkdtemp(prefix="bench-previous-"))
        subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(old), args.previous], cwd=ROOT, check=True)
        trees.append((old, f"previous {args.previous[:7]}"))
    try:
        for backend in backends:
            env = dict(os.environ)
            if backend == "sqlite":
                env.pop("DATABASE_URL", None)
            elif not url.startswith("postgres"):
                print("postgres: skipped (set DATABASE_URL=postgres://...)")
                continue
            env.pop("REDIS_URL", None)  # moves never touch Redis; keep the cache in memory
            if args.sqlite_wal:
                env["BENCH_SQLITE_WAL"] = "1"
            runs: list[tuple[Path, str | None, str]] = [(tree, label, "") for tree, label in trees]
            if backend == "postgres" and args.pg_alt:
                runs += [(ROOT, f"prototype {alt}", alt.replace("+", ",")) for alt in args.pg_alt.split(",")]
            samples: defaultdict[tuple, list] = defaultdict(list)
            name = backend
            per_round = max(1, args.moves // args.rounds)
            for n in range(args.rounds):  # the same load for every tree: they take turns
                for tree, label, alt in runs:
                    env["BENCH_TREE"] = str(tree)
                    env["BENCH_PG_ALT"] = alt
                    with tempfile.NamedTemporaryFile(suffix=".json") as out:
                        command = [
                            sys.executable,
                            str(Path(__file__).resolve()),
                            "--child",
                            "--moves",
                            str(per_round),
                            "--seed",
                            str(args.seed + n),
                            "--out",
                            out.name,
                            "--floor",
                            str(200 // args.rounds if label is None else 0),
                        ]
                        subprocess.run(command + (["--label", label] if label else []), env=env, cwd=tree, check=True)
                        result = json.loads(Path(out.name).read_text())
                    name = result["backend"] if label is None else name
                    for game, kind, mode, rows in result["samples"]:
                        floor_of = f"{mode} ({label.split()[0]})" if game == "floor" and label else mode
                        samples[(game, kind, floor_of)] += rows
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            report(
                f"{name} (load {load:.1f} at the end)",
                samples,
                [FRAGMENTS, SIGNED_IN, LOCKED, WHOLE] + [r[1] for r in runs[1:] if r[1]],
            )
    finally:
        if args.previous:
            subprocess.run(["git", "worktree", "remove", "--force", str(trees[1][0])], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()

"""Replays and ghosts (issue 39): what a replay page and a ghost race cost the server.

Run from the repo root:
    .venv/bin/python bench/replays.py [--requests 50] [--runs 6]

On PostgreSQL when DATABASE_URL points at one (the bench's own database
`showdown_bench_replays` on that server, created and migrated if missing, emptied at the start),
else on an SQLite file of its own in the temp directory (the settings' SQLite options).

A. The replay page of a finished 5-player Showdown room (80 moves each: 51 right entries, 14
   wrong ones and 15 pencil marks, over 2.5-4 minutes of race time), its tracks recorded with
   replays.record.record_room: GET /replay/room/<code>/ through Django's test client (every
   middleware, the view, the template), server time p50/p99 and CPU, the answer's size, and
   each track's compressed events. A room's log keeps no pencil marks, so the page is timed
   as recorded and again with the marks put back in its tracks (400 events in all).
   Targets (issue 39): <= 50 ms, <= 60 KB, a track <= 5 KB compressed.
B. A ghost race against a plain Solo Run: the CPU of games.sudoku.solo.act per move on runs with and
   without a ghost (the same moves), and the Solo page with and without one. The claim: per
   move identical (the browser plays the ghost, static/js/ghost.js), one page load a bit larger.
C. The design not taken, prototyped: the server plays the ghost and pushes its standings row at
   every ghost event. CPU per event (the row rendered as the ghost lane shows it, and a push
   frame json-encoded; the socket sends not counted) and per whole ghost race, against 0 per
   event when the browser plays it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["LOG_LEVEL"] = "WARNING"  # not Celery's eager "Task ... succeeded" lines
warnings.filterwarnings("ignore", message="No directory at")  # no collected static files: not needed here

from loadtest.common import ensure_database, pct  # noqa: E402  (no Django at import)

DB_NAME = "showdown_bench_replays"
SQLITE_PATH = Path(tempfile.gettempdir()) / f"{DB_NAME}.sqlite3"
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eve"]


def setup_database() -> None:
    """The bench's own database, migrated and empty: never the one DATABASE_URL names, nor the
    repo's db.sqlite3 (other benches' rows once slowed a bench 5x: bench/README.md)."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        url = url.rsplit("/", 1)[0] + "/" + DB_NAME
        os.environ["DATABASE_URL"] = url
        ensure_database(url, migrate=False)  # created if missing; migrated below, in this process
    else:
        os.environ.pop("DATABASE_URL", None)  # the settings' SQLite (WAL, IMMEDIATE), on a file of its own
        SQLITE_PATH.unlink(missing_ok=True)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = str(SQLITE_PATH)  # before the first connection
    call_command("migrate", verbosity=0)
    if connection.vendor == "postgresql":
        call_command("flush", interactive=False, verbosity=0)  # an earlier run's rows: fresh statistics
    settings.ALLOWED_HOSTS = ["testserver"]
    # Production has DEBUG off: no query log in the timings. No setup_test_environment(): its
    # template signal copies every context (bench/daily.py).
    settings.DEBUG = False
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)  # the eager Celery's memory:// broker


def ms(seconds: float) -> float:
    return seconds * 1000


def best_cpu(work, repeats: int = 100, rounds: int = 5) -> float:
    """CPU seconds of one `work()`: the best of `rounds` rounds of `repeats` calls (on a shared
    machine the other processes' cache and frequency effects only ever add)."""
    work()  # warm up
    best = float("inf")
    for _ in range(rounds):
        c0 = time.process_time()
        for _ in range(repeats):
            work()
        best = min(best, (time.process_time() - c0) / repeats)
    return best


def timed_gets(pages: dict, n: int) -> dict:
    """`pages`: {label: (client, url)}. n GETs of each after 3 warm-ups (templates compiled,
    connections open), the pages taking turns (a load that changes weighs on each alike):
    wall and CPU per request, the answer's size, the queries of one more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for client, url in pages.values():
        for _ in range(3):
            assert client.get(url).status_code == 200
    wall: dict[str, list[float]] = {label: [] for label in pages}
    cpu: dict[str, list[float]] = {label: [] for label in pages}
    for _ in range(n):
        for label, (client, url) in pages.items():
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(url)
            wall[label].append(time.perf_counter() - t0)
            cpu[label].append(time.process_time() - c0)
            assert response.status_code == 200
    out = {}
    for label, (client, url) in pages.items():
        with CaptureQueriesContext(connection) as queries:
            content = client.get(url).content
        out[label] = {
            "p50": ms(pct(wall[label], 50)),
            "p99": ms(pct(wall[label], 99)),
            "cpu": ms(statistics.median(cpu[label])),
            "cpu99": ms(pct(cpu[label], 99)),
            "bytes": len(content),
            "gzip": len(gzip.compress(content)),
            "queries": len(queries.captured_queries),
        }
    return out


# --- A: a 5-player room's replay page ---------------------------------------------------------


def player_moves(rng: random.Random, finish_at: float) -> list[tuple[float, object]]:
    """One racer's 80 moves: every empty cell right (51), 14 wrong entries and 15 pencil marks
    before some of them, spread over `finish_at` seconds, the last right entry at the end."""
    from games.sudoku.play import Enter, Note
    from tests.conftest import EMPTY, SOLUTION

    cells = rng.sample(EMPTY, len(EMPTY))
    wrong, noted = set(rng.sample(cells[:-1], 14)), set(rng.sample(cells[:-1], 15))
    moves: list[Enter | Note] = []
    for cell in cells:
        right = int(SOLUTION[cell])
        if cell in noted:
            moves.append(Note(cell, rng.choice([d for d in range(1, 10) if d != right])))
        if cell in wrong:
            moves.append(Enter(cell, right % 9 + 1))
        moves.append(Enter(cell, right))
    times = sorted(rng.uniform(1, finish_at - 1) for _ in moves[:-1]) + [finish_at]
    return list(zip(times, moves, strict=True))


def finished_room(rng: random.Random, puzzle):
    """A Standard Showdown of 5 raced to the end through rooms.api, at explicit server times."""
    from players.models import Profile
    from rooms import actions as A
    from rooms.api import act, create_room
    from rooms.models import Room

    players = [Profile.objects.create(display_name=name) for name in NAMES]
    start = dt.datetime.now(dt.UTC)
    room = create_room(players[0], level="easy", preset="standard", now=start)
    for p in players[1:]:
        act(room.code, p, A.Join(), now=start)
    for p in players:
        act(room.code, p, A.SetReady(True), now=start)
    act(room.code, players[0], A.Start(), now=start)
    room.refresh_from_db()
    assert room.puzzle_id == puzzle.pk, "the room took another puzzle from the bank"
    # finishes 2:30 to 3:58 apart by 22 s; every player's moves in one time order, as played
    plan = []
    for n, player in enumerate(players):
        plan += [(t, n, player, move) for t, move in player_moves(rng, 150 + 22 * n)]
    for t, _n, player, move in sorted(plan, key=lambda m: (m[0], m[1])):
        assert room.starts_at is not None
        act(room.code, player, A.GameMove(move), now=room.starts_at + dt.timedelta(seconds=t))
    room.refresh_from_db()
    assert room.state == Room.State.FINISHED, room.state
    return room, plan


def part_a(args, rng, puzzle) -> dict:
    from django.db import connection
    from django.urls import reverse

    from replays import record, tracks
    from replays.models import Track
    from rooms.gametypes import game_for
    from tests.conftest import client_for

    room, plan = finished_room(rng, puzzle)
    # Celery runs eagerly without Redis: the finish recorded the tracks already. Time the
    # recording itself (off the live path: a Celery task once per room) on a clean slate.
    Track.objects.filter(room_code=room.code).delete()
    t0 = time.process_time()
    found = record.record_room(room)
    record_cpu = time.process_time() - t0
    assert len(found) == len(NAMES)
    events = [t.event_list for t in found]
    sizes = [len(bytes(t.events)) for t in found]

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # the planner's statistics of the rows just made
    viewer = client_for(new_profile("Viewer"))
    url = reverse("room_replay", args=[room.code])
    page = timed_gets({"page": (viewer, url)}, args.requests)["page"]

    # A Showdown room's log keeps no pencil marks (rooms/gametypes/showdown.py, changed()), so
    # the recorded tracks have none. The same tracks with them, recorded from the bench's own
    # moves through replays.tracks: the page and the sizes of a run that kept its marks.
    rules = game_for(room).rules(room)
    for track in found:
        n = NAMES.index(track.name)
        moves = [(round(t * 1000), move.kind, move.cell, move.digit) for t, i, _p, move in plan if i == n]
        track.events = tracks.pack(tracks.record(puzzle.givens, puzzle.solution, rules, moves).events)
    Track.objects.bulk_update(found, ["events"])
    with_notes = [Track.objects.get(pk=t.pk) for t in found]
    noted_page = timed_gets({"page": (viewer, url)}, args.requests)["page"]
    return {
        "room": room,
        "tracks": found,
        "logged": len(plan),
        "events": sum(len(e) for e in events),
        "marks": {k: sum(1 for e in events for ev in e if ev[3] == k) for k in "cwn"},
        "record_cpu": record_cpu,
        "sizes": sizes,
        "cap": tracks.MAX_BYTES,
        "page": page,
        "noted": {
            "events": sum(len(t.event_list) for t in with_notes),
            "marks": sum(1 for t in with_notes for ev in t.event_list if ev[3] == "n"),
            "made": sum(1 for *_, move in plan if move.kind == "note"),
            "sizes": [len(bytes(t.events)) for t in with_notes],
            "page": noted_page,
        },
    }


def new_profile(name: str):
    from players.models import Profile

    return Profile.objects.create(display_name=name)


# --- B: a ghost race against a plain Solo Run ---------------------------------------------------


def solo_moves(rng: random.Random) -> list:
    """A whole Solo Run: 51 right entries, 5 wrong ones (more would make it Assisted) and 11
    pencil marks, 67 moves."""
    from games.sudoku.solo import SoloAction
    from tests.conftest import EMPTY, SOLUTION

    cells = rng.sample(EMPTY, len(EMPTY))
    wrong, noted = set(rng.sample(cells[:-1], 5)), set(rng.sample(cells[:-1], 11))
    moves: list[SoloAction] = []
    for cell in cells:
        right = int(SOLUTION[cell])
        if cell in noted:
            moves.append(SoloAction("note", cell, right % 9 + 1))
        if cell in wrong:
            moves.append(SoloAction("enter", cell, right % 9 + 1))
        moves.append(SoloAction("enter", cell, right))
    return moves


def play_run(player, puzzle, moves, ghost=None):
    """A Solo Run with these moves through games.sudoku.solo.act, 2 s apart (untimed)."""
    from games.sudoku import solo

    run = solo.new_run(player, puzzle, ghost=ghost)
    for n, action in enumerate(moves):
        solo.act(run.pk, player, action, now=run.started_at + dt.timedelta(seconds=2 * (n + 1)))
    return run


def part_b(args, rng, puzzle, ghost) -> dict:
    from django.urls import reverse

    from games.sudoku import solo
    from tests.conftest import client_for

    player = new_profile("Solo")
    play_run(player, puzzle, solo_moves(rng))  # warm up: the write path's imports and statements
    cpu: dict[str, list[float]] = {"plain": [], "ghost": []}
    for _ in range(args.runs):
        # A run of each design with the same moves, played move by move in turns (each row stays
        # kept by games/common/rowwriter.py), so a load that changes weighs on both alike.
        runs = {"plain": solo.new_run(player, puzzle), "ghost": solo.new_run(player, puzzle, ghost=ghost)}
        for n, action in enumerate(solo_moves(rng)):
            for design in ("plain", "ghost") if n % 2 == 0 else ("ghost", "plain"):
                run = runs[design]
                c0 = time.process_time()
                solo.act(run.pk, player, action, now=run.started_at + dt.timedelta(seconds=2 * (n + 1)))
                cpu[design].append(time.process_time() - c0)
    pages, moves = {}, solo_moves(rng)
    for design in ("plain", "ghost"):  # a run in play, the same 10 moves in: the page a racer (re)loads
        runner = new_profile(f"Racer {design}")
        run = play_run(runner, puzzle, moves[:10], ghost=ghost if design == "ghost" else None)
        pages[design] = (client_for(runner), reverse("solo_run", args=[run.pk]))
    return {"cpu": cpu, "pages": timed_gets(pages, args.requests), "lane": lane_cost(ghost)}


def lane_cost(ghost) -> tuple[float, int]:
    """The ghost's part of its page alone, steadier than two pages' difference: the
    `ghost_lanes` tag (the track's events unpacked, its line, the lane, the JSON), CPU a render."""
    from django.template import engines

    from replays.models import Track

    template = engines["django"].from_string("{% load replay_tags %}{% ghost_lanes ghosts %}")
    context = {"ghosts": [Track.objects.select_related("puzzle").get(pk=ghost.pk)]}  # as the Solo page loads it
    return best_cpu(lambda: template.render(context)), len(template.render(context).encode())


# --- C: the server plays the ghost (the prototype) ----------------------------------------------

# The ghost lane's row as templates/replays/ghosts.html draws it, here with the ghost's state
# at that moment (what a server-played ghost would push at each of its events).
ROW_TEMPLATE = (
    "{% load i18n %}"
    '<li class="standing ghost racer-c{{ colour }}{% if finished %} status-finished{% endif %}" data-ghost="0">'
    '<span class="place" aria-hidden="true">👻</span>'
    '<div class="racer"><strong class="name">{% blocktranslate %}Ghost of {{ name }}{% endblocktranslate %}</strong>'
    '<span class="line" data-ghost-line>{{ count }} / {{ to_fill }}</span>'
    '<progress max="{{ to_fill }}" value="{{ count }}" '
    'aria-label="{% blocktranslate %}Ghost of {{ name }}: progress{% endblocktranslate %}"></progress></div>'
    '<svg class="silhouette" role="img" '
    'aria-label="{% blocktranslate %}Ghost of {{ name }}{% endblocktranslate %}" viewBox="0 0 9 9">'
    '<path class="g" d="{{ given }}"/><path class="f" d="{{ filled }}"/><path class="grid" d="{{ grid }}"/>'
    '<path class="boxes" d="{{ boxes }}"/></svg></li>'
)


def fstring_row(ghost: dict, given: str, filled: str, count: int) -> str:
    from rooms.fragments import BOXES, GRID

    name = escape(f"Ghost of {ghost['name']}")
    return (
        f'<li class="standing ghost racer-c3" data-ghost="0"><span class="place" aria-hidden="true">👻</span>'
        f'<div class="racer"><strong class="name">{name}</strong>'
        f'<span class="line" data-ghost-line>{count} / {ghost["to_fill"]}</span>'
        f'<progress max="{ghost["to_fill"]}" value="{count}" aria-label="{name}: progress"></progress></div>'
        f'<svg class="silhouette" role="img" aria-label="{name}" viewBox="0 0 9 9"><path class="g" d="{given}"/>'
        f'<path class="f" d="{filled}"/><path class="grid" d="{GRID}"/><path class="boxes" d="{BOXES}"/></svg></li>'
    )


def server_played_race(ghost: dict, render) -> int:
    """One ghost race played by the server: at each event of the ghost's line, its lane's state
    then (the silhouette's paths), the row rendered and a push frame encoded. Bytes pushed."""
    from rooms.fragments import silhouette_paths

    givens = set(ghost["givens"])
    filled: set[int] = set()
    pushed = 0
    for version, (at, cell, on) in enumerate(ghost["line"], 1):
        (filled.add if on else filled.discard)(cell)
        classes = ["g" if i in givens else "f" if i in filled else "" for i in range(81)]
        given, filled_path = silhouette_paths(classes)
        html = render(ghost, given, filled_path, len(filled))
        frame = json.dumps({"type": "ghost", "ghost": 0, "at": at, "version": version, "html": html})
        pushed += len(frame)
    return pushed


def part_c(ghost_track) -> dict:
    from django.template import engines
    from django.utils import translation

    from replays.presenters import ghost_data
    from rooms.fragments import BOXES, GRID

    ghost = ghost_data(ghost_track)
    template = engines["django"].from_string(ROW_TEMPLATE)

    def django_row(g, given, filled, count):
        context = {"colour": 3, "name": g["name"], "count": count, "to_fill": g["to_fill"], "given": given}
        context.update(filled=filled, grid=GRID, boxes=BOXES, finished=count == g["to_fill"])
        return template.render(context)

    out: dict[str, float] = {"events": len(ghost_track.event_list), "line": len(ghost["line"])}
    with translation.override("en"):
        for label, render in (("f-string row", fstring_row), ("Django template row", django_row)):
            out[label] = best_cpu(lambda render=render: server_played_race(ghost, render))  # CPU per whole race
            out[label + " bytes"] = server_played_race(ghost, render)
    return out


# --- the report ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50, help="timed GETs per page (after 3 warm-ups)")
    parser.add_argument("--runs", type=int, default=6, help="whole Solo Runs per design in part B (67 moves each)")
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args()

    started = time.perf_counter()
    setup_database()
    from django.db import connection

    from games.models import Puzzle
    from tests.conftest import PUZZLE, SOLUTION

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    where = f"{connection.vendor} ({connection.settings_dict['NAME']})"
    print(f"bench/replays.py: {os.cpu_count()} CPUs, load average {load}; database {where}")
    rng = random.Random(args.seed)
    # The room takes this puzzle from the bank; the Solo Runs race its ghosts on it.
    puzzle = Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=[], seed=1)

    a = part_a(args, rng, puzzle)
    print(
        f"A. Replay page of a finished 5-player room ({a['room'].code}): "
        f"GET /replay/room/<code>/ x {args.requests} after 3 warm-ups"
    )
    marks = a["marks"]
    print(
        f"  moves made {a['logged']} (5 x 80: 51 right, 14 wrong, 15 pencil marks each); recorded events {a['events']} "
        f"({marks['c']} right, {marks['w']} wrong, {marks['n']} pencil marks: the room's log keeps none); "
        f"record_room {ms(a['record_cpu']):.1f} ms CPU (once per room, in Celery)"
    )
    noted = a["noted"]
    for label, page, sizes in (
        (f"as recorded, {a['events']} events", a["page"], a["sizes"]),
        (f"with the pencil marks, {noted['events']} events", noted["page"], noted["sizes"]),
    ):
        print(f"  {label}:")
        print(
            f"    server time p50 {page['p50']:.1f} ms, p99 {page['p99']:.1f} ms [target <= 50 ms: "
            f"{'met' if page['p99'] <= 50 else 'MISSED'}]; CPU p50 {page['cpu']:.1f} ms, p99 {page['cpu99']:.1f} ms; "
            f"{page['queries']} queries"
        )
        print(
            f"    answer {page['bytes'] / 1024:.1f} KB ({page['gzip'] / 1024:.1f} KB gzipped) [target <= 60 KB: "
            f"{'met' if page['bytes'] <= 60 * 1024 else 'MISSED'}]"
        )
        print(
            f"    a track's events compressed: max {max(sizes)} B, min {min(sizes)} B "
            f"[cap {a['cap']} B: {'met' if max(sizes) <= a['cap'] else 'MISSED'}]"
        )
    print(f"  pencil marks kept within the cap: {noted['marks']} of {noted['made']}")

    ghost = min(a["tracks"], key=lambda t: t.finish_ms or 10**9)  # the winner's run: the ghost people race
    b = part_b(args, rng, puzzle, ghost)
    print(
        f"B. Ghost race vs plain Solo Run: games.sudoku.solo.act, {len(b['cpu']['plain'])} moves each "
        f"({args.runs} whole runs each, taking turns move by move)"
    )
    for design in ("plain", "ghost"):
        cpu = b["cpu"][design]
        print(
            f"  {design:<5} CPU per move: median {ms(statistics.median(cpu)):.3f} ms, "
            f"mean {ms(statistics.mean(cpu)):.3f} ms, p99 {ms(pct(cpu, 99)):.3f} ms"
        )
    ratio = statistics.median(b["cpu"]["ghost"]) / statistics.median(b["cpu"]["plain"])
    print(f"  ghost / plain, median CPU per move: {ratio:.2f}x (the write path does not read the ghost)")
    for design in ("plain", "ghost"):
        p = b["pages"][design]
        print(
            f"  Solo page, {design:<5}: p50 {p['p50']:.1f} ms, p99 {p['p99']:.1f} ms, CPU p50 {p['cpu']:.1f} ms, "
            f"{p['bytes'] / 1024:.1f} KB ({p['gzip'] / 1024:.1f} KB gzipped), {p['queries']} queries"
        )
    plain, with_ghost = b["pages"]["plain"], b["pages"]["ghost"]
    page_cpu = with_ghost["cpu"] - plain["cpu"]
    page_kb = (with_ghost["bytes"] - plain["bytes"]) / 1024
    lane_cpu, lane_bytes = b["lane"]
    print(
        f"  the ghost's part of the page: {page_cpu:+.2f} ms CPU p50 and {page_kb:+.1f} KB between the two pages; "
        f"the ghost_lanes tag alone {ms(lane_cpu):.2f} ms CPU, {lane_bytes / 1024:.1f} KB, once per page load"
    )

    c = part_c(ghost)
    print(
        f"C. Server-played ghost (prototype): the winner's track, {c['events']} events, {c['line']} of them change "
        f"its lane (pushed); per push the lane's row rendered + a frame json-encoded, sends not counted"
    )
    for label in ("f-string row", "Django template row"):
        race_cpu = ms(c[label])
        print(
            f"  {label:<20}: {race_cpu / c['line'] * 1000:.1f} us CPU per ghost event, "
            f"{race_cpu:.2f} ms per ghost race ({c['line']} events), {c[label + ' bytes'] / c['line']:.0f} B per frame"
        )
    once = max(ms(lane_cpu), page_cpu)  # the larger of B's two measures: the comparison's least flattering
    print(f"  browser-played (this design): 0 per ghost event; {once:.2f} ms once per page load (B)")
    low, high = ms(c["f-string row"]), ms(c["Django template row"])
    # A server-played ghost's page would still draw the lane (without the cell list): its pushes
    # are all the more it costs, so they are the difference between the two designs.
    per_event = f"{low / c['line'] * 1000:.0f}-{high / c['line'] * 1000:.0f} us"
    print(
        f"Conclusion: the browser-played ghost is cheaper by {low:.2f}-{high:.2f} ms of server CPU per ghost race "
        f"({c['line']} events x {per_event}; 0 when the browser plays it; socket sends and timers not counted), "
        f"{low / once:.1f}-{high / once:.1f}x the {once:.2f} ms its page load adds once; "
        f"a move costs {ratio:.2f}x a plain Solo Run's."
    )
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"bench finished in {time.perf_counter() - started:.0f} s; load average {load}")


if __name__ == "__main__":
    main()

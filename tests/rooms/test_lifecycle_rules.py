"""The room timing rules (rooms/lifecycle.py): when a room is due, for one room in memory
and as the periodic sweep's query, which must agree; the module stays pure."""

import ast
import datetime as dt
import itertools
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rooms import lifecycle as L

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
TICK = dt.timedelta(seconds=1)
DOMINO_LIMIT = dt.timedelta(minutes=10)


def room(state, **moments):
    fields = dict(scheduled_for=None, last_activity=T0, finished_at=None, starts_at=None, ends_at=None)
    return SimpleNamespace(state=state, **{**fields, **moments})


@pytest.mark.parametrize(
    "r, limit, at, due",
    [
        # An unstarted scheduled room expires 30 minutes after its time (and never idles out before).
        (room("lobby", scheduled_for=T0), None, T0 + L.SCHEDULED_GRACE, None),
        (room("lobby", scheduled_for=T0), None, T0 + L.SCHEDULED_GRACE + TICK, "expired:The host did not start"),
        (room("lobby", scheduled_for=T0 + dt.timedelta(hours=3)), None, T0 + L.LOBBY_IDLE + TICK, None),
        # An unscheduled lobby idle for 30 minutes.
        (room("lobby"), None, T0 + L.LOBBY_IDLE, None),
        (room("lobby"), None, T0 + L.LOBBY_IDLE + TICK, "expired:The lobby was idle"),
        # Results are kept for 24 hours.
        (room("finished", finished_at=T0), None, T0 + L.RESULTS_KEPT, None),
        (room("finished", finished_at=T0), None, T0 + L.RESULTS_KEPT + TICK, "expired:Final results"),
        # The safety limit ends any running game.
        (room("playing", starts_at=T0), None, T0 + L.SAFETY_LIMIT, None),
        (room("playing", starts_at=T0), None, T0 + L.SAFETY_LIMIT + TICK, "finish"),
        # A game type's time limit ends it from that moment on.
        (room("playing", starts_at=T0), DOMINO_LIMIT, T0 + DOMINO_LIMIT - TICK, None),
        (room("playing", starts_at=T0), DOMINO_LIMIT, T0 + DOMINO_LIMIT, "finish"),
        (room("countdown", starts_at=T0), DOMINO_LIMIT, T0 + DOMINO_LIMIT, "finish"),
        # Play starts when the countdown ends.
        (room("countdown", starts_at=T0), None, T0 - TICK, None),
        (room("countdown", starts_at=T0), None, T0, "play"),
        # An arena's room ends at its end (docs/rules.md 12: 60 s after its first finish).
        (room("playing", starts_at=T0, ends_at=T0 + L.LOBBY_IDLE), None, T0 + L.LOBBY_IDLE - TICK, None),
        (room("playing", starts_at=T0, ends_at=T0 + L.LOBBY_IDLE), None, T0 + L.LOBBY_IDLE, "finish"),
        # Nothing else moves by itself.
        (room("expired", starts_at=T0, finished_at=T0), DOMINO_LIMIT, T0 + dt.timedelta(days=9), None),
    ],
)
def test_overdue_state_at_each_rules_edge(r, limit, at, due):
    state = L.overdue_state(r, at, limit)
    assert state is None if due is None else (state or "").startswith(due)


def test_moments_are_when_the_rules_fire():
    countdown = room("countdown", starts_at=T0)
    assert sorted(L.moments(countdown, DOMINO_LIMIT)) == [T0, T0 + DOMINO_LIMIT, T0 + L.SAFETY_LIMIT]
    assert L.moments(room("playing", starts_at=T0), None) == [T0 + L.SAFETY_LIMIT]
    assert L.moments(room("lobby", scheduled_for=T0), None) == [T0 + L.SCHEDULED_GRACE]


def test_the_sweeps_query_finds_exactly_the_overdue_rooms(db):
    """Every state, moment and game around each rule's edge: due_rooms(now) holds a room
    exactly when overdue_state says it is due."""
    from rooms.gametypes import GAME_TYPES
    from rooms.models import Room
    from rooms.tasks import due_rooms

    now = T0
    offsets = [L.SCHEDULED_GRACE, L.LOBBY_IDLE, L.RESULTS_KEPT, L.SAFETY_LIMIT, DOMINO_LIMIT, dt.timedelta(0)]
    moments = sorted({now - offset + tick for offset in offsets for tick in (-TICK, dt.timedelta(0), TICK)})
    # Only lobbies have a schedule, and only running rooms depend on their game type.
    cases = [
        *itertools.product(["showdown"], ["lobby"], [None, *moments], moments),
        *itertools.product(GAME_TYPES, ["countdown", "playing"], [None], moments),
        *itertools.product(["showdown"], ["finished", "expired"], [None], moments),
    ]
    Room.objects.bulk_create(
        [
            Room(
                code=f"R{n:05d}",
                game=game,
                state=state,
                scheduled_for=scheduled,
                starts_at=moment if state != "lobby" else None,
                finished_at=moment if state == "finished" else None,
            )
            for n, (game, state, scheduled, moment) in enumerate(cases)
        ]
    )
    for n, (*_, moment) in enumerate(cases):  # auto_now set last_activity to the real clock
        Room.objects.filter(code=f"R{n:05d}").update(last_activity=moment)
    expected = {r.code for r in Room.objects.all() if L.overdue_state(r, now, GAME_TYPES[r.game].time_limit)}
    assert expected and set(due_rooms(now)) == expected


def test_lifecycle_imports_no_django():
    code = "import sys, rooms.lifecycle; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parents[2]).returncode == 0


def rooms_imports(module: str) -> set[str]:
    """The rooms modules a rooms module imports, at its top or inside functions."""
    tree = ast.parse((Path(__file__).parents[2] / "rooms" / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rooms."):
            found.add(node.module.removeprefix("rooms."))
    return found


def test_presentation_does_not_import_the_write_path():
    """services -> push -> presenters -> services was an import cycle: what renders a room
    reads the timing rules from lifecycle and rankings from the game types instead. (The
    write path is rules, store and api now, with the live hub and owner.)"""
    for module in ("presenters", "push", "fragments"):
        assert not {"services", "rules", "handlers", "store", "api", "hub", "owner"} & rooms_imports(module), module

"""An arena's table (docs/rules.md 12): points, then fewer rooms, then less solving time; pushed
to every open arena page's own socket when it changes (friends/consumers.py renders it)."""

import asyncio
import copy
from dataclasses import dataclass, replace

from django.db.models import F
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games.common.threads import off_sync_thread

from . import fragments, pages
from .models import Arena, Entry

TOP = 20


ORDER = [F("points").desc(), F("rooms").asc(), F("solving_seconds").asc(), F("joined_at").asc()]
FIELDS = ("pk", "account_id", "state", "points", "rooms", "solving_seconds", "firsts", "recent")  # Standing's


@dataclass(frozen=True, slots=True)
class Standing:
    """What the table shows of an entry, as plain values: the ranking loads every entry of the
    arena at each change (2,000 in bench/arena.py), a fifth of the model instances' cost."""

    pk: int
    account_id: int
    state: str
    points: int
    rooms: int
    solving_seconds: float
    firsts: int
    recent: tuple  # ((points, fire, berserk), ...), oldest first


@dataclass
class Row:
    place: int
    entry: Standing
    name: str
    mine: bool


@dataclass
class Ranking:
    """An arena's table at one version: its rows in order and each account's index in them."""

    arena: Arena  # a copy: the caller's instance may be refreshed to a later version
    rows: list[Row]
    index: dict[int, int]

    @property
    def version(self) -> int:
        return self.arena.table_version


# arena code -> its latest ranking: each process ranks an arena once per change, not once per
# open page (a push makes every page of the arena show the new table at once).
_RANKED: dict[str, Ranking] = {}


def ranking(arena: Arena) -> Ranking:
    cached = _RANKED.get(arena.code)
    if cached is not None and cached.arena.pk == arena.pk and cached.version >= arena.table_version:
        return cached  # (the pk too: a test database reuses codes' rows)
    rows = Entry.objects.filter(arena=arena).order_by(*ORDER).values_list(*FIELDS, "player__display_name")
    placed, place, previous = [], 0, None
    for i, (pk, account_id, state, points, rooms, seconds, firsts, recent, name) in enumerate(rows, start=1):
        e = Standing(pk, account_id, state, points, rooms, seconds, firsts, tuple(tuple(room) for room in recent))
        key = (e.points, e.rooms, round(e.solving_seconds, 1))
        if key != previous:
            place, previous = i, key
        placed.append(Row(place, e, name, False))
    if len(_RANKED) > 50:  # old arenas: drop them all, the running ones are ranked again
        _RANKED.clear()
        _SHELLS.clear()
    result = Ranking(copy.copy(arena), placed, {r.entry.account_id: i for i, r in enumerate(placed)})
    _RANKED[arena.code] = result
    return result


def ranked(arena: Arena) -> list[Row]:
    """Every entry in table order with its place; equal points, rooms and time share a place."""
    return ranking(arena).rows


def _shown(rows: list[Row], viewer_account: int | None) -> list[Row]:
    return [replace(r, mine=r.entry.account_id == viewer_account) for r in rows]


def _around(ranked: Ranking, viewer_account: int | None, top: int) -> list[Row]:
    mine = ranked.index.get(viewer_account) if viewer_account is not None else None
    if mine is None or mine < top:
        return []
    return _shown(ranked.rows[max(top, mine - 1) : mine + 2], viewer_account)


def _split(ranked: Ranking, viewer_account: int | None, top: int) -> tuple[list[Row], list[Row]]:
    return _shown(ranked.rows[:top], viewer_account), _around(ranked, viewer_account, top)


def table(arena: Arena, viewer_account: int | None, top: int = TOP) -> tuple[list[Row], list[Row]]:
    """The top rows and, when the viewer is further down, their place with a neighbour each side."""
    return _split(ranking(arena), viewer_account, top)


# --- the push: one ranking and one top per version a process, each page adds its own rows ----------

# (code, version, language, the viewer's index when in the top) -> the table before and after
# the viewer's own rows
_SHELLS: dict[tuple, tuple[str, str]] = {}
_SLOT = mark_safe("<!-- the viewer's rows -->")
# (event loop, code) -> the ranking being loaded: the pages of one arena wait for one query
_LOADING: dict[tuple[int, str], asyncio.Task] = {}


def _load(code: str) -> Ranking | None:
    arena = Arena.objects.filter(code=code).first()
    return ranking(arena) if arena is not None else None


async def _latest(code: str, version: int) -> Ranking | None:
    """The arena's ranking at `version` or later, loaded once for every page waiting for it."""
    cached = _RANKED.get(code)
    if cached is not None and cached.version >= version:
        return cached
    key = (id(asyncio.get_running_loop()), code)
    task = _LOADING.get(key)
    if task is None:
        # Not on the sync thread every request and socket queues on: a busy process would hold
        # every page of the arena behind its queue.
        task = asyncio.ensure_future(off_sync_thread(_load)(code))
        _LOADING[key] = task
        task.add_done_callback(lambda _: _LOADING.pop(key, None))
    return await asyncio.shield(task)  # one page's socket closing does not cancel the others' load


def _render(ranked: Ranking, language: str, viewer_account: int | None) -> str:
    """The table as one viewer's page shows it: the section around the top rendered once per
    version, language and viewer's place in the top; the viewer's own rows below it added here
    (arenas/fragments.py), the only part that differs from page to page."""
    mine = ranked.index.get(viewer_account) if viewer_account is not None else None
    key = (ranked.arena.code, ranked.version, language, mine if mine is not None and mine < TOP else None)
    with translation.override(language):
        shell = _SHELLS.get(key)
        if shell is None:
            top = _shown(ranked.rows[:TOP], viewer_account)
            context = {"arena": ranked.arena, "top": top, "around_html": _SLOT, "oob": True}
            head, _, tail = render_to_string("arenas/arena.html#table", context).partition(_SLOT)
            if len(_SHELLS) > 1000:  # earlier versions' (a change makes at most TOP + 1 a language)
                _SHELLS.clear()
            shell = _SHELLS[key] = (head, tail)
        return shell[0] + fragments.around(_around(ranked, viewer_account, TOP)) + shell[1]


async def frame(code: str, version: int, language: str, viewer_account: int | None) -> tuple[str, int]:
    """The table as pushed to one viewer's page (out of band) and the version it shows, at
    `version` or later; ("", version) when the arena is gone. No database work but one
    ranking's load per version a process; rendered in the loop: it reads only the ranking."""
    ranked = await _latest(code, version)
    if ranked is None:
        return "", version
    return _render(ranked, language, viewer_account), ranked.version


def push_table(arena: Arena) -> None:
    """Tell every open arena page (arenas/pages.py: one message per process) the table changed;
    each renders it for its viewer. Sent at most once per tick: a second at the least."""
    # The version committed now (this instance's may be older): a page showing it skips it.
    version = Arena.objects.filter(pk=arena.pk).values_list("table_version", flat=True).first() or 0
    pages.send(arena.code, {"type": "arena.table", "version": version})

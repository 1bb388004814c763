"""A recorded run, as a replay and a ghost play it (docs/rules.md section 10). Pure Python,
no Django: the recorder (replays/record.py) hands in the moves the server logged, with
their server times, and gets back the compact event list a replay page plays.

The moves are played again through the race engine on the puzzle's solution, so the
events say what the board showed (a right entry, a wrong one flashed and taken off, a
hint's cell and digit, a cell's pencil marks) and never trust anything a client said.

An event is ``[ms, cell, value, mark]``:

- ``c`` a right entry, ``w`` a wrong one (taken off at once), ``h`` a hint: value = digit
- ``n`` the cell's pencil marks changed: value = their bitmask (bit d = digit d)
- ``e`` an entry kept unjudged (delayed feedback), ``x`` an entry erased (value 0)
- ``s`` a submission (cell -1): value = how many cells were wrong (0: all right)

``ms`` is play time since the start: a Solo Run's pauses beyond the grace the clock
counts are taken out, so the replay runs at the tempo the clock ran.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from games.engines import race
from games.engines.errors import Refusal
from games.sudoku import play

MAX_BYTES = 5 * 1024  # a track's events compressed (issue 39): notes go first past it
PAUSE_GRACE_MS = 10_000  # a Solo Run's pause counts this much (games/models.SoloRun.PAUSE_GRACE)
BOXES = [[((b // 3) * 3 + i // 3) * 9 + (b % 3) * 3 + i % 3 for i in range(9)] for b in range(9)]


@dataclass
class Recorded:
    events: list[list] = field(default_factory=list)
    splits: list[int | None] = field(default_factory=lambda: [None] * 9)  # ms each 3x3 box was right
    mistakes: int = 0
    hints: int = 0
    finished: bool = False


def _move(kind: str, cell, detail) -> play.Move | play.DelayedMove | None:
    """A logged move (the Solo Run's log kinds, the room log's action names) as the engine's."""
    if kind in ("e", "enter"):
        return play.Enter(cell, detail)
    if kind in ("n", "note"):
        return play.Note(cell, detail)
    if kind in ("N", "notes", "setnotes"):
        return play.SetNotes(cell, detail)
    if kind in ("h", "hint"):
        return play.Hint(cell)
    if kind == "erase":
        return play.Erase(cell)
    if kind == "submit":
        return play.Submit()
    return None  # pause, resume, anything not a board move


def record(givens: str, solution: str, rules: race.Rules, moves: Iterable[tuple[int, str, object, object]]) -> Recorded:
    """`moves` are (ms since the start, kind, cell, digit or marks), in order. A Solo Run's
    pause ("p") and resume ("r") move the clock as the run's did: time away beyond the
    grace is not play time (only once an entry is on the board, as games/sudoku/solo.py has it)."""
    board = race.Board.new(tuple(int(ch) for ch in givens))
    answer = tuple(int(ch) for ch in solution)
    out = Recorded()
    hidden = 0  # ms of pauses the clock did not count
    paused_at: int | None = None
    for ms, kind, cell, detail in moves:
        if kind == "p":
            paused_at = ms if board.progress or board.mistakes else None
            continue
        if kind == "r":
            if paused_at is not None:
                hidden += max(0, ms - paused_at - PAUSE_GRACE_MS)
            paused_at = None
            continue
        move = _move(kind, cell, detail)
        if move is None:
            continue
        try:
            if isinstance(move, (play.Erase, play.Submit)):
                board, outcome = play.apply_delayed(board, rules, answer, move)
            else:
                board, outcome = play.apply(board, rules, answer, move)
        except Refusal:
            continue  # the server refused it then too: it never changed the board
        at = max(0, int(ms) - hidden)
        out.events.append(_event(at, board, outcome, rules))
        if not rules.delayed:
            _split(out, board, answer, at)
    out.mistakes, out.hints = board.mistakes, board.hints
    out.finished = board.status is race.Status.FINISHED
    return out


def _event(at: int, board: race.Board, outcome, rules: race.Rules) -> list:
    if isinstance(outcome, race.Submission):
        return [at, -1, outcome.wrong, "s"]
    cell = outcome.cell
    if outcome.kind == "note":
        return [at, cell, board.notes[cell], "n"]
    if rules.delayed and outcome.kind != "hint":
        digit = board.cells[cell]
        return [at, cell, digit, "e" if digit else "x"]
    return [at, cell, outcome.digit, {"correct": "c", "wrong": "w", "hint": "h"}[outcome.kind]]


def _split(out: Recorded, board: race.Board, answer: tuple[int, ...], at: int) -> None:
    for box, cells in enumerate(BOXES):
        if out.splits[box] is None and all(board.cells[i] == answer[i] for i in cells):
            out.splits[box] = at


def _zipped(events: list[list]) -> bytes:
    return zlib.compress(json.dumps(events, separators=(",", ":")).encode(), 9)


def pack(events: list[list]) -> bytes:
    """The events compressed, within MAX_BYTES: pencil marks go first, then wrong entries,
    the latest kept (right entries, hints, erases and submissions are what a replay and a
    ghost cannot do without, and they fit: 81 cells' worth is far under the cap)."""
    data = _zipped(events)
    if len(data) <= MAX_BYTES:
        return data
    events = [e for e in events if e[3] != "n"]
    data = _zipped(events)
    wrong = [i for i, e in enumerate(events) if e[3] == "w"]
    dropped = 0
    while len(data) > MAX_BYTES and dropped < len(wrong):
        dropped = min(len(wrong), max(1, dropped * 2))  # drop the oldest 1, 2, 4, ... wrong entries
        gone = set(wrong[:dropped])
        data = _zipped([e for i, e in enumerate(events) if i not in gone])
    return data


def unpack(data: bytes | memoryview) -> list[list]:
    return json.loads(zlib.decompress(bytes(data))) if data else []


def ghost_line(events: list[list]) -> list[list[int]]:
    """What a ghost shows a rival on the same puzzle: [ms, cell, filled (1) or emptied (0)],
    never a digit (the rival is still solving it). Wrong entries and pencil marks leave
    no trace on a silhouette, as in a race."""
    line = []
    for ms, cell, _value, mark in events:
        if mark in ("c", "h", "e"):
            line.append([ms, cell, 1])
        elif mark == "x":
            line.append([ms, cell, 0])
    return line

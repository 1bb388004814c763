"""What a replay page and a ghost lane show, from tracks alone (never the move log)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.common.times import format_seconds

from . import tracks
from .models import Track

COLOURS = 5  # static/css/site.css .racer-c0 to .racer-c4, as a room's standings


@dataclass
class Lane:
    track: Track
    colour: int
    events: list
    marks: list[tuple[float, str, str]]  # (percent along the timeline, kind, label)
    splits: list[tuple[int, str]]  # (box 1-9, "1:12")

    @property
    def finish_text(self) -> str:
        return format_seconds(self.track.finish_ms / 1000) if self.track.finish_ms is not None else ""

    @property
    def data(self) -> dict:
        return {"name": self.track.name, "events": self.events, "finish": self.track.finish_ms}


def lanes(found: list[Track]) -> tuple[list[Lane], int]:
    """Each track as a replay shows it, in the room's places, and the timeline's length in ms."""
    length = max([t.length_ms for t in found] + [1000])
    out = []
    for n, track in enumerate(found):
        events = track.event_list
        marks = [
            (round(100 * ms / length, 2), mark, _mark_label(track.name, ms, mark))
            for ms, _cell, _value, mark in events
            if mark in ("w", "h", "s")
        ]
        splits = [(box + 1, format_seconds(ms / 1000)) for box, ms in enumerate(track.splits) if ms is not None]
        out.append(Lane(track, n % COLOURS, events, marks, splits))
    return out, length


def board_html(givens: str) -> SafeString:
    """A replay board's start position, built once per page with format strings and shown in
    every lane (a template loop over 81 cells per lane was most of a 5-player page's time)."""
    rows = []
    for r in range(9):
        cells = []
        for c in range(9):
            ch = givens[r * 9 + c]
            css = "cell given" if ch != "0" else "cell"
            css += " box-right" if c in (2, 5) else ""
            css += " box-bottom" if r in (2, 5) else ""
            digit = ch if ch != "0" else ""
            cells.append(f'<div class="{css}" data-cell="{r * 9 + c}"><span class="value">{digit}</span></div>')
        rows.append(f'<div class="board-row">{"".join(cells)}</div>')
    return mark_safe(f'<div class="board replay-board locked" aria-hidden="true">{"".join(rows)}</div>')


def _mark_label(name: str, ms: int, mark: str) -> str:
    when = format_seconds(ms / 1000)
    if mark == "w":
        return gettext("%(name)s: a mistake at %(time)s") % {"name": name, "time": when}
    if mark == "h":
        return gettext("%(name)s: a hint at %(time)s") % {"name": name, "time": when}
    return gettext("%(name)s: a submission at %(time)s") % {"name": name, "time": when}


def ghost_data(track: Track) -> dict:
    """What the browser plays a ghost from, sent once with the page: the cells it filled and
    when, never a digit (the player is solving the same puzzle)."""
    return {
        "name": track.name,
        "line": tracks.ghost_line(track.event_list),
        "finish": track.finish_ms,
        "to_fill": track.puzzle.givens.count("0"),
        "givens": [i for i, ch in enumerate(track.puzzle.givens) if ch != "0"],
    }

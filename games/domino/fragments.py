"""Sudoku Domino markup built with format strings: board cells, entry markers, the status
items (clock, score, lives), the hand, the message, the version and the unreachable note,
each element with a stable id.

The game page renders these (templates/domino/game.html, whose partials the Domino duel
in a room includes too), and a move's answer sends only the ones that changed, as htmx
out-of-band swaps (games/domino/presenters.move_answer). Every value goes through `_e`.
"""

from __future__ import annotations

from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from games.common.i18n import say
from games.common.responses import escaped as _e
from games.common.responses import fragment as _done
from games.common.times import format_seconds


def cell_id(row: int, col: int) -> str:
    return f"dm-cell-{row}-{col}"


def marker_id(edge: str | None, line: int | None) -> str:
    return f"dm-mark-{edge}-{line}"


# --- the table -------------------------------------------------------------------------------


def marker(slot: dict, edge: str | None = None, line: int | None = None, *, oob: bool = False) -> SafeString:
    """One of the nine slots of an edge: a marker button where a push is valid. `edge` and
    `line` name a slot that does not (a locked duel board's slots are bare)."""
    ident = marker_id(slot.get("edge", edge), slot.get("line", line))
    if not slot["valid"]:
        return _done(f'<span id="{ident}" class="marker-slot" aria-hidden="true"></span>', oob)
    return _done(
        f'<button id="{ident}" type="submit" class="marker" name="push" value="{_e(slot["value"])}" '
        f'aria-label="{_e(slot["label"])}" data-marker data-edge="{_e(slot["edge"])}" data-line="{_e(slot["line"])}" '
        f'data-land-row="{_e(slot["land_row"])}" data-land-col="{_e(slot["land_col"])}">'
        f'<span aria-hidden="true">{_e(slot["arrow"])}</span></button>',
        oob,
    )


def _slide(slide: dict | None) -> str:
    if not slide:
        return ""
    return f' style="--dx: {_e(slide["dx"])}; --dy: {_e(slide["dy"])}; --dist: {_e(slide["distance"])}"'


def cell(c: dict, joker_mode: str | None = None, *, oob: bool = False) -> SafeString:
    """One cell of the ARIA grid, from a games/domino/presenters.board_rows dict."""
    r, col = c["row"], c["col"]
    css = "d-cell"
    if col in (3, 6):
        css += " box-right"
    if r in (3, 6):
        css += " box-bottom"
    for key in ("unreachable", "scored", "clash", "pickable"):
        if c[key]:
            css += " " + key
    inner = ""
    slide = " slide" if c["slide"] else ""
    if c["value"]:
        kind = " given" if c["given"] else " placed"
        fresh = " fresh" if c["fresh"] else ""
        inner = (
            f'<span class="stone{kind}{fresh}{slide}" aria-hidden="true"{_slide(c["slide"])}>{_e(c["value"])}</span>'
        )
    elif c["joker"]:
        fresh = " fresh dropped" if c["fresh"] else ""
        inner = f'<span class="stone joker {_e(c["joker"])}{fresh}" aria-hidden="true">★</span>'
    elif c["pickable"]:
        inner = (
            f'<button type="submit" class="pick" name="cell" value="{r}-{col}" aria-label="Place the '
            f'{_e(joker_mode)} joker on row {r}, column {col}" data-pick></button>'
        )
    if c["wrong_digit"]:
        inner += (
            f'<span class="stone placed wrong-stone{slide}" aria-hidden="true"{_slide(c["slide"])}>'
            f'{_e(c["wrong_digit"])}</span>'
        )
    return _done(
        f'<div id="{cell_id(r, col)}" role="gridcell" class="{css}" aria-label="{_e(c["label"])}" '
        f'data-row="{r}" data-col="{col}">{inner}</div>',
        oob,
    )


# --- status, hand, message -------------------------------------------------------------------


def clock(seconds_left: float, finished: bool, *, oob: bool = False, waiting: bool = False) -> SafeString:
    """Time left on the server's clock; the page's script counts down between answers. A
    first game's clock `waiting` for the walkthrough stands still and says so."""
    low = " is-low" if seconds_left < 60 and not finished else ""
    label = _e(gettext("Time left"))  # (texts are translated outside f-strings: xgettext skips them)
    note = _e(gettext("Starts after the walkthrough or your first move"))
    wait = f'<span class="hud-note" data-clock-waiting>{note}</span>' if waiting else ""
    return _done(
        f'<div id="dm-clock" class="hud-item hud-clock{low}"><span class="hud-label" id="clock-label">{label}</span>'
        f'<span class="clock" aria-labelledby="clock-label" data-countdown data-seconds-left="{seconds_left:.1f}" '
        f'data-running="{0 if finished or waiting else 1}">{format_seconds(seconds_left)}</span>{wait}</div>',
        oob,
    )


def score(value: int, points: int = 0, *, oob: bool = False) -> SafeString:
    gain = f'<span class="gain" aria-hidden="true">+{_e(points)}</span>' if points else ""
    label = _e(gettext("Score"))
    return _done(
        f'<div id="dm-score" class="hud-item hud-score"><span class="hud-label">{label}</span>'
        f'<span class="score" data-score>{_e(value)}</span>{gain}</div>',
        oob,
    )


def lives(left: int, total: int, just_lost: bool = False, *, oob: bool = False) -> SafeString:
    hearts = "".join(
        f'<span class="heart{"" if i < left else " lost"}{" just-lost" if just_lost and i == left else ""}">'
        f'{"♥" if i < left else "♡"}</span>'
        for i in range(total)
    )
    label = _e(gettext("Lives"))
    said = _e(gettext("%(left)s of %(total)s lives left") % {"left": left, "total": total})
    return _done(
        f'<div id="dm-lives" class="hud-item hud-lives"><span class="hud-label">{label}</span>'
        f'<span class="hearts" role="img" aria-label="{said}" '
        f'data-lives="{_e(left)}">{hearts}</span></div>',
        oob,
    )


def hand(current: int | None, preview: int | None, stones_left: int, *, oob: bool = False) -> SafeString:
    """The stone to push and the next one."""
    words = {
        key: _e(text)
        for key, text in (
            ("next_stone", gettext("Next stone: %(digit)s") % {"digit": preview}),
            ("no_next", gettext("No next stone")),
            ("stones", gettext("Stones")),
            ("yours", gettext("Your stone")),
            ("next", gettext("Next")),
            ("current", gettext("Current stone: %(digit)s") % {"digit": current}),
            ("to_place", ngettext("stone to place", "stones to place", stones_left)),
        )
    }
    nxt = (
        f'<span class="stone small" role="img" aria-label="{words["next_stone"]}" data-next-stone>{_e(preview)}</span>'
        if preview
        else f'<span class="stone small empty" role="img" aria-label="{words["no_next"]}">–</span>'
    )
    return _done(
        f'<div id="dm-hand" class="hand" role="group" aria-label="{words["stones"]}"><div class="hand-slot">'
        f'<span class="hud-label" id="current-label">{words["yours"]}</span>'
        f'<span class="stone big current" role="img" aria-label="{words["current"]}" data-current-stone>'
        f'{_e(current)}</span></div>'
        f'<div class="hand-slot next"><span class="hud-label">{words["next"]}</span>{nxt}</div>'
        f'<p class="stones-left"><strong>{_e(stones_left)}</strong> {words["to_place"]}</p></div>',
        oob,
    )


def message(text: str, kind: str | None = None, *, oob: bool = False) -> SafeString:
    """The message line: kind "error", "good" or None."""
    css = {"error": " is-error", "good": " is-good"}.get(kind or "", "")
    return _done(f'<p id="dm-message" class="domino-message{css}" data-message>{_e(say(text))}</p>', oob)


def live(text: str, *, oob: bool = False) -> SafeString:
    """The polite live region outside the game: each move's message for screen readers."""
    return _done(f'<div id="domino-live" class="visually-hidden" aria-live="polite">{_e(say(text))}</div>', oob)


def version_input(version: int, *, oob: bool = False) -> SafeString:
    return _done(f'<input id="dm-version" type="hidden" name="version" value="{_e(version)}">', oob)


def legend(unreachable: int, finished: bool, *, oob: bool = False) -> SafeString:
    """How many cells no stone can reach any more (hidden while there are none)."""
    if not unreachable or finished:
        return _done('<p id="dm-legend" class="legend" hidden></p>', oob)
    said = _e(
        ngettext(
            "%(n)s unreachable cell: only a joker can fill it.",
            "%(n)s unreachable cells: only a joker can fill them.",
            unreachable,
        )
        % {"n": unreachable}
    )
    return _done(
        f'<p id="dm-legend" class="legend"><span class="legend-swatch unreachable" aria-hidden="true"></span> '
        f'{said}</p>',
        oob,
    )

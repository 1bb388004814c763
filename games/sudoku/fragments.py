"""Sudoku board fragments (the htmx answer helpers `oob` and `answer` they use are in
games/common/responses.py, shared by every game): one cell, the counters, the digit pad,
the message line.

The same functions build the page (templates/games/board.html renders the cells and pad
buttons these return) and a move's answer (only the fragments that changed, swapped by id
as htmx out-of-band swaps), for Solo Run and for the Showdown room alike, so the page and
an answer cannot drift apart.

Built with format strings and `html.escape`, not the template engine: a move's answer is
a handful of these, and rendering them through templates was most of a move's cost. Every
value that reaches the markup goes through `_e` (numbers included, for uniformity); the
results are marked safe for templates.

Every element has a stable id. `oob=True` (or `oob(fragment)`) adds
`hx-swap-oob="true"`: an htmx HTTP answer then swaps the element by id wherever it is,
and the htmx ws extension swaps every top-level element of a socket message by id anyway.
"""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.common import responses
from games.common.i18n import say
from games.common.responses import escaped as _e
from games.common.responses import fragment as _done
from games.engines.race import Board, Outcome

oob = responses.oob  # `fragments.oob(fragment)`, beside the fragments' own `oob=True`


def cell_id(index: int) -> str:
    return f"cell-{index}"


# --- the board --------------------------------------------------------------------------


def sudoku_cell(
    board: Board, index: int, *, selected: bool = False, flash: Outcome | None = None, oob: bool = False
) -> SafeString:
    """One gridcell of the ARIA grid. `flash` is the move that just happened: its cell
    gets `fresh` (correct entry or hint) or `wrong` plus `data-wrong` (the refused digit,
    which the page's script shows briefly before the empty cell settles)."""
    r, c = divmod(index, 9)
    value = board.cells[index]
    css = "cell"
    if board.givens[index]:
        css += " given"
    elif index in board.hinted:
        css += " hinted"
    elif value:
        css += " entered"
    if selected:
        css += " selected"
    wrong = ""
    if flash is not None and flash.cell == index:
        if flash.kind == "wrong":
            css += " wrong"
            wrong = f' data-wrong="{_e(flash.digit)}"'
        elif flash.kind in ("correct", "hint"):
            css += " fresh"
    if c in (2, 5):
        css += " box-right"
    if r in (2, 5):
        css += " box-bottom"
    # What a screen reader says (docs: How to Play, screen-reader mode): "Row 3, column 5, empty",
    # "…, 7, given", "…, 7" (the player's own), "…, 7, hint", "…, notes 1 4 9". A refused digit
    # is never part of the name: the message line and the reader's live region say why.
    label = gettext("Row %(row)s, column %(col)s") % {"row": r + 1, "col": c + 1}
    inner = ""
    if value:
        label += f", {value}"
        if board.givens[index]:
            label += ", " + gettext("given")
        elif index in board.hinted:
            label += ", " + gettext("hint")
        inner = f'<span class="value">{_e(value)}</span>'
    elif board.notes[index]:
        notes = board.notes_at(index)
        label += ", " + gettext("notes %(digits)s") % {"digits": " ".join(map(str, notes))}
        inner = (
            '<span class="notes" aria-hidden="true">'
            + "".join(f"<span>{d if d in notes else ''}</span> " for d in range(1, 10))
            + "</span>"
        )
    else:
        label += ", " + gettext("empty")
    focus = 'tabindex="0" aria-selected="true"' if selected else 'tabindex="-1" aria-selected="false"'
    return _done(
        f'<div id="{cell_id(index)}" role="gridcell" class="{css}" aria-label="{_e(label)}" '
        f'data-cell="{index}" data-row="{r + 1}" data-col="{c + 1}" data-box="{(r // 3) * 3 + c // 3 + 1}" '
        f'data-value="{_e(value or "")}"{wrong} {focus}>{inner}</div>',
        oob,
    )


def sudoku_rows(board: Board, selected: int | None = None, flash: Outcome | None = None) -> list[list[SafeString]]:
    """The 81 cells, row by row, for templates/games/board.html#grid."""
    return [
        [sudoku_cell(board, r * 9 + c, selected=r * 9 + c == selected, flash=flash) for c in range(9)] for r in range(9)
    ]


def changed_cells(before: Board, after: Board) -> list[int]:
    """Cells whose value, hint mark or notes differ: what a move's answer must carry
    (an entry also clears its digit from the notes of its peers)."""
    return [
        i
        for i in range(81)
        if before.cells[i] != after.cells[i]
        or before.notes[i] != after.notes[i]
        or (i in before.hinted) != (i in after.hinted)
    ]


# --- the digit pad and tools --------------------------------------------------------------


def pad_left(board: Board) -> list[tuple[int, int]]:
    """(digit, how many of it are still to place)."""
    # Never below 0: with delayed feedback a digit can stand on the board more than 9 times.
    return [(d, max(0, 9 - board.cells.count(d))) for d in range(1, 10)]


def pad_button(digit: int, left: int, *, oob: bool = False) -> SafeString:
    """One digit of the pad, with its "left to place" count (drawn by CSS from data-left)."""
    done = "" if left else " done"
    return _done(
        f'<button id="digit-{_e(digit)}" type="submit" name="digit" value="{_e(digit)}" '
        f'class="digit{done}" aria-label="{_e(digit)}" data-digit="{_e(digit)}">{_e(digit)}'
        f'<small aria-hidden="true" data-left="{_e(left)}"></small></button>',
        oob,
    )


def pad_buttons(board: Board) -> list[SafeString]:
    return [pad_button(d, left) for d, left in pad_left(board)]


def hint_button(hints_left: int, *, oob: bool = False) -> SafeString:
    disabled = " disabled" if hints_left <= 0 else ""
    label = _e(gettext("Hint"))  # outside the f-string: xgettext does not look inside one
    return _done(
        f'<button id="hint-button" type="submit" class="tool" name="command" value="hint"{disabled}>{label}</button>',
        oob,
    )


def fill_notes_button(shown: bool, *, oob: bool = False) -> SafeString:
    """Solo Run's Fill notes (auto-candidates): there from the moment the run is Assisted,
    hidden while it is Classic (docs/rules.md 2). A room never draws it."""
    label = _e(gettext("Fill notes"))
    hidden = "" if shown else " hidden"
    return _done(
        f'<button id="fill-notes" type="submit" class="tool" name="action" value="fill"{hidden}>{label}</button>', oob
    )


def submit_button(enabled: bool, checked: bool = False, *, oob: bool = False) -> SafeString:
    """Delayed feedback's Submit: enabled once every cell is filled; after a wrong submission
    (`checked`) it says why it waits: the same grid is never checked twice."""
    disabled = "" if enabled else " disabled"
    label = _e(gettext("Submit"))
    why = f'<small class="why">{_e(gettext("change a cell first"))}</small>' if checked and not enabled else ""
    return _done(
        f'<button id="submit-button" type="submit" class="tool" name="action" value="submit"{disabled}>'
        f"{label}{why}</button>",
        oob,
    )


# --- counters ------------------------------------------------------------------------------
# data-* last: load clients read them with `data-score>\s*(\d+)`.


def score_stat(score: int, *, oob: bool = False) -> SafeString:
    return _done(f'<dd id="stat-score" data-score>{_e(score)}</dd>', oob)


def mistakes_stat(mistakes: int, cap: int | None = None, *, oob: bool = False) -> SafeString:
    of = f" / {_e(cap)}" if cap else ""
    return _done(f'<dd id="stat-mistakes" data-mistakes>{_e(mistakes)}{of}</dd>', oob)


def hints_stat(hints: int, limit: int, *, oob: bool = False) -> SafeString:
    return _done(f'<dd id="stat-hints" data-hints>{_e(hints)} / {_e(limit)}</dd>', oob)


def version_input(version: int, *, element_id: str = "game-version", oob: bool = False) -> SafeString:
    """The board version the page shows, sent back with every move: a move from a page that
    missed an answer (a second tab, a lost response) gets the whole board back."""
    return _done(f'<input id="{_e(element_id)}" type="hidden" name="version" value="{_e(version)}">', oob)


# --- the message line ----------------------------------------------------------------------


def message_kind(outcome: Outcome | None = None, error: str | None = None) -> str | None:
    """ "error" for a refusal or a wrong entry, "good" for a correct entry or a finish."""
    if error or (outcome and outcome.kind == "wrong"):
        return "error"
    if outcome and (outcome.kind == "correct" or outcome.finished):
        return "good"
    return None


def message(
    text: str | None = None, *, kind: str | None = None, element_id: str = "game-message", oob: bool = False
) -> SafeString:
    """The status line (`game-message` on Solo Run, `room-message` in a room). `kind` is
    "error", "good", "warn" or None; an empty line keeps its height with a no-break space."""
    css = {"error": " is-error", "good": " is-good", "warn": " is-warn"}.get(kind or "", "")
    body = _e(say(text)) if text else "&nbsp;"
    return _done(f'<p id="{_e(element_id)}" class="message{css}" role="status">{body}</p>', oob)


def outcome_message(
    outcome: Outcome | None = None,
    error: str | None = None,
    *,
    element_id: str = "game-message",
    oob: bool = False,
    notice=None,
) -> SafeString:
    """The message line for a Sudoku move's outcome or a refusal; `notice`, a rule that just
    applied (Solo Run's pause over 10 s), is said as a warning."""
    if notice and not error:
        return message(notice, kind="warn", element_id=element_id, oob=oob)
    text = error or (outcome.message if outcome else None)
    return message(text, kind=message_kind(outcome, error), element_id=element_id, oob=oob)


def run_badge(assisted: bool, *, oob: bool = False) -> SafeString:
    """Solo Run's Classic / Assisted badge (the first hint makes a run Assisted for good)."""
    kind, text = ("assisted", gettext("Assisted")) if assisted else ("classic", gettext("Classic"))
    return _done(f'<span id="run-kind" class="badge {kind}">{text}</span>', oob)


# --- a move's answer -------------------------------------------------------------------------


def submission_answer(
    before: Board,
    after: Board,
    outcome,
    *,
    submissions: int | None = None,
    message_id: str = "game-message",
    version: int | None = None,
    version_id: str = "game-version",
) -> SafeString:
    """A wrong delayed submission's answer: no cell changes (it never says which are
    wrong), only the count of wrong submissions (of the room's `submissions`), the
    message and the version."""
    parts = [submit_button(after.submittable, after.checked, oob=True)]  # off until a cell changes
    if after.mistakes != before.mistakes:
        parts.append(mistakes_stat(after.mistakes, submissions, oob=True))
    parts.append(outcome_message(outcome, element_id=message_id, oob=True))
    if version is not None:
        parts.append(version_input(version, element_id=version_id, oob=True))
    return mark_safe("".join(parts))


def move_answer(
    before: Board,
    after: Board,
    outcome: Outcome,
    *,
    selected: int | None = None,
    hint_limit: int,
    mistake_cap: int | None = None,
    message_id: str = "game-message",
    version: int | None = None,
    version_id: str = "game-version",
    delayed: bool = False,
) -> SafeString:
    """Only what one Sudoku move changed, as out-of-band swaps: the changed cells (the
    moved cell, and peers whose notes lost the placed digit), the counters and pad digits
    that changed, the hint button when a hint was used, the Submit button when a delayed
    grid became submittable or stopped being so, the message and the version."""
    cells = changed_cells(before, after)
    if outcome.cell not in cells:
        cells.append(outcome.cell)  # a wrong entry changes no cell, but its cell flashes
        cells.sort()
    parts = [sudoku_cell(after, i, selected=i == selected, flash=outcome, oob=True) for i in cells]
    if after.score != before.score:
        parts.append(score_stat(after.score, oob=True))
    if after.mistakes != before.mistakes:
        parts.append(mistakes_stat(after.mistakes, mistake_cap, oob=True))
    if after.hints != before.hints:
        parts.append(hints_stat(after.hints, hint_limit, oob=True))
        parts.append(hint_button(hint_limit - after.hints, oob=True))
    if after.cells != before.cells:
        parts += [
            pad_button(d, left, oob=True)
            for (d, left), (_, was) in zip(pad_left(after), pad_left(before), strict=True)
            if left != was
        ]
    if delayed and after.submittable != before.submittable:
        parts.append(submit_button(after.submittable, after.checked, oob=True))
    parts.append(outcome_message(outcome, element_id=message_id, oob=True))
    if version is not None:
        parts.append(version_input(version, element_id=version_id, oob=True))
    return mark_safe("".join(parts))

"""What a browser may see of a domino game: the board, the valid entry points, the
current stone and the one preview, lives, jokers, score and the server's clock.
Never the solution, the seed or the stone order beyond the preview."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.common.i18n import say
from games.engines import domino as engine
from games.engines.domino.game import END_MESSAGES, skipped_message
from games.engines.domino.grid import UNIT_CELLS
from games.engines.text import Sentences

from . import fragments
from .play import Action, Push, push_name

EDGE_ARROWS = {"top": "↓", "bottom": "↑", "left": "→", "right": "←"}
END_TITLES = {
    engine.END_FULL: _("Grid complete!"),
    engine.END_LIVES: _("Out of lives"),
    engine.END_STUCK: _("No move left"),
    engine.END_TIME: _("Time is up"),
}


def marker_label(edge: str, line: int, landing: tuple[int, int]) -> str:
    return gettext("%(push)s (stops at row %(row)s, column %(col)s)") % {
        "push": say(push_name(edge, line)),
        "row": landing[0],
        "col": landing[1],
    }


def markers(state: engine.State, joker_mode: str | None = None) -> dict[str, list[dict]]:
    """For each edge, nine slots (lines 1-9). A slot is a marker when its entry is valid."""
    valid = {} if joker_mode else engine.entry_points(state)
    out = {}
    for edge in engine.EDGES:
        slots = []
        for line in range(1, 10):
            landing = valid.get((edge, line))
            slot = {"edge": edge, "line": line, "valid": landing is not None, "arrow": EDGE_ARROWS[edge]}
            if landing is not None:
                slot.update(
                    value=f"{edge}-{line}",
                    label=marker_label(edge, line, landing),
                    land_row=landing[0],
                    land_col=landing[1],
                )
            slots.append(slot)
        out[edge] = slots
    return out


def slide_offset(edge: str, cell: tuple[int, int]) -> tuple[int, int]:
    """How many cells away (dx, dy) the stone started: just outside the grid's edge."""
    row, col = cell
    return {"left": (-col, 0), "right": (10 - col, 0), "top": (0, -row), "bottom": (0, 10 - row)}[edge]


def cell_label(row: int, col: int, code: int, unreachable: bool) -> str:
    label = gettext("Row %(row)s, column %(col)s") % {"row": row, "col": col}
    if code > 0:
        label += f", {code}"
    elif code == engine.GREY:
        label += ", " + gettext("grey joker")
    elif code == engine.GOLD:
        label += ", " + gettext("gold joker")
    elif unreachable:
        label += ", " + gettext("unreachable")
    else:  # said as a Sudoku cell says it (games/sudoku/fragments.py)
        label += ", " + gettext("empty")
    return label


def outcome_marks(outcome: engine.Outcome | None = None, action: Action | None = None) -> dict:
    """What one move marks on the board: completed units, clashing stones, the slide."""
    scored: set[tuple[int, int]] = set()
    clashes: set[tuple[int, int]] = set()
    slide = None
    if outcome is not None:
        for done in outcome.completed:
            if not done.void:
                scored.update(UNIT_CELLS[(done.unit, done.number)])
        clashes = {c.cell for c in outcome.clashes}
        if isinstance(action, Push) and outcome.cell and outcome.kind in ("placed", "wrong"):
            dx, dy = slide_offset(action.edge, outcome.cell)
            slide = {"dx": dx, "dy": dy, "distance": abs(dx) + abs(dy)}
    return {"outcome": outcome, "scored": scored, "clashes": clashes, "slide": slide}


def cell_view(state: engine.State, r: int, c: int, marks: dict, joker_mode: str | None = None) -> dict:
    """One cell's dict for the grid (games/domino/fragments.cell draws it)."""
    outcome = marks["outcome"]
    code = state.board[(r - 1) * 9 + c - 1]
    unreachable = (r, c) in state.unreachable
    here = outcome is not None and outcome.cell == (r, c)
    return {
        "row": r,
        "col": c,
        "index": (r - 1) * 9 + c - 1,
        "box": (r - 1) // 3 * 3 + (c - 1) // 3 + 1,
        "value": code if code > 0 else None,
        "given": state.puzzle[(r - 1) * 9 + c - 1] != engine.EMPTY,
        "joker": {engine.GREY: "grey", engine.GOLD: "gold"}.get(code),
        "empty": code == engine.EMPTY,
        "unreachable": unreachable,
        "label": cell_label(r, c, code, unreachable),
        "scored": (r, c) in marks["scored"],
        "clash": (r, c) in marks["clashes"],
        "fresh": here and outcome.kind in ("placed", "joker"),
        "wrong_digit": outcome.digit if here and outcome.kind == "wrong" else None,
        "slide": marks["slide"] if here else None,
        "pickable": bool(joker_mode) and code == engine.EMPTY and not state.finished,
    }


def board_rows(
    state: engine.State,
    outcome: engine.Outcome | None = None,
    action: Action | None = None,
    joker_mode: str | None = None,
) -> list[list[dict]]:
    marks = outcome_marks(outcome, action)
    return [[cell_view(state, r, c, marks, joker_mode) for c in range(1, 10)] for r in range(1, 10)]


def outcome_message(outcome: engine.Outcome | None) -> str:
    if outcome is None:
        return ""
    message = outcome.message
    if outcome.kind == "placed" and outcome.skipped:
        message = Sentences([message, skipped_message(outcome.skipped)])
    return message


def game_view(
    state: engine.State,
    now: float,
    outcome: engine.Outcome | None = None,
    action: Action | None = None,
    joker_mode: str | None = None,
) -> dict:
    """Everything the game partial renders, built only from what the player may see."""
    if state.finished:
        joker_mode = None
    jokers = state.jokers_left
    seconds_left = state.seconds_left(now)
    return {
        "rows": board_rows(state, outcome, action, joker_mode),
        "markers": markers(state, joker_mode),
        "current": state.current_stone if not state.finished else None,
        "preview": state.next_stone if not state.finished else None,
        "stones_left": state.stones_left,
        "lives": state.lives,
        "hearts": [i < state.lives for i in range(engine.LIVES)],
        "jokers": jokers,
        "grey_slots": [i < jokers["grey"] for i in range(engine.JOKERS["grey"])],
        "gold_slots": [i < jokers["gold"] for i in range(engine.JOKERS["gold"])],
        "score": state.score,
        "stones_placed": state.stones_placed,
        "seconds_left": seconds_left,
        "seconds_left_whole": int(seconds_left),
        "finished": state.finished,
        "end_reason": state.end_reason,
        "end_title": END_TITLES.get(state.end_reason or "", _("Game over")),
        "end_message": END_MESSAGES.get(state.end_reason or "", ""),
        "version": state.move_count,
        "joker_mode": joker_mode,
        "outcome": outcome,
        "message": outcome_message(outcome),
        "points": outcome.points if outcome is not None else 0,
        "unreachable_count": len(state.unreachable),
    }


def message_line(view: dict, error: str | None = None) -> tuple[str, str | None]:
    """The message line's text and kind ("error", "good" or None) for a game view."""
    outcome = view["outcome"]
    if error:
        return error, "error"
    kind = (
        "error"
        if outcome is not None and outcome.kind in ("wrong", "time_up")
        else "good"
        if outcome is not None and outcome.ok
        else None
    )
    if view["message"]:
        return view["message"], kind
    if view["joker_mode"]:
        return (
            gettext("Pick any empty cell for the grey joker.")
            if view["joker_mode"] == "grey"
            else gettext("Pick any empty cell for the gold joker.")
        ), kind
    return ("" if view["finished"] else gettext("Push your stone in from an orange marker.")), kind


def move_answer(
    before: engine.State,
    after: engine.State,
    now: float,
    outcome: engine.Outcome | None = None,
    action: Action | None = None,
    error: str | None = None,
) -> SafeString:
    """Only what a move changed, as out-of-band swaps: the cells that differ (the landed
    stone, cells no stone can reach any more) or carry this move's marks (the landing or the
    refused stone, completed units, clashing stones: the page's script clears the last
    move's marks), the entry markers that changed, the clock (the server's time), score and
    lives when they moved, the hand, the unreachable note, the message and the version."""
    marks = outcome_marks(outcome, action)
    marked = {*marks["scored"], *marks["clashes"], outcome.cell if outcome is not None else None}
    parts = []
    for i, (r, c) in enumerate((r, c) for r in range(1, 10) for c in range(1, 10)):
        if (
            before.board[i] != after.board[i]
            or (r, c) in marked
            or ((r, c) in before.unreachable) != ((r, c) in after.unreachable)
        ):
            parts.append(fragments.cell(cell_view(after, r, c, marks), oob=True))
    was, now_markers = markers(before), markers(after)
    for edge, slots in now_markers.items():
        parts += [fragments.marker(slot, oob=True) for old, slot in zip(was[edge], slots, strict=True) if old != slot]
    seconds_left = after.seconds_left(now)
    parts.append(fragments.clock(seconds_left, after.finished, oob=True))
    points = outcome.points if outcome is not None else 0
    if after.score != before.score or points:
        parts.append(fragments.score(after.score, points, oob=True))
    if after.lives != before.lives:
        parts.append(fragments.lives(after.lives, engine.LIVES, just_lost=after.lives < before.lives, oob=True))
    hand = (after.current_stone, after.next_stone, after.stones_left)
    if hand != (before.current_stone, before.next_stone, before.stones_left):
        parts.append(fragments.hand(*hand, oob=True))
    if len(after.unreachable) != len(before.unreachable):
        parts.append(fragments.legend(len(after.unreachable), after.finished, oob=True))
    message = outcome_message(outcome)
    view = {"outcome": outcome, "message": message, "joker_mode": None, "finished": after.finished}
    parts.append(fragments.message(*message_line(view, error), oob=True))
    parts.append(fragments.live(error or message, oob=True))
    if before is not after:
        parts.append(fragments.version_input(after.move_count, oob=True))
    return mark_safe("".join(parts))


def refusal_message(error: engine.DominoError, action) -> str:
    """A refused move in the player's words (the solo page's and the duel's)."""
    if isinstance(error, engine.InvalidEntry) and isinstance(action, Push):
        why = (
            gettext("there is no stone on that line to stop it")
            if error.reason == "no_stone"
            else gettext("the first cell of that line is taken")
        )
        return gettext("%(push)s is not possible: %(why)s.") % {"push": say(action.describe()), "why": why}
    text = say(error.message)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")

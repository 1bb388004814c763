"""Cardoku actions over stored state dicts: no models, no requests, no clock.

This is the game-specific layer that the solo game (games/cardoku/solo.py, a
Profile-owned model) and the Cardoku duel in rooms (rooms/gametypes/cardoku.py, one
state dict per seat, every seat started from the same layout and the same deal) call:

    layout = parse_layout(request.POST)                  # Layout, or LayoutError/InvalidInput
    seed = parse_deal(request.POST)                      # a deal seed (a fresh one if blank)
    data = start_state(layout, seed)                     # JSON-safe dict
    action = parse_action(request.POST)                  # Action, or BadMove
    data, outcome = apply_action(data, action)           # or an IllegalMove subclass
    summary(data)                                        # score, cards left, discards...

A state dict is the engine's ``to_dict`` (layout, seed, moves, derived board) plus
``step``: how many actions were applied (undos included), the board's version.
The dicts name the seed, so they describe every card to come: store them, never send
them out. What a browser may see is built by games/cardoku/presenters.py.

Decision (docs/rules.md says "the game ends when the deck runs out"): a finished game is
final. The engine allows undo after the end; this layer refuses it, so a recorded
result never changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.common.numbers import whole_number
from games.engines import cardoku as ck
from games.engines.cardoku import BadMove, GameOver, IllegalMove, InvalidInput, LayoutError
from games.engines.text import Sentences, Text, _

LAYOUT_CHOICES = (
    ("default", "Default staircase"),
    ("random", "Random"),
    ("custom", "Custom"),
)
LAYOUT_KINDS = tuple(kind for kind, _ in LAYOUT_CHOICES)
GAME_ACTIONS = ("place", "discard", "undo")
STEP_LIMIT = 100_000

__all__ = [
    "Action", "BadMove", "GameOver", "IllegalMove", "InvalidInput", "LayoutError", "Outcome",
    "StaleBoard", "apply", "apply_action", "dump", "restore", "step_of", "custom_incomplete", "custom_overflow",
    "custom_problem", "load", "parse_action", "parse_deal",
    "parse_layout", "parse_spades", "start_state", "summary",
]  # fmt: skip


class StaleBoard(IllegalMove):
    """The move was made on a board that has changed since (a double click, a second
    tab). Nothing was played; the latest board is shown instead."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: str  # "place" | "discard" | "undo"
    row: int | None = None
    col: int | None = None
    step: int | None = None  # the board version the player saw; None skips the check


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one action did, for the message line and the highlights."""

    kind: str  # "placed" | "discarded" | "undone"
    card: ck.Card  # the card placed, discarded or taken back (never an upcoming one)
    row: int | None = None
    col: int | None = None
    completed: tuple[ck.UnitScore, ...] = ()  # units this placement completed
    finished: bool = False

    @property
    def square(self) -> tuple[int, int] | None:
        return (self.row, self.col) if self.row is not None and self.col is not None else None

    @property
    def message(self) -> str:
        # Sentences, each a Text: the presentation layer translates them one by one.
        if self.kind == "placed":
            text = [
                _(
                    "Placed the %(card)s on row %(row)s, column %(col)s.",
                    card=self.card.name,
                    row=self.row,
                    col=self.col,
                )
            ]
            text += [
                _("%(unit)s complete: %(points)s points!", unit=unit_title(unit), points=unit.points)
                for unit in self.completed
            ]
        elif self.kind == "discarded":
            text = [_("Discarded the %(card)s: −%(points)s points.", card=self.card.name, points=ck.DISCARD_PENALTY)]
        elif self.row is not None:
            text = [
                _(
                    "Took back the %(card)s from row %(row)s, column %(col)s.",
                    card=self.card.name,
                    row=self.row,
                    col=self.col,
                )
            ]
        else:
            text = [_("Took back the %(card)s.", card=self.card.name)]
        if self.finished:
            text.append(_("That was the last card: the game is over."))
        return Sentences(text)


def unit_title(unit: ck.UnitScore) -> str:
    return {
        "row": lambda n: _("Row %(n)s", n=n),
        "column": lambda n: _("Column %(n)s", n=n),
        "box": lambda n: _("Box %(n)s", n=n),
    }[unit.kind](unit.number)


# --------------------------------------------------------------------------- parsing


def _number(value: Any, name: str, low: int, high: int) -> int:
    return whole_number(value, name, low, high, BadMove)


def parse_square(raw: Any, name: str = "square") -> tuple[int, int]:
    """``"7,4"`` / ``"7-4"`` -> (7, 4)."""
    parts = str(raw or "").replace("-", ",").split(",")
    if len(parts) != 2:
        raise BadMove(_("The %(name)s must be written row,column (like 7,4).", name=Text(name)))
    return _number(parts[0], "row", 1, 9), _number(parts[1], "column", 1, 9)


def parse_action(data: Mapping) -> Action:
    """Turn form data into a typed action, or raise ``BadMove`` with a clear message.

    ``action=place`` with ``row`` and ``col`` (or ``square=7,4``), ``action=discard``,
    ``action=undo``. An optional ``step`` (the board version the player saw) guards
    against double clicks and stale tabs.
    """
    kind = data.get("action")
    if kind in (None, ""):
        raise BadMove(_("Choose a move: place, discard or undo."))
    if kind not in GAME_ACTIONS:
        raise BadMove(_("Unknown move %(move)s: use place, discard or undo.", move=repr(str(kind)[:20])))
    raw_step = data.get("step")
    step = None if raw_step in (None, "") else _number(raw_step, "step", 0, STEP_LIMIT)
    if kind != "place":
        return Action(kind, step=step)
    if data.get("square") not in (None, ""):
        row, col = parse_square(data.get("square"))
    else:
        if data.get("row") in (None, "") or data.get("col") in (None, ""):
            raise BadMove(_("Pick a square on the board for the card."))
        row, col = _number(data.get("row"), "row", 1, 9), _number(data.get("col"), "column", 1, 9)
    return Action("place", row, col, step)


def parse_spades(data: Mapping) -> dict[tuple[int, int], str]:
    """The custom layout fields ``spade_1`` .. ``spade_9`` (each ``"row,col"`` or blank)
    as {square: card code} for the spades that are placed. Malformed values raise
    ``LayoutError`` (a layout the setup screen cannot show)."""
    placed: dict[tuple[int, int], str] = {}
    for digit in range(1, 10):
        raw = str(data.get(f"spade_{digit}") or "").strip()
        if not raw:
            continue
        try:
            square = parse_square(raw, "square of a spade")
        except BadMove as exc:
            raise LayoutError(str(exc)) from None
        code = ck.spade(digit).code
        if square in placed:
            other = ck.parse_card(placed[square]).name
            raise LayoutError(
                _(
                    "The %(card)s and the %(other)s are on the same square (row %(row)s, column %(col)s).",
                    card=ck.spade(digit).name,
                    other=other,
                    row=square[0],
                    col=square[1],
                )
            )
        placed[square] = code
    return placed


def custom_overflow(placed: Mapping[tuple[int, int], str]) -> str | None:
    """A row or box holding more than three of these spades, in the engine's words.
    (The engine reports missing spades first; while the player is still arranging, a
    crowded row or box is the more useful thing to hear, as no further placing fixes it.)"""
    rows: dict[int, int] = {}
    boxes: dict[int, int] = {}
    for row, col in placed:
        rows[row] = rows.get(row, 0) + 1
        boxes[ck.box_of(row, col)] = boxes.get(ck.box_of(row, col), 0) + 1
    for row, n in sorted(rows.items()):
        if n > 3:
            return _("Row %(row)s has %(n)s spades; at most three per row.", row=row, n=n)
    for box, n in sorted(boxes.items()):
        if n > 3:
            return _("Box %(box)s has %(n)s spades; at most three per box.", box=box, n=n)
    return None


def custom_incomplete(placed: Mapping[tuple[int, int], str]) -> bool:
    """Fewer than nine spades placed, and nothing placed so far breaks a setup rule."""
    return len(placed) < 9 and all(7 <= row <= 9 for row, _ in placed) and custom_overflow(placed) is None


def custom_problem(placed: Mapping[tuple[int, int], str]) -> str | None:
    """Why these spades are not (yet) a valid custom layout, or ``None`` if they are.
    The verdict is the engine's (``custom_layout``), with crowded rows and boxes reported
    first while spades are still missing."""
    if len(placed) < 9 and all(7 <= row <= 9 for row, _ in placed):
        overflow = custom_overflow(placed)
        if overflow:
            return overflow
    try:
        ck.custom_layout(dict(placed))
    except LayoutError as exc:
        return str(exc)
    return None


def parse_layout(data: Mapping, seed: int) -> ck.Layout:
    """The starting layout chosen on the setup screen. ``layout`` is default, random or
    custom. Random is fixed by the deal's seed, so a deal code replays the same random
    layout too. Raises ``BadMove`` (unknown kind) or ``LayoutError``."""
    kind = data.get("layout") or "default"
    if kind == "default":
        return ck.default_layout()
    if kind == "random":
        return ck.random_layout(seed)
    if kind == "custom":
        placed = parse_spades(data)
        problem = custom_problem(placed)
        if problem:
            raise LayoutError(problem)
        return ck.custom_layout(placed)
    raise BadMove(_("Choose the Default staircase, Random or Custom layout."))


def parse_deal(data: Mapping, rng: random.Random | None = None) -> int:
    """The seed of the deal code in ``code``, or a fresh random seed when it is blank.
    Raises ``BadDealCode`` with a message for the player."""
    code = str(data.get("code") or "").strip()
    if code:
        return ck.parse_deal_code(code)
    return ck.random_seed(rng or random.SystemRandom())


# --------------------------------------------------------------------------- state dicts


def start_state(layout: ck.Layout, seed: int) -> dict:
    """A new game as a JSON-safe dict. Same layout and seed: same game."""
    return dict(ck.to_dict(ck.new_game(layout, seed)), step=0)


def load(data: Mapping) -> ck.GameState:
    """The engine state of a stored dict (replayed from its moves, so never tampered)."""
    return ck.from_dict(data)


def restore(data: Mapping) -> ck.GameState:
    """The engine state of a dict this layer stored itself (``dump``), without replaying the
    rules: what the solo game's write path loads once per move."""
    return ck.restore(data)


def step_of(data: Mapping) -> int:
    """The board version of a stored dict."""
    step = data.get("step", 0)
    return step if isinstance(step, int) and step >= 0 else 0


def apply_action(data: Mapping, action: Action) -> tuple[dict, Outcome]:
    """Apply one action to a stored state. Returns the new dict and what happened.

    Raises ``BadMove`` (malformed), ``StaleBoard``, ``GameOver`` (the deck is done: moves
    and undo alike), ``NothingToUndo`` or ``IllegalSquare``; then nothing changed.
    """
    step = step_of(data)
    state, outcome = apply(load(data), step, action)
    return dump(state, step + 1), outcome


def dump(state: ck.GameState, step: int) -> dict:
    """The stored dict of ``state`` at board version ``step``."""
    return dict(ck.to_dict(state), step=step)


def apply(state: ck.GameState, step: int, action: Action) -> tuple[ck.GameState, Outcome]:
    """``apply_action`` on a loaded state at board version ``step`` (the write path loads
    a game once per move). Returns the new state and what happened; raises as
    ``apply_action`` does."""
    if state.finished:
        raise GameOver(
            _("The game is over: the deck has run out, and a finished game is final. Deal again to play another.")
        )
    if action.step is not None and action.step != step:
        raise StaleBoard(_("The board changed before that move arrived; here is the latest one. Nothing was played."))
    if action.kind == "place":
        if action.row is None or action.col is None:
            raise ValueError("a place needs a row and a column")  # parse_action always gives both
        before = {(u.kind, u.number) for u in ck.score(state).units}
        state = ck.place(state, action.row, action.col)
        completed = tuple(u for u in ck.score(state).units if (u.kind, u.number) not in before)
        outcome = Outcome("placed", state.history[-1].card, action.row, action.col, completed, state.finished)
    elif action.kind == "discard":
        state = ck.discard(state)
        outcome = Outcome("discarded", state.history[-1].card, finished=state.finished)
    elif action.kind == "undo":
        undone = ck.undo(state)  # raises when there is nothing to undo
        last = state.history[-1]
        state = undone
        outcome = Outcome("undone", last.card, last.row, last.col)
    else:
        raise BadMove(_("Unknown move %(move)s: use place, discard or undo.", move=repr(action.kind)))
    return state, outcome


def summary(data: Mapping | ck.GameState) -> dict:
    """The numbers a leaderboard or a stored row needs (no upcoming cards)."""
    state = data if isinstance(data, ck.GameState) else load(data)
    breakdown = ck.score(state)
    return {
        "score": breakdown.total,
        "units": len(breakdown.units),
        "discards": state.discards,
        "cards_left": state.cards_left,
        "cards_placed": sum(1 for m in state.history if m.kind == "place"),
        "finished": state.finished,
        "step": step_of(data) if isinstance(data, Mapping) else None,
    }

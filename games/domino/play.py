"""Sudoku Domino actions over stored state dicts: no models, no requests, no clock.

This is the game-specific layer that both the solo game (games/domino/solo.py, a
Profile-owned model) and the Domino duel in rooms (rooms/gametypes/domino.py, one state dict per seat, all
seats started from the same puzzle and seed) call:

    data = start_state(puzzle, solution, seed, started_at)     # JSON-safe dict
    action = parse_action(request.POST)                        # Push | Joker, or BadMove
    data, outcome = apply_action(data, action, now)            # or an IllegalMove subclass
    data = tick(data, now)                                     # ends the game at 10:00
    summary(data, now)                                         # score, lives, stones placed

Times are seconds on one clock (the callers use Unix time). The dicts hold the solution
and the whole stone order: store them, never send them out. What a browser may see is
built by games/domino/presenters.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.common.numbers import whole_number
from games.engines import domino as engine
from games.engines.domino import BadMove, IllegalMove
from games.engines.domino.game import END_MESSAGES
from games.engines.text import Sentences, Text, _


def push_name(edge: str, line: int) -> str:
    """ "Push from the left into row 3", one sentence per edge (translated whole)."""
    return {
        "left": _("Push from the left into row %(line)s", line=line),
        "right": _("Push from the right into row %(line)s", line=line),
        "top": _("Push from the top into column %(line)s", line=line),
        "bottom": _("Push from the bottom into column %(line)s", line=line),
    }[edge]


class StaleBoard(IllegalMove):
    """The move was made on a board that has changed since (a double click, a second
    tab). Nothing was played; the latest board is shown instead."""


@dataclass(frozen=True, slots=True)
class Push:
    edge: str
    line: int
    version: int | None = None  # moves the client had seen; None skips the check

    def describe(self) -> str:
        return push_name(self.edge, self.line)


@dataclass(frozen=True, slots=True)
class Joker:
    kind: str  # "grey" or "gold"
    row: int
    col: int
    version: int | None = None

    def describe(self) -> str:
        return (
            _("Grey joker on row %(row)s, column %(col)s", row=self.row, col=self.col)
            if self.kind == "grey"
            else _("Gold joker on row %(row)s, column %(col)s", row=self.row, col=self.col)
        )


Action = Push | Joker


def _number(value: Any, name: str, low: int, high: int) -> int:
    return whole_number(value, name, low, high, BadMove)


def _version(data: Mapping) -> int | None:
    raw = data.get("version")
    if raw in (None, ""):
        return None
    return _number(raw, "version", 0, 10_000)


def _pair(raw: Any, name: str) -> tuple[str, str]:
    parts = str(raw or "").split("-")
    if len(parts) != 2:
        raise BadMove(_("The %(name)s is not understood.", name=Text(name)))
    return parts[0], parts[1]


def parse_action(data: Mapping) -> Action:
    """Turn form data into a typed action, or raise ``BadMove`` with a clear message.

    A push: ``push=<edge>-<line>`` (the marker buttons) or ``edge`` + ``line``.
    A joker: ``joker=grey|gold`` with ``cell=<row>-<col>`` or ``row`` + ``col``.
    An optional ``version`` (the move count the player saw) guards against replays.
    """
    version = _version(data)
    joker = data.get("joker")
    push = data.get("push")
    if joker not in (None, "") and push not in (None, ""):
        raise BadMove(_("Push a stone or place a joker, not both at once."))
    if joker not in (None, ""):
        if joker not in engine.JOKERS:
            raise BadMove(_("The joker must be grey or gold."))
        cell = data.get("cell")
        row, col = _pair(cell, "cell") if cell not in (None, "") else (data.get("row"), data.get("col"))
        return Joker(joker, _number(row, "row", 1, 9), _number(col, "column", 1, 9), version)
    edge, line = _pair(push, "entry point") if push not in (None, "") else (data.get("edge"), data.get("line"))
    if edge in (None, "") and line in (None, ""):
        raise BadMove(_("Choose an entry point on the edge of the grid, or a joker."))
    if edge not in engine.EDGES:
        raise BadMove(_("The edge must be left, right, top or bottom."))
    return Push(edge, _number(line, "line", 1, 9), version)


# --------------------------------------------------------------------------- state dicts


def start_state(puzzle, solution, seed: int | str, started_at: float) -> dict:
    """A new game as a JSON-safe dict. Same puzzle and seed: same stones, same order."""
    return engine.to_dict(engine.new_game(puzzle, solution, seed, started_at))


def load(data: dict) -> engine.State:
    return engine.from_dict(data)


def restore(data: dict) -> engine.State:
    """The engine state of a dict this app's write path stored itself (``engine.to_dict``),
    without re-checking it (``load`` checks every cell and the bag: 0.4 ms a move) and with
    the stored unreachable cells instead of recomputing them."""
    if data.get("format") != 1 or "unreachable" not in data:  # older or foreign: the checked way
        return load(data)
    jokers = data["jokers"]
    return engine.State(
        puzzle=tuple(data["puzzle"]),
        solution=tuple(data["solution"]),
        seed=data["seed"],
        started_at=float(data["started_at"]),
        board=tuple(data["board"]),
        bag=tuple(data["bag"]),
        unreachable=frozenset((r, c) for r, c in data["unreachable"]),
        lives=data["lives"],
        grey_jokers=jokers["grey"],
        gold_jokers=jokers["gold"],
        score=data["score"],
        stones_placed=data["stones_placed"],
        finished=data["finished"],
        end_reason=data["end_reason"],
        ended_at=None if data["ended_at"] is None else float(data["ended_at"]),
        moves=tuple(tuple(m) for m in data["moves"]),
    )


def apply_action(data: dict, action: Action, now: float) -> tuple[dict, engine.Outcome]:
    """Apply one action to a stored state. Returns the new dict and the engine's outcome
    (``kind`` "placed", "wrong", "joker", or "time_up" when the 10 minutes had passed:
    then the move was not played but the game is over and must be saved).

    Raises ``BadMove`` (malformed), ``StaleBoard`` or an engine ``IllegalMove``
    (``InvalidEntry``, ``CellOccupied``, ``NoJokersLeft``, ``GameOver``); then the
    stored state is unchanged."""
    state, outcome = apply(load(data), action, now)
    return engine.to_dict(state), outcome


def apply(state: engine.State, action: Action, now: float) -> tuple[engine.State, engine.Outcome]:
    """``apply_action`` on a loaded state (the write path loads a game once per move)."""
    if state.finished:
        raise engine.GameOver(
            Sentences(
                [_("The game is over.")]
                + ([END_MESSAGES[state.end_reason]] if state.end_reason in END_MESSAGES else [])
            ),
            state.end_reason,
        )
    if action.version is not None and action.version != state.move_count:
        raise StaleBoard(_("The board changed before that move arrived; here is the latest one. Nothing was played."))
    if isinstance(action, Push):
        return engine.push(state, action.edge, action.line, now)
    return engine.place_joker(state, action.kind, action.row, action.col, now)


def tick(data: dict, now: float) -> dict:
    """End the game if its 10 minutes have passed (the same dict back otherwise)."""
    state = load(data)
    ended = engine.check_time(state, now)
    return data if ended is state else engine.to_dict(ended)


def summary(data: dict | engine.State, now: float | None = None) -> dict:
    """The numbers a leaderboard or a stored row needs (no solution, no stone order)."""
    state = data if isinstance(data, engine.State) else load(data)
    jokers = state.jokers_left
    out = {
        "score": state.score,
        "lives": state.lives,
        "stones_placed": state.stones_placed,
        "jokers_used": sum(engine.JOKERS.values()) - jokers["grey"] - jokers["gold"],
        "stones_left": state.stones_left,
        "finished": state.finished,
        "end_reason": state.end_reason or "",
        "moves": state.move_count,
    }
    if now is not None:
        out["seconds_left"] = state.seconds_left(now)
    return out

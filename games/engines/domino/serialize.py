"""JSON-safe round trip of a domino ``State`` (for a Django JSONField).

``from_dict`` checks everything it reads and raises ``BadPosition`` on data that
does not hold together, so a tampered or corrupted row cannot reach the rules.
The dict holds the solution: store it, never send it to a browser.
"""

from __future__ import annotations

import math
from typing import Any

from . import grid
from .errors import BadMove, BadPosition
from .game import (
    END_REASONS,
    JOKERS,
    LIVES,
    State,
    _check_start,
    _empty_targets,
    _is_int,
)

FORMAT = 1


def to_dict(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "puzzle": list(state.puzzle),
        "solution": list(state.solution),
        "seed": state.seed,
        "started_at": state.started_at,
        "board": list(state.board),
        "bag": list(state.bag),
        "lives": state.lives,
        "jokers": {"grey": state.grey_jokers, "gold": state.gold_jokers},
        "score": state.score,
        "stones_placed": state.stones_placed,
        "unreachable": [list(cell) for cell in sorted(state.unreachable)],
        "finished": state.finished,
        "end_reason": state.end_reason,
        "ended_at": state.ended_at,
        "moves": [list(move) for move in state.moves],
    }


def _int(data: dict, key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not _is_int(value) or not low <= value <= high:
        raise BadPosition(f"{key}: expected a whole number {low}-{high}, got {value!r}")
    return value


def _time(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadPosition(f"{key}: expected a number of seconds, got {value!r}")
    return float(value)


def _move(raw: Any) -> tuple[Any, ...]:
    if not isinstance(raw, (list, tuple)) or not raw:
        raise BadPosition(f"moves: not a move: {raw!r}")
    move = tuple(raw)
    shapes = {"push": (str, int, "t"), "joker": (str, int, int, "t"), "time": ("t",)}
    shape = shapes.get(move[0]) if isinstance(move[0], str) else None
    if shape is None or len(move) != len(shape) + 1:
        raise BadPosition(f"moves: not a move: {raw!r}")
    out = [move[0]]
    for value, kind in zip(move[1:], shape, strict=True):
        if kind == "t":
            out.append(_time(value, "moves"))
        elif (kind is int and not _is_int(value)) or (kind is str and not isinstance(value, str)):
            raise BadPosition(f"moves: not a move: {raw!r}")
        else:
            out.append(value)
    return tuple(out)


def _board(data: dict, puzzle: tuple[int, ...], solution: tuple[int, ...]) -> tuple[int, ...]:
    """81 cells, each its given, or empty, a joker or the solution's digit."""
    board_raw = data.get("board")
    if not isinstance(board_raw, list) or len(board_raw) != 81:
        raise BadPosition("board: expected 81 cells")
    board = tuple(board_raw)
    for i, value in enumerate(board):
        given, digit = puzzle[i], solution[i]
        if not _is_int(value) or not (
            (given and value == given) or (not given and value in (grid.EMPTY, grid.GREY, grid.GOLD, digit))
        ):
            row, col = grid.cell_of(i)
            raise BadPosition(f"board: row {row}, column {col} holds {value!r}")
    return board


def _bag(data: dict, board: tuple[int, ...], solution: tuple[int, ...]) -> tuple[int, ...]:
    """The stones still to come: of each digit at least as many as it has empty cells,
    and none of a digit with no empty cell left."""
    bag_raw = data.get("bag")
    if not isinstance(bag_raw, list) or not all(_is_int(d) and 1 <= d <= 9 for d in bag_raw):
        raise BadPosition("bag: expected a list of digits 1-9")
    bag = tuple(bag_raw)
    targets = _empty_targets(board, solution)
    for digit in range(1, 10):
        in_bag = bag.count(digit)
        if in_bag < targets[digit] or (targets[digit] == 0 and in_bag):
            raise BadPosition(f"bag: the stones of {digit} do not match the board")
    return bag


def _jokers(data: dict, board: tuple[int, ...]) -> tuple[int, int]:
    """(grey, gold) jokers left, matching the jokers on the board."""
    jokers = data.get("jokers")
    if not isinstance(jokers, dict):
        raise BadPosition("jokers: expected {'grey': n, 'gold': n}")
    grey = _int(jokers, "grey", 0, JOKERS["grey"])
    gold = _int(jokers, "gold", 0, JOKERS["gold"])
    if board.count(grid.GREY) != JOKERS["grey"] - grey or board.count(grid.GOLD) != JOKERS["gold"] - gold:
        raise BadPosition("jokers: the counts do not match the board")
    return grey, gold


def _ending(data: dict) -> tuple[bool, str | None, float | None]:
    """(finished, end_reason, ended_at), consistent with each other."""
    finished = data.get("finished")
    end_reason = data.get("end_reason")
    if not isinstance(finished, bool) or (end_reason not in END_REASONS if finished else end_reason is not None):
        raise BadPosition("finished/end_reason do not match")
    ended_at = data.get("ended_at")
    if finished:
        ended_at = _time(ended_at, "ended_at")
    elif ended_at is not None:
        raise BadPosition("ended_at is set on a game that is not over")
    return finished, end_reason, ended_at


def from_dict(data: Any) -> State:
    """Rebuild a state written by ``to_dict``, checking it on the way."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadPosition("not a stored domino game (format 1)")
    puzzle, solution = _check_start(data.get("puzzle"), data.get("solution"))
    seed = data.get("seed")
    if not (_is_int(seed) or isinstance(seed, str)):
        raise BadPosition(f"seed: expected an int or a str, got {seed!r}")
    board = _board(data, puzzle, solution)
    bag = _bag(data, board, solution)
    grey, gold = _jokers(data, board)
    finished, end_reason, ended_at = _ending(data)
    moves_raw = data.get("moves")
    if not isinstance(moves_raw, list):
        raise BadPosition("moves: expected a list")
    state = State(
        puzzle=puzzle,
        solution=solution,
        seed=seed,
        started_at=_time(data.get("started_at"), "started_at"),
        board=board,
        bag=bag,
        unreachable=grid.unreachable_cells(board),
        lives=_int(data, "lives", 0, LIVES),
        grey_jokers=grey,
        gold_jokers=gold,
        score=_int(data, "score", 0, 10**7),
        stones_placed=_int(data, "stones_placed", 0, 81),
        finished=finished,
        end_reason=end_reason,
        ended_at=ended_at,
        moves=tuple(_move(m) for m in moves_raw),
    )
    return state


__all__ = ["to_dict", "from_dict", "BadMove", "BadPosition"]

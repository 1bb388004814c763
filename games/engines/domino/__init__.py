"""Sudoku Domino engine (docs/rules.md section 4). Standard library only.

state = new_game(puzzle, solution, seed, started_at)
entry_points(state)                      # {(edge, line): (row, col)}
state, outcome = push(state, "top", 3, now)
state, outcome = place_joker(state, "gold", 5, 5, now)
state = check_time(state, now)
replay(puzzle, solution, seed, started_at, state.moves) == state
from_dict(to_dict(state)) == state
"""

from .errors import (
    BadMove,
    BadPosition,
    CellOccupied,
    DominoError,
    GameOver,
    IllegalMove,
    InvalidEntry,
    NoJokersLeft,
)
from .game import (
    END_FULL,
    END_LIVES,
    END_STUCK,
    END_TIME,
    JOKERS,
    LIVES,
    TIME_LIMIT,
    Clash,
    Completion,
    Outcome,
    State,
    apply_move,
    check_time,
    entry_points,
    new_game,
    place_joker,
    push,
    replay,
)
from .grid import EDGES, EMPTY, GOLD, GREY
from .serialize import from_dict, to_dict

__all__ = [
    "BadMove",
    "BadPosition",
    "CellOccupied",
    "DominoError",
    "GameOver",
    "IllegalMove",
    "InvalidEntry",
    "NoJokersLeft",
    "END_FULL",
    "END_LIVES",
    "END_STUCK",
    "END_TIME",
    "JOKERS",
    "LIVES",
    "TIME_LIMIT",
    "Clash",
    "Completion",
    "Outcome",
    "State",
    "apply_move",
    "check_time",
    "entry_points",
    "new_game",
    "place_joker",
    "push",
    "replay",
    "EDGES",
    "EMPTY",
    "GOLD",
    "GREY",
    "from_dict",
    "to_dict",
]

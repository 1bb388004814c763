"""Every engine splits its refusals into the two shared kinds (games/engines/errors.py),
as python-chess splits InvalidMoveError from IllegalMoveError: a caller catches one
engine's errors, or one kind across the three engines."""

import pytest

from games.engines import cardoku as ck
from games.engines import domino as dm
from games.engines import race
from games.engines.errors import Illegal, Malformed, Refusal

PUZZLE = tuple(map(int, "530070000600195000098000060800060003400803001700020006060000280000419005000080079"))
SOLUTION = tuple(map(int, "534678912672195348198342567859761423426853791713924856961537284287419635345286179"))


def race_board():
    return race.Board.new(PUZZLE)


def domino_game():
    return dm.new_game(PUZZLE, SOLUTION, 0, 0.0)


def cardoku_game():
    return ck.new_game(ck.default_layout(), 1)


MALFORMED = [
    (race.MoveError, lambda: race.enter(race_board(), race.STANDARD, SOLUTION, 81, 5)),
    (race.MoveError, lambda: race.Rules(hint_limit=2)),
    (dm.DominoError, lambda: dm.push(domino_game(), "up", 1, 1.0)),
    (dm.DominoError, lambda: dm.from_dict({"cells": "nonsense"})),
    (ck.CardokuError, lambda: ck.place(cardoku_game(), 0, 0)),
    (ck.CardokuError, lambda: ck.parse_deal_code("U?")),
]
ILLEGAL = [
    (race.MoveError, lambda: race.enter(race_board(), race.STANDARD, SOLUTION, 0, 5)),  # a given
    (dm.DominoError, lambda: dm.place_joker(domino_game(), "grey", 1, 1, 1.0)),  # a given cell
    (ck.CardokuError, lambda: ck.undo(cardoku_game())),  # nothing to undo
]


@pytest.mark.parametrize("engine_base, call", MALFORMED)
def test_malformed_input_is_malformed_in_every_engine(engine_base, call):
    with pytest.raises(Malformed) as caught:
        call()
    error = caught.value
    assert isinstance(error, engine_base) and isinstance(error, ValueError)
    assert not isinstance(error, Illegal)
    assert error.message and error.message == str(error)


@pytest.mark.parametrize("engine_base, call", ILLEGAL)
def test_rule_refusals_are_illegal_in_every_engine(engine_base, call):
    with pytest.raises(Illegal) as caught:
        call()
    error = caught.value
    assert isinstance(error, engine_base) and not isinstance(error, (Malformed, ValueError))
    assert error.message and error.message == str(error)


def test_refusals_outside_the_engines_are_not_race_errors():
    """Rooms, the puzzle bank and Solo Run refuse things no engine judges: they share the
    root (one `except Refusal` answers the player) but not the race engine's classes."""
    from games.bank import BankEmpty
    from games.sudoku.solo import NotYourRun
    from rooms.actions import MalformedMessage
    from rooms.api import NotAllowed, RoomError, RoomNotFound

    for cls in (RoomError, RoomNotFound, NotAllowed, BankEmpty, NotYourRun, MalformedMessage):
        assert issubclass(cls, Refusal) and not issubclass(cls, race.MoveError)
    assert issubclass(MalformedMessage, Malformed)

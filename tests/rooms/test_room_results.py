"""RoomResult rows that came from ShowdownResult: the migration moves each game's own columns
into its summary, in the shape that game type's result_summary records today."""

import importlib
from types import SimpleNamespace

import pytest

from rooms.gametypes import GAME_TYPES
from rooms.models import Room, Seat

migration = importlib.import_module("rooms.migrations.0007_roomresult")


def old_row(game, **fields):
    row = dict(game=game, difficulty="easy", preset="standard", mistakes=2, hints=1)
    return SimpleNamespace(**{**row, **fields})


@pytest.mark.parametrize(
    "row, room",
    [
        (old_row("showdown", preset="hardcore"), Room(game="showdown", level="easy")),
        (old_row("domino", preset="duel", hints=0), Room(game="domino", level="easy")),
        (
            old_row("cardoku", difficulty="", preset="random", mistakes=0, hints=0),
            Room(game="cardoku", rules={"layout": "random"}),
        ),
    ],
)
def test_an_old_rows_summary_is_what_its_game_type_records(row, room):
    game = GAME_TYPES[room.game]
    if room.game == "showdown":
        room.rules = game.initial_rules("hardcore")
    seat = Seat(room=room, mistakes=row.mistakes, state={"hints": row.hints} if room.game == "showdown" else {})
    assert migration.to_summary(row) == game.result_summary(room, seat)


def test_only_custom_showdowns_are_left_out_of_the_totals():
    custom, standard = Room(game="showdown"), Room(game="showdown")
    showdown = GAME_TYPES["showdown"]
    custom.rules, standard.rules = showdown.initial_rules("standard"), showdown.initial_rules("standard")
    custom.rules["mistake_cap"] = 7  # no preset has it with these rules
    assert showdown.preset(custom) == "custom" and showdown.preset(standard) == "standard"
    assert not showdown.in_totals(custom) and showdown.in_totals(standard)
    assert GAME_TYPES["domino"].in_totals(Room(game="domino")) and GAME_TYPES["cardoku"].in_totals(Room(game="cardoku"))

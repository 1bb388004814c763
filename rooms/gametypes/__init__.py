"""Room game types: one module per game behind the GameType interface (base.py), and the
registry from which rooms, views and templates look them up."""

from .base import GameType
from .showdown import ShowdownGame
from ..duels import CardokuDuel, DominoDuel

GAME_TYPES: dict[str, GameType] = {game.key: game for game in (ShowdownGame(), DominoDuel(), CardokuDuel())}


def game_for(room) -> GameType:
    return GAME_TYPES[room.game]

"""Room game types: one module per game behind the GameType interface (base.py), and the
registry, the only place that lists them: rooms, views, stats and templates look game
types up here (Room.game's choices, the home page's game list, the leaderboards' totals
and result rows)."""

from .base import GameType
from .cardoku import CardokuDuel
from .domino import DominoDuel
from .showdown import ShowdownGame

GAME_TYPES: dict[str, GameType] = {game.key: game for game in (ShowdownGame(), DominoDuel(), CardokuDuel())}
DEFAULT_GAME = next(iter(GAME_TYPES))  # the home page's first choice, and a room form's without a game


def game_for(room) -> GameType:
    return GAME_TYPES[room.game]


def standings(room, seats) -> list[tuple[int, object]]:
    """Places for the room's seats by its game type's ranking (none before play)."""
    return game_for(room).rank(room, seats) if room.starts_at else []

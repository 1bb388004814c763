"""What applying an action gives its caller: a `Result`, or a refusal (`RoomError` and its
kinds). Apart from rooms/rules.py because the handlers (rooms/handlers.py) build and raise
them, and rules.py imports the handlers: here, below both, neither imports the other back.
Every caller up the live path (store, owner, hub, api) reads these and nothing else of the
handlers."""

from dataclasses import dataclass, field
from typing import Protocol

from games.engines import race
from games.engines.errors import Refusal

from .change import NO_CHANGE, Change
from .gametypes import GameType
from .models import Room, Seat


class RoomError(Refusal):
    """A refused room action; str() is the message for the player."""


class RoomNotFound(RoomError):
    pass


class NotAllowed(RoomError):
    """Permission: not the host, not seated."""


class Owner(Protocol):
    """What an answer reads of the live owner that applied a change (rooms/owner.py
    LiveRoom): the room, seats and game type in its memory."""

    code: str
    room: Room
    seats: list[Seat]
    game: GameType


@dataclass
class Result:
    """What applying an action did: the room and the actor's seat after it, the board
    move's outcome, the Change (log entry, audience, seats), and for the live owner's answer
    the mover's board before and the owner itself."""

    room: Room
    seat: Seat | None
    outcome: race.Outcome | None = None
    changed: bool = True
    duplicate: bool = False
    seats: list | None = None  # every seat as saved, for rendering the answer without a query
    change: Change = field(default=NO_CHANGE)
    before_state: dict | None = None  # the mover's board before the move (the live owner's answer)
    live: Owner | None = None  # the live owner that applied it, whose memory the answer is rendered from

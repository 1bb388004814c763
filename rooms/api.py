"""The way in for views, Celery tasks, the admin and the socket: `act`, the one name for
applying an action to a room from outside the live path, through its one writer: the live
owner in this process, the owner in another (a typed message over the channel layer,
rooms/wire.py), or the locked write path for a room nobody owns (rooms/store.py). Also
what those callers need beside it."""

from . import hub, store
from .result import NotAllowed, Result, RoomError, RoomNotFound
from .rules import as_seated, normalize_code
from .store import create_public_room, create_room, running_view

__all__ = [
    "NotAllowed",
    "RoomError",
    "RoomNotFound",
    "act",
    "as_seated",
    "create_public_room",
    "create_room",
    "normalize_code",
    "running_view",
]


def act(code: str, player, action, now=None, message_id: str = "") -> Result:
    """Apply `action` for `player` (None: the room's clock, a task, the admin) to the room
    `code`; a message id makes a repeat harmless. Raises a RoomError (or another Refusal)
    with the message for the player."""
    owned = hub.route(code, player, action, now, message_id)
    if owned is not None:
        return owned
    return store.locked(code, player, action, now, message_id)

"""What an applied action means beyond the actor: `Change`, made by rooms/rules.py `apply`
and read by everything after it (the owner's log append and write-behind, the locked path's
save, rooms/push.py's push). Plain data: it imports nothing of the project."""

import enum
from dataclasses import dataclass


class Audience(enum.Enum):
    """Who hears of a change besides the actor's own answer."""

    NOBODY = "nobody"  # nothing changed
    MOVER = "mover"  # only the actor's own view (a pencil mark, a duel's helper toggle): saved, pushed to nobody
    STANDINGS = "standings"  # a board move in a running race: the shared standings, to every socket
    EVERY_VIEW = "every view"  # the room itself moved (a join, the start, a finish, a forfeit): every view again


@dataclass(frozen=True)
class Change:
    """What an applied action means beyond the actor, decided once by `apply` (lila's
    VersionedEvent): the log entries it makes (none, or the one with the room's new
    version), who hears of it, which seats came and went, and what the write-behind must
    not leave for later (the room's own state, a seat's status)."""

    events: tuple[dict, ...] = ()
    audience: Audience = Audience.NOBODY
    seats_added: tuple[int, ...] = ()
    seats_removed: tuple[int, ...] = ()
    room_changed: bool = False  # the room's own state moved (play, finish, expiry, a new start)
    status_changed: bool = False  # a seat finished, was eliminated or left

    @property
    def event(self) -> dict | None:
        return self.events[-1] if self.events else None


NO_CHANGE = Change()

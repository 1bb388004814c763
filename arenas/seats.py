"""Where a waiting arena player goes (docs/rules.md 12): the tick seats them and tells their
open arena pages at once, one message per process for the whole round (arenas/pages.py); a
page that connects later asks the rows."""

from . import pages
from .models import Entry


def push_seated(code: str, seated: dict[int, str]) -> None:
    """Tell each seated player's arena pages their room (account id -> room code), in one
    message to each process with open pages of the arena (one per player, one after another,
    held the tick for seconds when a round seated a hundred; bench/arena.py)."""
    if seated:
        pages.send(code, {"type": "arena.seated", "seated": {str(a): room for a, room in seated.items()}})


def seated_room(code: str, account_id: int) -> str:
    """The room this player is seated in (a page that connects after the push finds it here)."""
    room = (
        Entry.objects.filter(arena__code=code, account_id=account_id, state=Entry.State.RACING)
        .values_list("room_code", flat=True)
        .first()
    )
    return room or ""

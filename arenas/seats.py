"""Where a waiting arena player goes (docs/rules.md 12): the tick seats them and tells their
open arena pages at once, on each page's own socket (friends/consumers.py); a page that
connects later asks the rows."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .models import Entry

logger = logging.getLogger(__name__)


def seat_group(code: str, account_id: int) -> str:
    """One player's open pages of one arena."""
    return f"arena.{code}.seat.{account_id}"


def push_seated(code: str, seated: dict[int, str]) -> None:
    """Tell each seated player's arena pages their room (account id -> room code)."""
    layer = get_channel_layer()
    if layer is None or not seated:
        return
    for account_id, room in seated.items():
        try:  # one failed send stops no other player's
            async_to_sync(layer.group_send)(seat_group(code, account_id), {"type": "arena.seated", "room": room})
        except Exception:  # the page finds its room when its socket (re)connects, or on its next load
            logger.warning("arena seat push failed", exc_info=True)


def seated_room(code: str, account_id: int) -> str:
    """The room this player is seated in (a page that connects after the push finds it here)."""
    room = (
        Entry.objects.filter(arena__code=code, account_id=account_id, state=Entry.State.RACING)
        .values_list("room_code", flat=True)
        .first()
    )
    return room or ""

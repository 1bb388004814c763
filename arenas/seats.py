"""Where a waiting arena player goes (docs/rules.md 12): the tick seats them and tells their
open arena pages at once, on each page's own socket (friends/consumers.py); a page that
connects later asks the rows."""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .models import Entry

logger = logging.getLogger(__name__)


def seat_group(code: str, account_id: int) -> str:
    """One player's open pages of one arena."""
    return f"arena.{code}.seat.{account_id}"


def push_seated(code: str, seated: dict[int, str]) -> None:
    """Tell each seated player's arena pages their room (account id -> room code): every send
    at once, in one trip to the event loop (one trip and one Redis round trip per player, one
    after another, held the tick for seconds when a round seated a hundred; bench/arena.py)."""
    layer = get_channel_layer()
    if layer is None or not seated:
        return

    async def send_all():
        sends = [
            layer.group_send(seat_group(code, account_id), {"type": "arena.seated", "room": room})
            for account_id, room in seated.items()
        ]
        for failed in await asyncio.gather(*sends, return_exceptions=True):
            if isinstance(failed, Exception):  # the page finds its room when its socket (re)connects
                logger.warning("arena seat push failed: %r", failed)

    async_to_sync(send_all)()


def seated_room(code: str, account_id: int) -> str:
    """The room this player is seated in (a page that connects after the push finds it here)."""
    room = (
        Entry.objects.filter(arena__code=code, account_id=account_id, state=Entry.State.RACING)
        .values_list("room_code", flat=True)
        .first()
    )
    return room or ""

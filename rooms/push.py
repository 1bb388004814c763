"""Pushes to a room's socket group. Standings are rendered once and shared by every
socket; anything else asks each socket to re-render its own view (resync)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string

from .models import Room
from .presenters import standings_context


def group_name(code: str) -> str:
    return f"room-{code}"


def push_room_update(code: str, board_only: bool = False, room=None, seats=None) -> None:
    """`room` and `seats` may be passed as just committed by the write path (saves queries)."""
    layer = get_channel_layer()
    if board_only:
        if room is None:
            room = Room.objects.get(code=code)
            seats = list(room.seats.select_related("player"))
        html = render_to_string("rooms/room.html#standings", {"room": room, **standings_context(room, seats)})
        async_to_sync(layer.group_send)(group_name(code), {"type": "room.standings", "html": html})
    else:
        async_to_sync(layer.group_send)(group_name(code), {"type": "room.refresh"})

"""What the rooms tell the rest of the site without importing it."""

from django.dispatch import Signal

# A room finished and its results are committed: sent with room_id (replays/ records its tracks).
room_finished = Signal()

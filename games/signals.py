"""What the games tell the rest of the site without importing it."""

from django.dispatch import Signal

# A Solo Run (a daily's too) finished, its last move committed: sent with run (replays/ records it).
run_finished = Signal()

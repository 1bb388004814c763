"""An arena page's socket opened or closed in this process (sent by friends/consumers.py, which
holds the page's socket; arenas/live.py ticks the arena while any is open). A signal, because
the socket's side may not import the rooms' write path that a tick goes through."""

from django.dispatch import Signal

page_opened = Signal()  # code
page_closed = Signal()  # code

from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = "Arenas"

    def ready(self):
        from rooms.signals import room_finished

        from . import live, signals, tasks

        # A finished arena room is scored off the rooms' live path (a Celery task), and its
        # players go back to the arena's pool.
        room_finished.connect(tasks.room_finished, dispatch_uid="arenas.room")
        # Each process ticks the arenas it has open pages of (their sockets are friends').
        signals.page_opened.connect(live.watch, dispatch_uid="arenas.page_opened")
        signals.page_closed.connect(live.unwatch, dispatch_uid="arenas.page_closed")

from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"
    verbose_name = "Replays and ghosts"

    def ready(self):
        from games.signals import run_finished
        from rooms.signals import room_finished

        from . import tasks

        # Recorded once each: a Solo Run at its finish (one run's log, in the request), a
        # room through Celery (its whole move log, off the live path).
        run_finished.connect(tasks.run_finished, dispatch_uid="replays.run")
        room_finished.connect(tasks.room_finished, dispatch_uid="replays.room")

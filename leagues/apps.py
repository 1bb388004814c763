from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self):
        from games.signals import run_finished
        from rooms.signals import room_finished

        from . import placement

        # A player is placed in the week's league when they first play in it.
        run_finished.connect(placement.run_finished, dispatch_uid="leagues.run")
        room_finished.connect(placement.room_finished, dispatch_uid="leagues.room")

from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "games.daily"
    label = "daily"
    verbose_name = "Daily puzzles"

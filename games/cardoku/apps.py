from django.apps import AppConfig


class CardokuConfig(AppConfig):
    name = "games.cardoku"
    label = "cardoku"
    verbose_name = "Cardoku"

from django.apps import AppConfig


class DominoConfig(AppConfig):
    name = "games.domino"
    label = "domino"
    verbose_name = "Sudoku Domino"

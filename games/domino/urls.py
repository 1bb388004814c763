from django.urls import path

from . import views

urlpatterns = [
    path("", views.domino_home, name="domino_home"),
    path("new/", views.domino_new, name="domino_new"),
    path("<int:game_id>/", views.domino_game, name="domino_game"),
    path("<int:game_id>/act/", views.domino_act, name="domino_act"),
]

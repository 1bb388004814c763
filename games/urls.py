from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
    path("solo/new/", views.solo_new, name="solo_new"),
    path("solo/<int:run_id>/", views.solo_run, name="solo_run"),
    path("solo/<int:run_id>/act/", views.solo_act, name="solo_act"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("how-to-play/", views.how_to_play, name="how_to_play"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("", views.setup, name="cardoku_setup"),
    path("new/", views.new_game, name="cardoku_new"),
    path("layout/check/", views.check_layout, name="cardoku_check_layout"),
    path("<int:game_id>/", views.game_page, name="cardoku_game"),
    path("<int:game_id>/act/", views.act, name="cardoku_act"),
    path("<int:game_id>/option/", views.option, name="cardoku_option"),
]

from django.urls import path

from . import share, views

urlpatterns = [
    path("", views.daily_home, name="daily"),
    path("start/", views.daily_start, name="daily_start"),
    path("practice/", views.daily_practice, name="daily_practice"),
    path("archive/", views.daily_archive, name="daily_archive"),
    path("card/<int:run_id>.png", share.daily_card, name="daily_card"),
    path("shared/<int:run_id>/", share.daily_shared, name="daily_shared"),
    path("<str:date>/<str:level>/", views.daily_board, name="daily_board"),
]

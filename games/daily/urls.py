from django.urls import path

from . import views

urlpatterns = [
    path("", views.daily_home, name="daily"),
    path("start/", views.daily_start, name="daily_start"),
    path("practice/", views.daily_practice, name="daily_practice"),
    path("archive/", views.daily_archive, name="daily_archive"),
    path("<str:date>/<str:level>/", views.daily_board, name="daily_board"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("rankings/", views.rankings, name="rankings"),
    path("rankings/solo/<str:level>/<str:kind>/", views.rankings, name="rankings_solo"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("race/", views.race_page, name="race"),
    path("race/now/", views.race_ask, name="race_ask"),
    path("race/status/", views.race_status, name="race_status"),
    path("race/cancel/", views.race_cancel, name="race_cancel"),
]

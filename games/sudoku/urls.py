from django.urls import path

from . import views

urlpatterns = [
    path("new/", views.solo_new, name="solo_new"),
    path("<int:run_id>/", views.solo_run, name="solo_run"),
    path("<int:run_id>/act/", views.solo_act, name="solo_act"),
]

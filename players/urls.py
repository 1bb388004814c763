from django.urls import path

from . import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("settings/", views.display_settings, name="display_settings"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("replay/room/<str:code>/", views.room_replay, name="room_replay"),
    path("replay/run/<int:run_id>/", views.run_replay, name="run_replay"),
    path("replay/ghost/<int:track_id>/", views.race_ghost, name="race_ghost"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("rooms/new/", views.room_new, name="room_new"),
    path("rooms/join/", views.room_join, name="room_join"),
    path("r/<str:code>/", views.room_page, name="room"),
    path("r/<str:code>/join/", views.room_join, name="room_join_code"),
    path("r/<str:code>/leave/", views.room_leave, name="room_leave"),
    path("r/<str:code>/rematch/", views.room_rematch, name="room_rematch"),
    path("r/<str:code>/calendar.ics", views.room_calendar, name="room_calendar"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("arenas/", views.arenas, name="arenas"),
    path("arenas/new/", views.arena_new, name="arena_new"),
    path("arena/<str:code>/", views.arena_page, name="arena"),
    path("arena/<str:code>/join/", views.arena_join, name="arena_join"),
    path("arena/<str:code>/pause/", views.arena_pause, name="arena_pause"),
    path("arena/<str:code>/berserk/", views.arena_berserk, name="arena_berserk"),
    path("arena/<str:code>/remind/", views.arena_remind, name="arena_remind"),
    path("arena/<str:code>/status/", views.arena_status, name="arena_status"),
]

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("cardoku/", include("games.cardoku.urls")),
    path("domino/", include("games.domino.urls")),
    path("", include("stats.urls")),
    path("", include("rooms.urls")),
]

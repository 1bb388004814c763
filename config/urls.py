from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path


def favicon(request):
    """Browsers and tools that ask for /favicon.ico get the SVG icon base.html links."""
    return redirect(static("favicon.svg"), permanent=True)


urlpatterns = [
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the footer's switch
    path("", include("pages.urls")),  # the home page and How to Play
    path("solo/", include("games.sudoku.urls")),
    path("cardoku/", include("games.cardoku.urls")),
    path("domino/", include("games.domino.urls")),
    path("daily/", include("games.daily.urls")),
    path("", include("accounts.urls")),
    path("", include("players.urls")),
    path("", include("stats.urls")),
    path("", include("rooms.urls")),
    path("", include("pool.urls")),
    path("", include("replays.urls")),
    path("", include("friends.urls")),
    path("", include("leagues.urls")),
    path("", include("arenas.urls")),
    path("", include("notify.urls")),  # /sw.js and the manifest at the root: the worker's scope is "/"
]

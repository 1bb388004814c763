"""The site's URLs and one view that fails, to see the 500 page a real error gets."""

from django.urls import path

from config.urls import urlpatterns as site


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [*site, path("boom/", boom)]

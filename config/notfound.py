"""The site's own 404 page with DEBUG on too.

With DEBUG on, Django answers an unknown URL or a raised Http404 with its technical page
(every URL pattern, 981 px wide on a phone). This middleware answers with the page
production shows (django.views.defaults.page_not_found renders templates/404.html), so
what a player meets during `make run` is what they meet in production. Tracebacks of real
errors (500) keep their technical page in DEBUG: that one is for the developer."""

from django.conf import settings
from django.http import Http404
from django.views.defaults import page_not_found


class StyledNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # No URL pattern matched: the 404 came from the resolver, not from a view.
        if settings.DEBUG and response.status_code == 404 and getattr(request, "resolver_match", None) is None:
            return page_not_found(request, Http404())
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):
            return page_not_found(request, exception)
        return None

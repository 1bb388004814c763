"""The site's own 404 and 500 pages with DEBUG on too.

With DEBUG on, Django answers an unknown URL or a raised Http404 with its technical page
(every URL pattern, 981 px wide on a phone) and an error with its traceback page. This
middleware answers with the pages production shows (django.views.defaults renders
templates/404.html and 500.html), so what a player meets during `make run` is what they
meet in production. The developer still gets the traceback: it is logged to the console,
as Django logs every 500 (logger django.request)."""

import logging

from allauth.core.exceptions import ImmediateHttpResponse, ReauthenticationRequired
from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.views.defaults import page_not_found, server_error

logger = logging.getLogger("django.request")

# Exceptions Django turns into answers of their own (400, 403), a dropped database's 503
# (config.database), and allauth's signals (its middleware answers "re-authenticate first" with
# a redirect to the code page, and an immediate response with that response): they must not
# become a 500 here.
HANDLED_ELSEWHERE = (
    PermissionDenied,
    BadRequest,
    SuspiciousOperation,
    OperationalError,
    InterfaceError,
    ImmediateHttpResponse,
    ReauthenticationRequired,
)


class StyledErrorPagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # No URL pattern matched: the 404 came from the resolver, not from a view.
        if settings.DEBUG and response.status_code == 404 and getattr(request, "resolver_match", None) is None:
            return page_not_found(request, Http404())
        return response

    def process_exception(self, request, exception):
        if not settings.DEBUG:
            return None  # production's handlers already render the styled pages
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        if not isinstance(exception, HANDLED_ELSEWHERE):
            logger.error("Internal Server Error: %s", request.path, exc_info=exception, extra={"request": request})
            response = server_error(request)
            response._has_been_logged = True  # logged once, above, with its traceback
            return response
        return None

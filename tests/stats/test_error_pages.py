"""The site's own 404 and 500 pages, with DEBUG on (make run) as in production."""

from pathlib import Path

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error


@pytest.mark.parametrize("debug", [True, False])
def test_unknown_urls_get_the_styled_404(player_client, settings, debug):
    settings.DEBUG = debug
    response = player_client.get("/no/such/<page>/")
    html = response.content.decode()
    assert response.status_code == 404
    assert (
        "This cell is empty" in html and 'href="/"' in html and "/no/such/%3Cpage%3E/" in html and "<page>" not in html
    )
    assert "URLconf" not in html and "admin/" not in html  # not Django's technical page listing every URL


@pytest.mark.parametrize("debug", [True, False])
def test_a_missing_object_gets_the_styled_404(player_client, settings, debug):
    settings.DEBUG = debug
    response = player_client.get("/solo/987654/")  # get_object_or_404 raises Http404
    assert response.status_code == 404 and b"This cell is empty" in response.content
    assert b"Raised by" not in response.content


def test_a_views_own_404_message_is_kept(player_client, settings):
    settings.DEBUG = True
    response = player_client.get("/r/ZZZZZZ/")  # the room view answers with its own message page
    assert response.status_code == 404 and b"This cell is empty" not in response.content


def test_missing_slash_still_redirects_in_debug(player_client, settings):
    settings.DEBUG = True
    response = player_client.get("/leaderboards")
    assert response.status_code == 301 and response["Location"] == "/leaderboards/"


def test_500_page_renders_without_a_request_context(db):
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in html and "site.css" in html and 'href="/"' in html


@pytest.mark.urls("tests.stats.boom_urls")
@pytest.mark.parametrize("debug", [True, False])
def test_a_failing_view_gets_the_styled_500(player_client, settings, caplog, debug):
    # With DEBUG on (make run) too: the player sees the site's page, the developer the
    # traceback in the console (config/errorpages.py).
    settings.DEBUG = debug
    player_client.raise_request_exception = False
    response = player_client.get("/boom/")
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in html and "site.css" in html
    assert "RuntimeError" not in html and "a bug" not in html and "Traceback" not in html
    logged = [r for r in caplog.records if r.name == "django.request" and r.levelname == "ERROR"]
    assert len(logged) == 1 and logged[0].exc_info and "a bug" in str(logged[0].exc_info[1])


def test_favicon(client, db):
    html = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in html
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    from django.contrib.staticfiles import finders

    icon = finders.find("favicon.svg")  # the file the link and the redirect point at
    assert icon and Path(icon).read_text().lstrip().startswith("<svg")


def test_a_django_log_line_is_printed_once_with_debug_on_too(settings):
    """make run (DEBUG on) printed every django.* line twice: Django's own console handler
    and the root's (config/settings.py LOGGING)."""
    import logging

    settings.DEBUG = True  # Django's console handler prints only then
    printed = []
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error", None, None)
    logger: logging.Logger | None = logging.getLogger("django.request")
    while logger is not None:
        # (pytest's capture handlers are StreamHandler subclasses: not printed to the console)
        printed += [h for h in logger.handlers if type(h) is logging.StreamHandler and h.filter(record)]
        logger = logger.parent if logger.propagate else None
    assert len(printed) == 1

"""Sessions read from the cache (accounts/sessions.py, issue 22): a signed-in player's request
pays no session query, and with the cache (Redis) away a session still works from the database."""

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.accounts.test_sign_in import sign_up
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada_signed_in(smtp, player):
    """Ada's browser, signed up (and so signed in) by a code."""
    client = client_for(player)
    sign_up(client, smtp)
    return client


def test_a_signed_in_request_reads_its_session_from_the_cache(ada_signed_in):
    ada_signed_in.get("/account/")
    with CaptureQueriesContext(connection) as queries:
        assert ada_signed_in.get("/account/").status_code == 200
    assert not [q for q in queries.captured_queries if "django_session" in q["sql"]]


def test_with_the_cache_away_a_session_is_read_and_ended_in_the_database(ada_signed_in, monkeypatch):
    key = ada_signed_in.session.session_key

    def away(*args, **kwargs):
        raise ConnectionError("Redis away")

    backend = caches["default"]  # the session's cache, and every other use of it
    for name in ("get", "set", "delete", "add", "incr", "touch", "has_key"):
        monkeypatch.setattr(backend, name, away)
    page = ada_signed_in.get("/account/")
    assert page.status_code == 200 and "ada@example.com" in page.content.decode()  # still signed in
    assert ada_signed_in.post("/accounts/logout/").status_code == 302
    assert not Session.objects.filter(session_key=key).exists()
    assert ada_signed_in.get("/account/").status_code == 302  # signed out


def test_another_browsers_player_cookie_beside_a_session_does_not_sign_it_out(ada_signed_in, db):
    """Issue 45 item 9: account A's session with another browser's player cookie signed A out.
    Now A stays signed in, plays as A's own profile, and gets A's cookie back."""
    from django.conf import settings

    from players.models import Profile

    own = Profile.objects.get(account__isnull=False)
    other = Profile.objects.create(display_name="Someone else")
    ada_signed_in.cookies[settings.PLAYER_COOKIE_NAME] = client_for(other).cookies[settings.PLAYER_COOKIE_NAME].value
    page = ada_signed_in.get("/account/")
    assert page.status_code == 200 and "ada@example.com" in page.content.decode()  # still signed in
    from players.middleware import cookie_token

    restored = ada_signed_in.cookies[settings.PLAYER_COOKIE_NAME].value
    assert cookie_token({"cookies": {settings.PLAYER_COOKIE_NAME: restored}}) == own.token  # its own cookie back
    assert "Someone else" not in ada_signed_in.get("/profile/").content.decode()  # never the other's profile

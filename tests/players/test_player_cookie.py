"""The player cookie: a profile only when a player first does something, a one-year cookie
renewed on use, and pages that only display create nothing (issue 12, sections 6 and 7)."""

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse

from players.middleware import guest
from players.models import Profile
from rooms.api import create_room
from tests.conftest import client_for

YEAR = 365 * 86400
COOKIE = settings.PLAYER_COOKIE_NAME


@pytest.mark.parametrize(
    "method, path",
    [
        ("head", "/how-to-play/"),
        ("get", "/how-to-play/"),
        ("get", "/"),
        ("head", "/"),
        ("get", "/solo/"),
        ("get", "/cardoku/"),
        ("get", "/domino/"),
        ("get", "/leaderboards/"),
        ("get", "/profile/"),
        ("get", "/r/ZZZZZZ/"),
    ],
)
def test_pages_that_only_display_create_no_profile_and_set_no_cookie(client, db, method, path):
    response = getattr(client, method)(path)
    assert response.status_code in (200, 404, 405), path  # HEAD is a GET without a body (require_safe)
    assert COOKIE not in response.cookies
    assert not Profile.objects.exists()


def test_a_guest_sees_no_name_and_cannot_be_saved(client, db):
    html = client.get("/").content.decode()
    assert 'class="who"' not in html
    with pytest.raises(ValueError):
        guest().save()


def test_refused_input_creates_no_profile(client, db):
    assert client.post(reverse("room_new"), {"level": "insane"}).status_code == 400
    assert client.post(reverse("profile"), {"display_name": "   "}).status_code == 400
    assert not Profile.objects.exists()


def test_first_action_creates_a_profile_with_a_one_year_httponly_cookie(client, db, bank_puzzle):
    """Picking a name is not yet an action (issue 28, item 8: 200 cookieless name posts made
    200 profiles): the name waits in a cookie, and the first real action (here creating a
    room) makes the profile with it."""
    response = client.post(reverse("profile"), {"display_name": "Ada"})
    assert response.status_code == 302 and not Profile.objects.exists()
    assert 'value="Ada"' in client.get(reverse("profile")).content.decode()  # the name it will have
    response = client.post(reverse("room_new"), {"level": "easy", "preset": "standard"})
    cookie = response.cookies[COOKIE]
    assert response.status_code == 302 and Profile.objects.get().display_name == "Ada"
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and int(cookie["max-age"]) == YEAR
    assert COOKIE not in client.get("/").cookies  # known browser: same profile, no new cookie
    assert 'class="who"' in client.get("/").content.decode()
    assert Profile.objects.count() == 1


def test_a_room_page_gives_a_new_visitor_a_cookie_but_no_profile(client, player, bank_puzzle):
    """Issue 28, item 8: 200 cookieless GETs of a real room made 200 profiles. The page issues
    the cookie its live socket needs; the profile is made when the browser opens that socket
    (tests/rooms/test_socket_limits.py), with the cookie's token."""
    room = create_room(player, level="easy")
    for _ in range(5):
        fresh = type(client)()
        response = fresh.get(reverse("room", args=[room.code]))
        assert response.status_code == 200 and COOKIE in response.cookies
    assert Profile.objects.count() == 1  # the host only
    again = client.get(reverse("room", args=[room.code]))
    assert COOKIE in again.cookies
    assert COOKIE not in client.get(reverse("room", args=[room.code])).cookies  # issued once
    assert Profile.objects.count() == 1


def test_the_cookie_is_renewed_on_use_and_expires_after_a_year_unused(player):
    with time_machine.travel(dt.datetime(2026, 1, 1, tzinfo=dt.UTC), tick=False) as clock:
        client = client_for(player)
        clock.shift(dt.timedelta(hours=2))
        assert COOKIE not in client.get(reverse("leaderboards")).cookies  # fresh: not re-sent
        clock.shift(dt.timedelta(days=200))
        renewed = client.get(reverse("leaderboards")).cookies[COOKIE]
        assert int(renewed["max-age"]) == YEAR
        clock.shift(dt.timedelta(days=300))  # 300 days after the renewal, 500 after the first
        assert 'class="who"' in client.get("/").content.decode()
        clock.shift(dt.timedelta(days=366))  # unused for over a year: no longer honoured
        response = client.get("/")
        assert 'class="who"' not in response.content.decode() and COOKIE not in response.cookies

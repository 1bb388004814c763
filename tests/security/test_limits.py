"""Per-client limits (issue 12, sections 4 and 6): room-code guessing is limited per client
IP however many cookies are thrown away, and rooms / games are created at a bounded rate."""

import datetime as dt
import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import Puzzle
from players.models import Profile
from rooms import limits
from rooms.api import create_room
from rooms.models import Room
from tests.conftest import PUZZLE, SOLUTION, client_for


def fresh_browser(ip="203.0.113.7", **extra):
    """A client with no cookie at all, as a guesser that drops its cookie on every try."""
    return Client(REMOTE_ADDR=ip, **extra)


def test_dropping_the_cookie_does_not_reset_the_join_limit(db, player, bank_puzzle):
    room = create_room(player, level="easy")
    for _ in range(10):
        assert fresh_browser().post(reverse("room_join"), {"code": "ZZZZZZ"}).status_code == 404
    response = fresh_browser().post(reverse("room_join"), {"code": room.code})
    assert response.status_code == 429 and b"Too many failed join attempts" in response.content
    assert fresh_browser("198.51.100.1").post(reverse("room_join"), {"code": "ZZZZZZ"}).status_code == 404


def test_room_page_misses_are_limited_and_a_limited_guesser_cannot_tell_hits(db, player, bank_puzzle):
    room = create_room(player, level="easy")
    for _ in range(10):
        assert fresh_browser().get(reverse("room", args=["ZZZZZZ"])).status_code == 404
    assert fresh_browser().get(reverse("room", args=["ZZZZZY"])).status_code == 429
    response = fresh_browser().get(reverse("room", args=[room.code]))
    assert response.status_code == 429 and b"Wait a few minutes" in response.content
    # The host, on the same network, still reaches the room they sit in.
    assert (
        client_for(
            player,
        )
        .get(reverse("room", args=[room.code]), REMOTE_ADDR="203.0.113.7")
        .status_code
        == 200
    )


def test_page_misses_and_join_misses_share_one_counter(db):
    for _ in range(5):
        fresh_browser().get(reverse("room", args=["ZZZZZZ"]))
        fresh_browser().post(reverse("room_join"), {"code": "ZZZZZZ"})
    assert fresh_browser().post(reverse("room_join"), {"code": "ZZZZZZ"}).status_code == 429
    assert not Profile.objects.filter(seats__isnull=False).exists()


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"])
def test_client_ip_comes_from_a_trusted_proxy_only():
    class Request:
        def __init__(self, remote, forwarded):
            self.META = {"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": forwarded}

    assert limits.client_ip(Request("127.0.0.1", "198.51.100.9")) == "198.51.100.9"
    # A client cannot pick its address: the proxy appends the real one on the right.
    assert limits.client_ip(Request("127.0.0.1", "1.2.3.4, 198.51.100.9")) == "198.51.100.9"
    assert limits.client_ip(Request("127.0.0.1", "198.51.100.9, 10.1.2.3")) == "198.51.100.9"
    assert limits.client_ip(Request("203.0.113.5", "198.51.100.9")) == "203.0.113.5"  # not a proxy
    assert limits.client_ip(Request("127.0.0.1", "not-an-ip")) == "127.0.0.1"
    scope = {"client": ["127.0.0.1", 5555], "headers": [(b"x-forwarded-for", b"198.51.100.9")]}
    assert limits.client_ip(scope) == "198.51.100.9"
    assert limits.client_ip({"client": None, "headers": []}) == ""


def test_without_trusted_proxies_the_forwarded_header_is_ignored(db):
    for i in range(10):
        fresh_browser(HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").get(reverse("room", args=["ZZZZZZ"]))
    assert fresh_browser(HTTP_X_FORWARDED_FOR="198.51.100.99").get(reverse("room", args=["ZZZZZZ"])).status_code == 429


def test_socket_handshake_api_counts_misses_per_ip(db, player, bank_puzzle):
    room = create_room(player, level="easy")
    stranger = Profile.objects.create()
    for _ in range(10):
        assert limits.lookup_allowed("192.0.2.1", stranger, "ZZZZZZ")
        limits.count_miss("192.0.2.1")
    assert limits.limited("192.0.2.1") and not limits.limited("192.0.2.2")
    assert not limits.lookup_allowed("192.0.2.1", stranger, room.code)
    assert not limits.lookup_allowed("192.0.2.1", None, room.code)
    assert limits.lookup_allowed("192.0.2.1", player, room.code)  # seated (host): still reachable


def test_room_creation_is_limited_per_profile_with_a_clear_429(player_client, player, bank_puzzle):
    for _ in range(10):
        assert player_client.post(reverse("room_new"), {"level": "easy", "preset": "standard"}).status_code == 302
    response = player_client.post(reverse("room_new"), {"level": "easy", "preset": "standard"})
    assert response.status_code == 429 and b"too many rooms" in response.content
    assert Room.objects.count() == 10


@override_settings(CREATION_LIMITS={"room": (3, 100), "game": (3, 100)})
def test_a_first_visits_creation_counts_for_the_profile_it_made(client, bank_puzzle):
    """Issue 45 item 9: the creation that made the profile was not counted (4 rooms of 3)."""
    for _ in range(3):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=1)
    named = {"level": "easy", "display_name": "Newcomer"}  # a first room asks for a name first
    answers = [client.post(reverse("room_new"), named).status_code for _ in range(4)]
    assert answers == [302, 302, 302, 429] and Room.objects.count() == 3
    fresh = Client()  # a first visit again, starting Solo Runs
    games = [fresh.post(reverse("solo_new"), {"level": "easy"}).status_code for _ in range(4)]
    assert games == [302, 302, 302, 429]


@override_settings(CREATION_LIMITS={"room": (100, 5), "game": (100, 5)})
def test_room_creation_is_limited_per_ip_across_cookies(db, bank_puzzle):
    for i in range(5):
        browser = client_for(Profile.objects.create(display_name=f"P{i}"))
        assert browser.post(reverse("room_new"), {"level": "easy"}, REMOTE_ADDR="203.0.113.9").status_code == 302
    browser = client_for(Profile.objects.create(display_name="P6"))
    assert browser.post(reverse("room_new"), {"level": "easy"}, REMOTE_ADDR="203.0.113.9").status_code == 429
    assert browser.post(reverse("room_new"), {"level": "easy"}, REMOTE_ADDR="203.0.113.10").status_code == 302


@override_settings(CREATION_LIMITS={"room": (2, 100), "game": (2, 100)})
def test_creation_limit_decorator_refuses_with_429_and_calls_nothing(rf, player):
    from players.middleware import PlayerMiddleware

    calls = []

    @limits.creation_limit("game")
    def new_game(request):
        calls.append(request)
        from django.http import HttpResponse

        return HttpResponse("made")

    def post(htmx=False):
        request = rf.post("/solo/new/", HTTP_HX_REQUEST="true" if htmx else None)
        request.COOKIES = client_for(player).cookies and {k: v.value for k, v in client_for(player).cookies.items()}
        request.htmx = htmx
        return PlayerMiddleware(new_game)(request)

    assert post().status_code == 200 and post().status_code == 200
    refused = post()
    assert refused.status_code == 429 and b"too many new games" in refused.content and len(calls) == 2
    htmx_refused = post(htmx=True)
    assert htmx_refused.status_code == 429 and htmx_refused["HX-Retarget"] == "#flash"


@override_settings(CREATION_LIMITS={"room": (100, 100), "game": (3, 100)})
def test_new_solo_cardoku_and_domino_games_share_one_limit_per_profile(player_client, player, bank_puzzle):
    from games.models import SoloRun

    assert player_client.post(reverse("solo_new"), {"level": "easy"}).status_code == 302
    assert player_client.post(reverse("cardoku_new"), {}).status_code == 302
    assert player_client.post(reverse("domino_new"), {"level": "nope"}).status_code == 400
    for name, data in (("solo_new", {"level": "easy"}), ("cardoku_new", {}), ("domino_new", {"level": "easy"})):
        response = player_client.post(reverse(name), data)
        assert response.status_code == 429 and b"too many new games" in response.content, name
    htmx = player_client.post(reverse("solo_new"), {"level": "easy"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 429 and htmx["HX-Retarget"] == "#flash"
    assert SoloRun.objects.count() == 1


# --- issue 28, item 5: every lookup by code goes through the one miss limit ---------------


@pytest.fixture
def scheduled_room(player, bank_puzzle):
    return create_room(player, level="easy", scheduled_for=timezone.now() + dt.timedelta(days=2), host_timezone="UTC")


def lookups(code):
    """Every request that finds a room by its code, as a guesser without a seat sends it."""
    return [
        ("get", reverse("room_join_code", args=[code])),
        ("post", reverse("room_leave", args=[code])),
        ("post", reverse("room_rematch", args=[code])),
        ("get", reverse("room_calendar", args=[code])),
        ("get", reverse("room", args=[code])),
    ]


def answer(response):
    """What a client can compare between two answers. A form's CSRF token is masked afresh in
    every response (Django's defence against BREACH), so it is left out."""
    text = response.content.decode()
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', text)
    return response.status_code, response.get("Location"), text[text.find("<main") : text.find("</main>")]


def test_a_wrong_code_answers_like_a_real_room_the_client_is_not_in(db, player, bank_puzzle):
    real = create_room(player, level="easy")  # not scheduled: no calendar either
    for (method, wrong), (_, right) in list(zip(lookups("ZZZZZZ"), lookups(real.code), strict=True))[:4]:
        if "/join/" in wrong:
            continue  # a real room's join page is the name page: a hit, counted below
        browser = fresh_browser(f"198.51.100.{len(wrong) % 200}")
        assert answer(getattr(browser, method)(wrong)) == answer(getattr(browser, method)(right)), wrong


def test_each_lookup_by_code_counts_a_miss_and_is_refused_once_limited(db, player, scheduled_room):
    guesser = "203.0.113.9"
    assert fresh_browser(guesser).get(reverse("room_join_code", args=["ZZZZZZ"])).status_code == 404  # was 302 to /
    for method, path in lookups("ZZZZZY")[1:] * 3:  # leave, rematch, calendar, page: 12 misses
        getattr(fresh_browser(guesser), method)(path)
    for method, path in lookups(scheduled_room.code):
        response = getattr(fresh_browser(guesser), method)(path)
        assert response.status_code == 429 and b"Wait a few minutes" in response.content, path
    # Another address still finds the room, and its host reaches it from the limited one.
    assert fresh_browser("198.51.100.7").get(reverse("room_calendar", args=[scheduled_room.code])).status_code == 200
    host = client_for(player)
    assert host.get(reverse("room_calendar", args=[scheduled_room.code]), REMOTE_ADDR=guesser).status_code == 200

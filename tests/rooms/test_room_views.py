"""Room pages and forms: create, join by code or link, refusals, rate limit, admin."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from players.models import Profile
from rooms import actions as A
from rooms.api import act
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, Seat
from tests.conftest import client_for

pytestmark = pytest.mark.usefixtures("empty_cache")  # no rate counter of another test's


def test_create_room_makes_the_creator_host_and_redirects_to_the_lobby(player_client, player, bank_puzzle):
    response = player_client.post(reverse("room_new"), {"level": "hard", "preset": "hardcore"})
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("room", args=[room.code])
    assert room.host == player and room.level == "hard" and room.rules["mistake_cap"] == 3
    html = player_client.get(response["Location"]).content.decode()
    assert room.code in html and "Start showdown" in html and "Apply rules" in html


def test_create_room_refuses_unknown_options(player_client):
    assert player_client.post(reverse("room_new"), {"level": "x", "preset": "standard"}).status_code == 400
    assert player_client.post(reverse("room_new"), {"level": "easy", "preset": "mean"}).status_code == 400
    chess = player_client.post(reverse("room_new"), {"level": "easy", "preset": "standard", "game": "chess"})
    html = chess.content.decode()
    assert chess.status_code == 400 and all(game.label in html for game in GAME_TYPES.values())
    assert not Room.objects.exists()


def test_join_by_lowercase_code_and_by_link(room, other_player, db):
    response = client_for(other_player).post(reverse("room_join"), {"code": room.code.lower()})
    assert response.status_code == 302 and Seat.objects.filter(room=room, player=other_player).exists()
    third = Profile.objects.create(display_name="Third")
    response = client_for(third).post(reverse("room_join_code", args=[room.code]))
    assert response.status_code == 302 and Seat.objects.filter(room=room).count() == 3


def test_non_seated_visitor_watches_and_sees_no_host_controls(room, other_player):
    html = client_for(other_player).get(reverse("room", args=[room.code])).content.decode()
    assert "You are watching this room" in html and "Join as Grace" in html
    assert "Apply rules" not in html and "Start showdown" not in html


def test_unknown_code_and_bad_codes(player_client):
    response = player_client.post(reverse("room_join"), {"code": "ZZZZZZ"})
    assert response.status_code == 404 and b"No room has that code" in response.content
    assert player_client.post(reverse("room_join"), {"code": "AB"}).status_code == 400
    assert player_client.get(reverse("room", args=["ZZZZZZ"])).status_code == 404
    assert player_client.get(reverse("room", args=["abcdef"])).status_code == 302  # normalised


@pytest.mark.parametrize("code", ["ZZZZZZ", "AB"])
def test_a_wrong_code_offers_the_join_form_again(player_client, code):
    """Issue 43, item 15: a wrong code was a dead end (a message and a link home)."""
    response = player_client.post(reverse("room_join"), {"code": code})
    html = response.content.decode()
    assert response.status_code in (400, 404)
    assert f'action="{reverse("room_join")}"' in html and 'name="code"' in html and "Join room" in html
    response = player_client.get(reverse("room", args=["ZZZZZZ"]))
    assert response.status_code == 404 and 'name="code"' in response.content.decode()


def test_sixth_player_and_late_join_get_clear_messages(room, player, db):
    guests = [Profile.objects.create(display_name=f"P{i}") for i in range(5)]
    for guest in guests[:4]:
        client_for(guest).post(reverse("room_join"), {"code": room.code})
    response = client_for(guests[4]).post(reverse("room_join"), {"code": room.code})
    assert response.status_code == 409 and b"room is full" in response.content
    for seat in Seat.objects.filter(room=room):
        act(room.code, seat.player, A.SetReady(True))
    act(room.code, player, A.Start())
    response = client_for(guests[4]).post(reverse("room_join"), {"code": room.code})
    assert response.status_code == 409 and b"already started" in response.content
    assert Seat.objects.filter(room=room).count() == 5


def test_failed_joins_are_rate_limited_per_client(player_client, room):
    for _ in range(10):
        assert player_client.post(reverse("room_join"), {"code": "ZZZZZZ"}).status_code == 404
    response = player_client.post(reverse("room_join"), {"code": room.code})
    assert response.status_code == 429 and b"Too many failed" in response.content


def test_leave_the_lobby_and_wrong_methods(room, player, player_client, other_player):
    act(room.code, other_player, A.Join())
    response = player_client.post(reverse("room_leave", args=[room.code]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == "/"
    room.refresh_from_db()
    assert room.host == other_player
    assert player_client.get(reverse("room_leave", args=[room.code])).status_code == 405
    assert player_client.get(reverse("room_join")).status_code == 405
    response = player_client.post(reverse("room_leave", args=[room.code]))
    assert response.status_code == 409 and b"watching" in response.content


def test_room_forms_need_csrf(player, room):
    from django.test import Client

    from tests.conftest import cookie_for

    client = Client(enforce_csrf_checks=True)
    client.cookies["showdown_player"] = cookie_for(player)
    assert client.post(reverse("room_new"), {"level": "easy", "preset": "standard"}).status_code == 403
    assert client.post(reverse("room_leave", args=[room.code])).status_code == 403
    assert Room.objects.count() == 1 and Seat.objects.filter(room=room).exists()


def test_admin_lists_rooms_and_expires_them(room, client):
    admin = User.objects.create_superuser("staff", "staff@example.com", "pw-for-tests-only")
    client.force_login(admin)
    assert client.get(reverse("admin:rooms_room_changelist") + "?state=lobby").status_code == 200
    page = client.get(reverse("admin:rooms_room_change", args=[room.pk]))
    assert page.status_code == 200 and b"create" in page.content  # the read-only event log
    response = client.post(
        reverse("admin:rooms_room_changelist"), {"action": "expire_rooms", "_selected_action": [room.pk]}
    )
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.state == "expired" and room.expiry_reason == "Closed by the site staff."


def test_admin_pages_for_games_and_profiles(client, bank_puzzle, player):
    admin = User.objects.create_superuser("staff", "staff@example.com", "pw-for-tests-only")
    client.force_login(admin)
    for name in ("admin:games_puzzle_changelist", "admin:games_solorun_changelist", "admin:players_profile_changelist"):
        assert client.get(reverse(name)).status_code == 200
    assert client.get(reverse("admin:games_puzzle_changelist") + "?level=easy&q=530070").status_code == 200


def test_silhouette_paths_draw_start_and_filled_squares_only():
    from rooms.presenters import silhouette_paths

    classes = [""] * 81
    classes[0] = "g"  # row 1, column 1: a given
    classes[10] = "f"  # row 2, column 2: filled by the player
    classes[80] = "f"  # row 9, column 9
    assert silhouette_paths(classes) == {"given_path": "M0 0h1v1h-1z", "filled_path": "M1 1h1v1h-1zM8 8h1v1h-1z"}
    assert silhouette_paths([]) == {"given_path": "", "filled_path": ""}


@pytest.mark.parametrize("zone", ["Factory", "localtime", "posixrules", "Mars/Olympus"])
def test_schedule_time_zone_must_be_an_iana_place(player_client, bank_puzzle, zone):
    from rooms.views import time_zones

    assert zone not in time_zones() and "Europe/Paris" in time_zones() and "UTC" in time_zones()
    response = player_client.post(
        reverse("room_new"), {"level": "easy", "scheduled_at": "2030-01-01T10:00", "timezone": zone}
    )
    assert response.status_code == 400 and b"Pick a time zone from the list" in response.content
    assert not Room.objects.exists()


class RoomForm(HTMLParser):
    """The home page's room form as a browser holds it: each field's value (a select's is its
    selected option's, else its first's) and the text of its alerts."""

    def __init__(self, html: str):
        super().__init__()
        self.depth = 0  # inside form.room-form: the open form's nesting, 0 outside
        self.select = None
        self.options: dict[str, list[tuple[str, bool]]] = {}
        self.inputs: dict[str, str] = {}
        self.alerts: list[str] = []
        self.alert = self.option = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "room-form" in (attrs.get("class") or "").split():
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "form":
            self.depth += 1
        elif tag == "select":
            self.select = attrs["name"]
            self.options[self.select] = []
        elif tag == "option":
            self.option = [attrs.get("value"), "selected" in attrs, ""]
        elif tag == "input":
            self.inputs[attrs["name"]] = attrs.get("value", "")
        if attrs.get("role") == "alert":
            self.alert = [tag, ""]

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag == "form":
            self.depth -= 1
        elif tag == "option" and self.option:
            value, selected, text = self.option
            self.options[self.select].append((text.strip() if value is None else value, selected))
            self.option = None
        elif tag == "select":
            self.select = None
        elif self.alert and tag == self.alert[0]:
            self.alerts.append(self.alert[1])
            self.alert = None

    def handle_data(self, data):
        if self.option:
            self.option[2] += data
        if self.alert:
            self.alert[1] += data

    def value(self, name: str) -> str:
        if name in self.inputs:
            return self.inputs[name]
        options = self.options[name]
        selected = [value for value, on in options if on]
        return selected[-1] if selected else options[0][0]


def test_a_past_schedule_keeps_the_form_with_its_reason(player_client, bank_puzzle):
    """Issue 27, defect 14 (moved from tests/browser/test_ux_browser.py): a start in the past
    gives the home page again with the room form as it was sent and the reason in it."""
    home = RoomForm(player_client.get("/").content.decode())
    assert {"game", "level", "preset", "scheduled_at", "timezone"} <= {*home.options, *home.inputs}
    assert ("domino", False) in home.options["game"] and ("hardcore", False) in home.options["preset"]
    assert ("Europe/Amsterdam", False) in home.options["timezone"]
    sent = {
        "game": "domino",
        "level": home.value("level"),  # as the form offers it
        "preset": "hardcore",
        "scheduled_at": "2020-01-02T10:30",
        "timezone": "Europe/Amsterdam",
    }
    response = player_client.post(reverse("room_new"), sent)
    assert response.status_code == 400
    html = response.content.decode()
    form = RoomForm(html)
    assert len(form.alerts) == 1 and "in the past" in form.alerts[0], form.alerts
    # shown, not folded away: in the schedule's details, open
    assert re.search(r'<details class="schedule" open>((?!</details>).)*role="alert"', html, re.S)
    assert form.value("scheduled_at") == "2020-01-02T10:30"
    assert form.value("timezone") == "Europe/Amsterdam"
    assert form.value("game") == "domino"
    assert form.value("preset") == "hardcore"
    assert not Room.objects.exists()

"""Issue 45, 1: a push endpoint is a request the server makes for a stranger, so it must never
reach inside. Subscribing refuses anything but https to a push service whose every address is
public, and every send checks again, in the connection's own resolver (one lookup, the one
connected to). The `network` fixture
(conftest) stubs DNS and records connects without making any: each refusal is shown to come
before a connection is even attempted."""

import datetime as dt
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from notify import reminders
from notify.models import PushSubscription, Reminder
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Guest
from tests.conftest import client_for
from tests.notify.conftest import Browser

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)
PUBLIC = "142.250.74.42"  # a public address: the stub DNS names it, nothing connects to it

INSIDE = [
    "http://push.example.test/x",  # plain http (the name resolves to PUBLIC)
    "https://127.0.0.1:6379/",  # Redis
    "https://127.0.0.1:5432/",  # PostgreSQL
    "https://[::1]/push",
    "https://10.0.0.5/push",
    "https://192.168.1.10/push",
    "https://172.16.0.1/push",
    "https://169.254.169.254/latest/meta-data/",  # cloud metadata
    "https://2130706433/",  # 127.0.0.1 as one decimal number
    "https://0x7f.1/",  # and in hex shorthand
    "https://fcm.googleapis.com@127.0.0.1/",  # userinfo: the host is 127.0.0.1
    "https://[::ffff:127.0.0.1]/",  # IPv4-mapped loopback
    "https://[::ffff:a9fe:a9fe]/",  # IPv4-mapped metadata address
    "https://[2002:a00:1::]/",  # 6to4 wrapping 10.0.0.1
    "https://[fe80::1]/",
    "https://[fd00::1]/",
    "https://0.0.0.0/",
    "https://224.0.0.1/",  # multicast
    "https://240.0.0.1/",  # reserved
    "https://100.64.0.1/",  # carrier-grade NAT
    "https://inside.example.test/push",  # a name resolving inside
    "https://mixed.example.test/push",  # one public address and one inside: refused
    "https://nowhere.example.test/push",  # no address at all
    "https://push.example.test\\@10.0.0.1/",  # a backslash two parsers read differently
]


def endpoint_body(browser: Browser, endpoint: str) -> str:
    return json.dumps({**browser.body(), "endpoint": endpoint})


@pytest.fixture
def names(network):
    network.names.update(
        {
            "push.example.test": [PUBLIC],
            "inside.example.test": ["10.1.2.3"],
            "mixed.example.test": [PUBLIC, "192.168.0.7"],
        }
    )
    return network


@pytest.mark.parametrize("endpoint", INSIDE)
def test_subscribing_refuses_an_endpoint_that_reaches_inside_before_any_connect(db, settings, names, endpoint):
    settings.PUSH_SERVICE_HOSTS = []  # the push services' list off: the address checks alone refuse
    browser = Browser("https://push.example.test")
    anonymous = Client()
    response = anonymous.post(
        reverse("push_subscribe"), endpoint_body(browser, endpoint), content_type="application/json"
    )
    assert response.status_code == 400
    assert "push endpoint" in response.json()["error"]
    assert not PushSubscription.objects.exists() and not Profile.objects.exists()  # nothing stored
    assert names.connects == []


def test_only_the_browsers_push_services_are_accepted(db, names):
    services = [
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGmJ1d",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    ]
    others = [
        "https://push.example.test/x",
        "https://fcm.googleapis.com.push.example.test/x",  # the service's name as a prefix
        "https://evilfcm.googleapis.com/x",  # not a subdomain
    ]
    for url in services:
        names.names[url.split("/")[2]] = [PUBLIC]
    names.names["fcm.googleapis.com.push.example.test"] = [PUBLIC]
    names.names["evilfcm.googleapis.com"] = [PUBLIC]
    browser = Browser("https://push.example.test")
    page = client_for(Profile.objects.create(display_name="Grace"))
    for url in others:
        response = page.post(reverse("push_subscribe"), endpoint_body(browser, url), content_type="application/json")
        assert response.status_code == 400, url
        assert response.json()["error"] == (
            "Push notifications go only through the browsers' push services (Google, Mozilla, Apple, Microsoft)."
        )
    assert names.lookups == []  # refused on the name alone
    for url in services:
        response = page.post(reverse("push_subscribe"), endpoint_body(browser, url), content_type="application/json")
        assert response.status_code == 200, url
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == sorted(services)
    assert names.connects == []


@pytest.fixture
def guest_grace(db):
    ada, grace = Profile.objects.create(display_name="Ada"), Profile.objects.create(display_name="Grace")
    with time_machine.travel(T0, tick=False):
        room = create_room(ada, level="easy", scheduled_for=START, host_timezone="Europe/Amsterdam")
        act(room.code, grace, A.Coming(True, "Europe/London", "en"))
    Guest.objects.filter(player=grace).update(by_push=True)
    return grace


def test_a_host_that_now_resolves_inside_is_not_sent_to(guest_grace, names):
    url = "https://fcm.googleapis.com/fcm/send/abc"
    names.names["fcm.googleapis.com"] = [PUBLIC]
    page = client_for(guest_grace)
    browser = Browser("https://fcm.googleapis.com")
    assert (
        page.post(reverse("push_subscribe"), endpoint_body(browser, url), content_type="application/json").status_code
        == 200
    )
    names.names["fcm.googleapis.com"] = ["169.254.169.254"]  # the name's owner changed its DNS
    names.lookups.clear()
    with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
        assert reminders.send_all() == 0
    reminder = Reminder.objects.get()
    assert (reminder.status, reminder.detail) == ("failed", "refused")
    assert not PushSubscription.objects.exists()  # an endpoint pointing inside is dropped
    assert names.connects == []
    # Looked up once, by the connection's own resolver: no second answer to differ from the checked one.
    assert names.lookups == ["fcm.googleapis.com"]


class Recorder:
    """A service inside (think Redis or the metadata server) that counts what reaches it."""

    def __init__(self):
        self.hits: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                recorder.hits.append(self.path)
                self.send_response(201)
                self.end_headers()

            do_GET = do_POST

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/inside"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_from_the_push_service_is_not_followed(guest_grace, push_peer, status):
    inside = Recorder()
    try:
        browser = push_peer.browser(status=status, location=inside.url)
        browser.subscription(guest_grace)
        with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
            assert reminders.send_all() == 0
        assert len(browser.received) == 1 and inside.hits == []
        assert Reminder.objects.get().status == "failed"
        assert PushSubscription.objects.get().failures == 1  # kept: a redirect may be a passing fault
    finally:
        inside.close()


def test_the_test_switch_admits_loopback_and_nothing_else(guest_grace, push_peer, settings, names):
    browser = push_peer.browser()
    page = client_for(guest_grace)
    url = reverse("push_subscribe")
    # On (push_peer turned it on): loopback passes, plain http to it too; private ranges do not.
    response = page.post(url, endpoint_body(browser, "https://10.0.0.5/push"), content_type="application/json")
    assert response.status_code == 400
    response = page.post(url, endpoint_body(browser, "http://push.example.test/x"), content_type="application/json")
    assert response.json()["error"] == "The push endpoint must be an https:// address."  # http: to loopback only
    # Off (the default): the same local peer is refused, at subscribe and at send.
    settings.PUSH_ALLOW_LOOPBACK_FOR_TESTS = False
    response = page.post(url, json.dumps(browser.body()), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "The push endpoint must be an https:// address."
    assert not PushSubscription.objects.exists()
    browser.subscription(guest_grace)  # a row from before the checks
    with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
        assert reminders.send_all() == 0
    assert browser.received == [] and not PushSubscription.objects.exists()
    assert names.connects == []

"""Issue 45, 2: one subscription cannot crash or stall the reminder job. Keys are checked when
a browser subscribes; a bad row (from before the checks) fails alone and is dropped; a failing
endpoint is dropped after MAX_FAILURES in a row; a trickling push service is cut off at the
deadline; a profile keeps five subscriptions, and an endpoint stays with the profile that
saved it. Reminders go to their own Celery queue, which a default worker consumes."""

import datetime as dt
import json
import random
import socket
import threading
import time

import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.urls import reverse

from config.celery import app
from notify import reminders, webpush
from notify.models import PushSubscription, Reminder
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Guest
from tests.conftest import client_for
from tests.notify.conftest import b64

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)
RANDOM_65 = b64(random.Random(45).randbytes(65))  # the "65 random bytes"
OFF_CURVE = b64(b"\x04" + (1).to_bytes(32, "big") + (1).to_bytes(32, "big"))  # (1, 1) is not on P-256
COMPRESSED = b64(
    ec.derive_private_key(45, ec.SECP256R1())  # a fixed key: every xdist worker collects the same ids
    .public_key()
    .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
)


@pytest.fixture
def guests(db):
    """A showdown of Ada with Grace and Linus coming, each with push turned on."""
    ada = Profile.objects.create(display_name="Ada")
    grace, linus = Profile.objects.create(display_name="Grace"), Profile.objects.create(display_name="Linus")
    with time_machine.travel(T0, tick=False):
        room = create_room(ada, level="easy", scheduled_for=START, host_timezone="Europe/Amsterdam")
        for player in (grace, linus):
            act(room.code, player, A.Coming(True, "Europe/London", "en"))
    Guest.objects.filter(room=room).update(by_push=True)
    return ada, grace, linus


@pytest.mark.parametrize(
    ("p256dh", "auth", "error"),
    [
        ("!!!", None, "The browser's push key is not a valid P-256 public key."),
        (RANDOM_65, None, "The browser's push key is not a valid P-256 public key."),
        (OFF_CURVE, None, "The browser's push key is not a valid P-256 public key."),
        (COMPRESSED, None, "The browser's push key is not a valid P-256 public key."),
        (b64(b"\x04" * 64), None, "The browser's push key is not a valid P-256 public key."),
        (None, "!!!", "The browser's push secret must be 16 bytes."),
        (None, b64(b"12345678"), "The browser's push secret must be 16 bytes."),
        (None, b64(b"0123456789abcdefg"), "The browser's push secret must be 16 bytes."),
        (None, "AAAAAAAAAAAAAAAAAAAAAAA", "The browser's push secret must be 16 bytes."),  # 23 chars: no bytes
    ],
    ids=[
        "key-bang",
        "key-random-65",
        "key-off-curve",
        "key-compressed",
        "key-04s",
        "auth-bang",
        "auth-8",
        "auth-17",
        "auth-23-chars",
    ],
)
def test_subscribing_refuses_keys_that_are_not_a_p256_point_and_a_16_byte_secret(
    guests, push_peer, p256dh, auth, error
):
    browser = push_peer.browser()
    changes = {key: value for key, value in (("p256dh", p256dh), ("auth", auth)) if value is not None}
    body = json.dumps(browser.body(**changes))
    response = client_for(guests[1]).post(reverse("push_subscribe"), body, content_type="application/json")
    assert response.status_code == 400 and response.json() == {"error": error}
    assert not PushSubscription.objects.exists()


def test_one_bad_subscription_never_stops_the_others(guests, push_peer):
    ada, grace, linus = guests
    # Rows from before the checks: the keys crashed pywebpush (IndexError, "Invalid EC key").
    PushSubscription.objects.create(player=grace, endpoint=push_peer.browser().endpoint, p256dh="!!!", auth="!!!")
    PushSubscription.objects.create(
        player=linus, endpoint=push_peer.browser().endpoint, p256dh=RANDOM_65, auth=b64(bytes(16))
    )
    good = [push_peer.browser(), push_peer.browser()]
    good[0].subscription(ada)
    good[1].subscription(grace)
    with time_machine.travel(START - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_all() == 2  # no exception: Ada and Grace got theirs
    assert [len(browser.received) for browser in good] == [1, 1]
    outcome = {
        r.guest.player.display_name: (r.status, r.detail) for r in Reminder.objects.select_related("guest__player")
    }
    assert outcome["Ada"] == ("sent", "sent")
    assert outcome["Grace"][0] == "sent" and sorted(outcome["Grace"][1].split(", ")) == ["refused", "sent"]
    assert outcome["Linus"] == ("failed", "refused")  # recorded, never left claimed
    assert not Reminder.objects.filter(status="claimed").exists()
    assert PushSubscription.objects.count() == 2  # the two bad rows dropped


def test_a_crash_while_delivering_marks_the_reminder_failed_and_the_run_goes_on(guests, push_peer, monkeypatch):
    ada, grace, _linus = guests
    browsers = [push_peer.browser(), push_peer.browser()]
    browsers[0].subscription(ada)
    browsers[1].subscription(grace)
    real = reminders.message

    def message(room, guest, kind):
        if guest.player_id == ada.pk:
            raise RuntimeError("a bug in one reminder's text")
        return real(room, guest, kind)

    monkeypatch.setattr(reminders, "message", message)
    with time_machine.travel(START - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_all() == 1
    assert len(browsers[1].received) == 1
    crashed = Reminder.objects.get(guest__player=ada)
    assert crashed.status == "failed" and "a bug in one reminder's text" in crashed.detail


def test_a_subscription_failing_max_failures_times_in_a_row_is_dropped(guests, push_peer):
    grace = guests[1]
    dead = push_peer.browser(status=500)
    subscription = dead.subscription(grace)
    for attempt in range(1, webpush.MAX_FAILURES):
        assert webpush.send(subscription, {"title": "t"}) == "failed"
        assert PushSubscription.objects.get(pk=subscription.pk).failures == attempt
    # A success in between starts the count again.
    dead.status = 201
    assert webpush.send(subscription, {"title": "t"}) == "sent"
    assert PushSubscription.objects.get(pk=subscription.pk).failures == 0
    dead.status = 503
    for _ in range(webpush.MAX_FAILURES):
        assert webpush.send(subscription, {"title": "t"}) == "failed"
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()
    assert len(dead.received) == 2 * webpush.MAX_FAILURES


class Trickler:
    """A push service that answers one byte every 0.2 s for up to 8 s: each read is quick, so a
    per-read timeout never fires; only a deadline for the whole request ends it."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/push/slow"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return  # closed before anyone connected
        with conn:
            conn.recv(65536)
            answer = b"HTTP/1.1 201 Created\r\nX-Slow: " + b"." * 10  # 40 bytes: 8 s
            for byte in answer:
                if self.stop.wait(0.2):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return  # the client hung up: what the deadline should do

    def close(self):
        self.stop.set()
        self.listener.close()
        self.thread.join(5)


def test_a_trickling_push_service_is_cut_off_at_the_deadline(guests, push_peer, settings):
    settings.PUSH_SEND_SECONDS = 0.5
    trickler = Trickler()
    try:
        browser = push_peer.browser()
        subscription = PushSubscription.objects.create(player=guests[1], endpoint=trickler.url, **browser.keys())
        began = time.monotonic()
        assert webpush.send(subscription, {"title": "t"}) == "failed"
        assert time.monotonic() - began < 3  # 0.5 s, with room for a busy machine; it trickles for 8 s
    finally:
        trickler.close()
    assert PushSubscription.objects.get().failures == 1


def test_a_profile_keeps_at_most_five_subscriptions_the_oldest_replaced(guests, push_peer):
    grace = guests[1]
    page = client_for(grace)
    browsers = [push_peer.browser() for _ in range(7)]
    for i, browser in enumerate(browsers):
        with time_machine.travel(T0 + dt.timedelta(minutes=i), tick=False):
            response = page.post(reverse("push_subscribe"), json.dumps(browser.body()), content_type="application/json")
        assert response.status_code == 200
    kept = set(PushSubscription.objects.filter(player=grace).values_list("endpoint", flat=True))
    assert kept == {browser.endpoint for browser in browsers[2:]}


def test_an_endpoint_stays_with_the_profile_that_subscribed_it(guests, push_peer):
    ada, grace, _linus = guests
    browser, intruder = push_peer.browser(), push_peer.browser()
    url = reverse("push_subscribe")
    assert client_for(grace).post(url, json.dumps(browser.body()), content_type="application/json").status_code == 200
    # Another browser posts Grace's endpoint with keys of its own, to read her reminders.
    taken = json.dumps(browser.body(p256dh=intruder.p256dh, auth=b64(intruder.auth)))
    response = client_for(ada).post(url, taken, content_type="application/json")
    assert response.status_code == 409
    assert response.json()["error"].startswith("This browser's push subscription belongs to another player here.")
    row = PushSubscription.objects.get()
    assert (row.player, row.p256dh) == (grace, browser.p256dh)
    # Grace's own browser may renew its keys.
    renewed = json.dumps(browser.body(auth=b64(bytes(range(16)))))
    assert client_for(grace).post(url, renewed, content_type="application/json").status_code == 200
    assert PushSubscription.objects.get().auth == b64(bytes(range(16)))


def test_reminders_have_their_own_queue_which_a_default_worker_consumes():
    route = app.amqp.router.route({}, "notify.tasks.send_reminders")
    assert route["queue"].name == "reminders"
    for lifecycle in ("rooms.tasks.sweep_rooms", "games.domino.tasks.sweep_overdue_domino_games"):
        assert app.amqp.router.route({}, lifecycle)["queue"].name == "celery"
    # `celery -A config worker` (no -Q: the README's and any default start) consumes both.
    assert set(app.amqp.queues.consume_from) == {"celery", "reminders"}

"""Web Push through a real peer (tests/notify/conftest.py): what pywebpush sends is signed
with the server's VAPID key and decrypts to the room's notification; 404/410 delete the
subscription. Plus the service worker, the manifest and the subscribe view."""

import datetime as dt
import json

import pytest
import time_machine
from django.urls import reverse

from notify import keys, reminders, webpush
from notify.models import PushSubscription, Reminder, VapidKey
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Guest
from tests.conftest import client_for

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)


@pytest.fixture
def grace_coming(db):
    """(room, ada, grace): Ada's showdown two hours ahead, Grace on its guest list from Tokyo."""
    ada, grace = Profile.objects.create(display_name="Ada"), Profile.objects.create(display_name="Grace")
    with time_machine.travel(T0, tick=False):
        room = create_room(ada, level="easy", scheduled_for=START, host_timezone="Europe/Amsterdam")
        act(room.code, grace, A.Coming(True, "Asia/Tokyo", "en"))
    return room, ada, grace


def test_the_embedded_default_makes_one_key_pair_and_keeps_it(db, settings):
    settings.VAPID_PRIVATE_KEY = None
    first = keys.identity()
    assert keys.identity().public_key == first.public_key and VapidKey.objects.count() == 1
    assert len(first.public_key) == 87  # 65 bytes, the uncompressed P-256 point, in base64url


def test_keys_from_the_environment_win_and_a_wrong_public_key_is_refused(db, settings):
    from django.core.exceptions import ImproperlyConfigured

    private, public = keys.new_pair()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = private, public
    assert keys.identity().public_key == public and not VapidKey.objects.exists()
    settings.VAPID_PUBLIC_KEY = keys.new_pair()[1]
    with pytest.raises(ImproperlyConfigured, match="VAPID_PUBLIC_KEY"):
        keys.identity()


def test_the_ready_room_push_is_signed_encrypted_and_the_rooms(grace_coming, push_peer, settings):
    settings.VAPID_CONTACT = "mailto:ops@example.org"
    _ada, _host, grace = grace_coming
    code = grace_coming[0].code
    browser = push_peer.browser()
    browser.subscription(grace)
    Guest.objects.filter(player=grace).update(by_push=True)
    with time_machine.travel(START - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_all() == 1
    (got,) = browser.received
    assert got["claims"]["sub"] == "mailto:ops@example.org" and got["k"] == keys.identity().public_key
    assert int(got["ttl"]) == webpush.TTL
    payload = got["payload"]
    assert payload["title"] == f"Room {code}: the ready room is open"
    # 20:00 UTC is 05:00 the next day in Tokyo, 21:00 in Amsterdam.
    assert payload["body"] == (
        "The showdown starts Wed 2 December 2026, 05:00 your time (Asia/Tokyo); host's time Tue 1 December 2026, 21:00 "
        "(Europe/Amsterdam). Take a seat and mark yourself ready."
    )
    assert payload["url"] == f"/r/{code}/"
    assert Reminder.objects.get().status == "sent"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_deleted(grace_coming, push_peer, status):
    grace = grace_coming[2]
    gone, alive = push_peer.browser(status), push_peer.browser()
    gone.subscription(grace)
    alive.subscription(grace)
    Guest.objects.filter(player=grace).update(by_push=True)
    with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
        assert reminders.send_all() == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [alive.endpoint]
    assert len(gone.received) == 1 and len(alive.received) == 1
    assert Reminder.objects.get().detail in ("gone, sent", "sent, gone")


def test_an_unreachable_push_service_fails_the_reminder_and_keeps_the_subscription(grace_coming, push_peer):
    grace = grace_coming[2]
    PushSubscription.objects.create(
        player=grace,
        endpoint="http://127.0.0.1:9/push/x",
        p256dh=push_peer.browser().p256dh,
        auth="c2VjcmV0c2VjcmV0c2Vjcg",  # 16 bytes, as browsers make it
    )
    Guest.objects.filter(player=grace).update(by_push=True)
    with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
        assert reminders.send_all() == 0
    assert Reminder.objects.get().status == "failed" and PushSubscription.objects.count() == 1


def test_the_service_worker_is_served_at_the_root_and_the_manifest_is_an_app(client, db):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("application/javascript")
    assert worker["Service-Worker-Allowed"] == "/" and b"notificationclick" in worker.content
    manifest = client.get("/manifest.webmanifest")
    data = json.loads(manifest.content)
    assert manifest["Content-Type"] == "application/manifest+json"
    assert data["display"] == "standalone" and data["name"] == "Sudoku Showdown"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    from django.contrib.staticfiles import finders

    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    assert b'rel="manifest"' in client.get("/").content


def test_subscribing_turns_push_on_for_the_guest_and_bad_input_changes_nothing(grace_coming, push_peer):
    grace, code = grace_coming[2], grace_coming[0].code
    browser = push_peer.browser()
    page = client_for(grace)
    url = reverse("push_subscribe")
    body = {"endpoint": browser.endpoint, "keys": {"p256dh": browser.p256dh, "auth": "YXV0aHNlY3JldDEyMzQ1Ng"}}
    for bad in (b"not json", json.dumps({"endpoint": "javascript:x", "keys": {}}), json.dumps([1])):
        response = page.post(url, bad, content_type="application/json")
        assert response.status_code == 400 and "error" in response.json()
    assert not PushSubscription.objects.exists()
    response = page.post(url, json.dumps({**body, "room": code}), content_type="application/json")
    assert response.status_code == 200 and response.json() == {"ok": True, "room": True}
    assert Guest.objects.get(player=grace).by_push
    assert PushSubscription.objects.get().player == grace
    with time_machine.travel(T0, tick=False):
        html = page.get(reverse("room", args=[code])).content.decode()
        assert "Push notifications in this browser: on." in html
        act(code, grace, A.Remind("push", False))  # the Turn off button
    assert not Guest.objects.get(player=grace).by_push and PushSubscription.objects.count() == 1
    response = page.post(
        reverse("push_unsubscribe"), json.dumps({"endpoint": browser.endpoint}), content_type="application/json"
    )
    assert response.json()["deleted"] == 1 and not PushSubscription.objects.exists()

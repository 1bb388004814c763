"""Reminders with the clock under test control (time-machine): the ready room's at T-15 once,
the start's once, nothing for a time the host moved away from, a DST change between
scheduling and the event, email through the real SMTP server, and two workers at once."""

import datetime as dt
import threading

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.db import connection

from notify import reminders
from notify.models import Reminder
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Guest
from tests.conftest import require_service

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)


def scheduled(start=START, zone="Europe/Amsterdam", at=T0):
    ada, grace = Profile.objects.create(display_name="Ada"), Profile.objects.create(display_name="Grace")
    with time_machine.travel(at, tick=False):
        room = create_room(ada, level="easy", scheduled_for=start, host_timezone=zone)
        act(room.code, grace, A.Coming(True, "Europe/London", "en"))
    return room, ada, grace


def pushed(peer, *guests):
    browsers = []
    for guest in guests:
        browser = peer.browser()
        browser.subscription(guest)
        browsers.append(browser)
    Guest.objects.filter(player__in=guests).update(by_push=True)
    return browsers


def titles(browser):
    return [got["payload"]["title"] for got in browser.received]


def test_the_ready_room_reminder_goes_at_t_minus_15_once(db, push_peer):
    room, ada, grace = scheduled()
    host, guest = pushed(push_peer, ada, grace)
    with time_machine.travel(START - dt.timedelta(minutes=15, seconds=1), tick=False):
        assert reminders.send_all() == 0
    with time_machine.travel(START - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_all() == 2
        assert reminders.send_all() == 0  # beat runs twice
    with time_machine.travel(START - dt.timedelta(minutes=5), tick=False):
        assert reminders.send_all() == 0  # and later
    assert titles(guest) == titles(host) == [f"Room {room.code}: the ready room is open"]
    assert Reminder.objects.filter(kind="ready", status="sent").count() == 2


def test_the_start_reminder_goes_once_when_the_host_starts(db, push_peer, bank_puzzle):
    room, ada, grace = scheduled()
    _host, guest = pushed(push_peer, ada, grace)
    with time_machine.travel(START - dt.timedelta(minutes=10), tick=False):
        reminders.send_all()
        act(room.code, grace, A.Join())
        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        act(room.code, ada, A.Start())
        assert reminders.send_all() == 2
        assert reminders.send_all() == 0
        # A task redelivered with the same work sends nothing either.
        item = reminders.Due(room.pk, "start", 0)
        assert reminders.send_due(item) == 0
    assert titles(guest) == [
        f"Room {room.code}: the ready room is open",
        f"Room {room.code}: the host started the showdown",
    ]


def test_a_move_between_queueing_and_sending_sends_nothing_for_the_old_time(db, push_peer):
    room, ada, grace = scheduled()
    (guest,) = pushed(push_peer, grace)
    later = START + dt.timedelta(hours=3)
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        act(room.code, ada, A.Reschedule(START + dt.timedelta(hours=1), "Europe/Amsterdam"))
        queued = reminders.due(reminders.timezone.now())  # the beat found the first move's notice...
        assert queued == [reminders.Due(room.pk, "moved", 1)]
        act(room.code, ada, A.Reschedule(later, "Europe/Amsterdam"))  # ...and the host moved again
        assert sum(reminders.send_due(item) for item in queued) == 0
        assert reminders.send_all() == 1  # the latest move only
    # The old time's ready room: a reminder queued for it is refused, and none goes out then.
    with time_machine.travel(START - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_due(reminders.Due(room.pk, "ready", 0)) == 0
        assert reminders.send_all() == 0
    with time_machine.travel(later - dt.timedelta(minutes=15), tick=False):
        assert reminders.send_all() == 1
    bodies = [got["payload"]["body"] for got in guest.received]
    # 23:00 UTC is 23:00 in London, midnight in Amsterdam.
    assert bodies[0] == (
        "The host moved it to Tue 1 December 2026, 23:00 your time (Europe/London); "
        "host's time Wed 2 December 2026, 00:00 (Europe/Amsterdam)."
    )
    assert len(bodies) == 2 and "23:00 your time" in bodies[1]
    assert not Reminder.objects.filter(sequence__lt=2).exists()


def test_a_dst_change_between_scheduling_and_the_event_keeps_the_local_time(db, push_peer):
    # Set up in winter (CET, UTC+1) for the evening of the last Sunday of March (CEST, UTC+2).
    action, _ = A.parse_message(
        {"action": "reschedule", "scheduled_at": "2027-03-28T20:00", "timezone": "Europe/Amsterdam"}, None
    )
    start = action.scheduled_for
    assert start == dt.datetime(2027, 3, 28, 18, 0, tzinfo=dt.UTC)
    _room, _ada, grace = scheduled(start=start, at=dt.datetime(2027, 3, 20, 12, 0, tzinfo=dt.UTC))
    Guest.objects.filter(player=grace).update(time_zone="Europe/Amsterdam")
    (guest,) = pushed(push_peer, grace)
    with time_machine.travel(dt.datetime(2027, 3, 28, 17, 44, 59, tzinfo=dt.UTC), tick=False):
        assert reminders.send_all() == 0
    with time_machine.travel(dt.datetime(2027, 3, 28, 17, 45, tzinfo=dt.UTC), tick=False):
        assert reminders.send_all() == 1
    assert guest.received[0]["payload"]["body"] == (
        "The showdown starts Sun 28 March 2027, 20:00 (Europe/Amsterdam). Take a seat and mark yourself ready."
    )


def test_email_reminders_go_through_smtp_and_cancelling_tells_the_guests(db, smtp, settings):
    settings.SITE_URL = "https://showdown.example"
    room, ada, grace = scheduled()
    grace.account = get_user_model().objects.create(username="grace", email="grace@example.org")
    grace.save()
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=False):
        act(room.code, grace, A.Coming(True, "Europe/Amsterdam", "nl"))
        act(room.code, grace, A.Remind("email", True))
    with time_machine.travel(T0 + dt.timedelta(minutes=2), tick=False):
        act(room.code, ada, A.Cancel())
        assert reminders.send_all() == 1
        assert reminders.send_all() == 0
    (mail,) = smtp.to("grace@example.org")
    assert mail["Subject"] == f"Kamer {room.code}: de showdown is afgelast"  # in the guest's language
    body = mail.get_body(preferencelist=("plain",)).get_content()
    assert "De gastheer heeft de showdown van di 1 december 2026, 21:00 (Europe/Amsterdam) afgelast." in body
    assert f"https://showdown.example/r/{room.code}/" in body


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_each_reminder_once(push_peer):
    require_service(connection.vendor == "postgresql", "PostgreSQL (row locks)")
    room, ada, grace = scheduled()
    browsers = pushed(push_peer, ada, grace)
    barrier = threading.Barrier(2)
    sent = []

    def worker():
        barrier.wait()
        try:
            sent.append(reminders.send_all(START - dt.timedelta(minutes=14)))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(sent) == 2 and [len(b.received) for b in browsers] == [1, 1]
    assert Reminder.objects.filter(room=room).count() == 2


def test_moves_are_told_at_most_once_per_10_minutes_with_the_latest_time_and_capped(db, smtp):
    """Issue 45 item 7: a showdown moved every 16 s mailed each guest once per job run."""
    from rooms.api import RoomError

    room, ada, grace = scheduled()
    grace.account = get_user_model().objects.create(username="grace", email="grace@example.org")
    grace.save()
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=False):
        act(room.code, grace, A.Remind("email", True))
    for n in range(1, 6):  # moved every 16 s for a minute and more: one mail
        with time_machine.travel(T0 + dt.timedelta(minutes=2, seconds=16 * n), tick=False):
            act(room.code, ada, A.Reschedule(START + dt.timedelta(hours=n), "Europe/Amsterdam"))
            reminders.send_all()
    assert len(smtp.to("grace@example.org")) == 1
    with time_machine.travel(T0 + dt.timedelta(minutes=13), tick=False):
        assert reminders.send_all() == 1  # ten minutes on: the latest time, once
        assert reminders.send_all() == 0
    latest = smtp.to("grace@example.org")[-1].get_body(preferencelist=("plain",)).get_content()
    assert "moved it to Wed 2 December 2026, 01:00 your time" in latest  # START + 5 h, the last move
    with time_machine.travel(T0 + dt.timedelta(minutes=20), tick=False):
        for n in range(6, 11):
            act(room.code, ada, A.Reschedule(START + dt.timedelta(hours=n), "Europe/Amsterdam"))
        with pytest.raises(RoomError, match="moved 10 times"):
            act(room.code, ada, A.Reschedule(START + dt.timedelta(hours=11), "Europe/Amsterdam"))


def test_a_move_reaches_every_guest_once_by_each_of_their_channels(db, smtp, push_peer):
    """Issue 43 item 21: a guest with email reminders got no "moved" email (the "cancelled" one
    arrived). Two guests, one by email and push, one by email only: one move, one "moved" to
    each of them by each channel, through the real SMTP server and the real push peer."""
    room, ada, grace = scheduled()
    linus = Profile.objects.create(display_name="Linus")
    for profile, address in ((grace, "grace@example.org"), (linus, "linus@example.org")):
        profile.account = get_user_model().objects.create(username=profile.display_name, email=address)
        profile.save()
    (grace_browser,) = pushed(push_peer, grace)
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=False):
        act(room.code, linus, A.Coming(True, "Europe/Berlin", "en"))
        for guest in (grace, linus):
            act(room.code, guest, A.Remind("email", True))
    with time_machine.travel(T0 + dt.timedelta(minutes=2), tick=False):
        act(room.code, ada, A.Reschedule(START + dt.timedelta(hours=1), "Europe/Amsterdam"))
        assert reminders.send_all() == 3  # Grace by email and push, Linus by email
        assert reminders.send_all() == 0
    for address in ("grace@example.org", "linus@example.org"):
        (mail,) = smtp.to(address)
        assert mail["Subject"] == f"Room {room.code}: the showdown moved"
    assert titles(grace_browser) == [f"Room {room.code}: the showdown moved"]
    assert set(Reminder.objects.filter(kind="moved").values_list("channel", "status")) == {
        ("email", "sent"),
        ("push", "sent"),
    }
    assert Reminder.objects.filter(kind="moved").count() == 3

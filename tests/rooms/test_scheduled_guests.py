"""Scheduled showdowns (docs/rules.md 1): the guest list, the host moving or cancelling the
showdown, and the .ics that follows every change (issue 26)."""

import datetime as dt
import json

import icalendar
import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.urls import reverse

from players.models import Profile
from rooms import actions as A
from rooms.api import NotAllowed, RoomError, act, create_room
from rooms.models import Guest, Room, Seat
from rooms.tasks import sweep_rooms
from tests.conftest import client_for
from tests.rooms.test_consumer import connect, receive_until

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)


@pytest.fixture
def people(db):
    return [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus")]


@pytest.fixture
def showdown(people):
    """Ada's showdown two hours ahead, scheduled from Amsterdam."""
    with time_machine.travel(T0, tick=False):
        return create_room(people[0], level="easy", scheduled_for=START, host_timezone="Europe/Amsterdam")


def coming(room):
    return list(Guest.objects.filter(room=room, coming=True).values_list("player__display_name", flat=True))


def test_guests_say_coming_or_not_before_the_ready_room_and_take_no_seat(showdown, people):
    _ada, grace, linus = people
    assert coming(showdown) == ["Ada"]  # the host is the first guest
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        act(showdown.code, grace, A.Coming(True, "Asia/Tokyo"))
        act(showdown.code, linus, A.Coming(True))
        assert not act(showdown.code, linus, A.Coming(True)).changed  # saying it twice changes nothing
        act(showdown.code, linus, A.Coming(False))
        html = client_for(linus).get(reverse("room", args=[showdown.code])).content.decode()
    assert coming(showdown) == ["Ada", "Grace"]
    assert Guest.objects.get(player=grace).time_zone == "Asia/Tokyo"
    assert set(Seat.objects.filter(room=showdown).values_list("player__display_name", flat=True)) == {"Ada"}
    assert "Guest list" in html and "Grace" in html and "1 cannot come." in html
    assert "You said you are not coming." in html and "I'm coming" in html
    # No Join button before the ready room: seats are taken there.
    assert reverse("room_join_code", args=[showdown.code]) not in html


def test_the_guest_list_closes_when_the_ready_room_opens(showdown, people):
    opens = START - dt.timedelta(minutes=15)
    with time_machine.travel(opens, tick=False):
        with pytest.raises(RoomError, match="closed when the ready room opened"):
            act(showdown.code, people[1], A.Coming(True))
        html = client_for(people[1]).get(reverse("room", args=[showdown.code])).content.decode()
    assert coming(showdown) == ["Ada"]
    assert "I'm coming" not in html and reverse("room_join_code", args=[showdown.code]) in html


def test_an_unscheduled_room_has_no_guest_list(people, bank_puzzle):
    plain = create_room(people[0], level="easy")
    with pytest.raises(RoomError, match="not a scheduled showdown"):
        act(plain.code, people[1], A.Coming(True))
    assert not Guest.objects.filter(room=plain).exists()


def test_reminder_channels_are_for_guests_and_email_needs_an_address(showdown, people):
    from django.contrib.auth import get_user_model

    grace = people[1]
    with time_machine.travel(T0, tick=False):
        with pytest.raises(RoomError, match="say you are coming first"):
            act(showdown.code, grace, A.Remind("email", True))
        act(showdown.code, grace, A.Coming(True))
        with pytest.raises(RoomError, match="signed-in account"):
            act(showdown.code, grace, A.Remind("email", True))
        grace.account = get_user_model().objects.create(username="grace", email="grace@example.org")
        grace.save()
        act(showdown.code, grace, A.Remind("email", True))
        browser = client_for(grace)
        browser.force_login(grace.account)  # a linked profile is read only where its account is signed in
        html = browser.get(reverse("room", args=[showdown.code])).content.decode()
    assert Guest.objects.get(player=grace).by_email
    assert "Email reminders to grace@example.org: on." in html


def test_the_host_moves_the_showdown_and_everything_follows_the_new_time(showdown, people):
    ada, grace, _ = people
    later = START + dt.timedelta(days=1)
    with time_machine.travel(T0 + dt.timedelta(minutes=10), tick=False):
        with pytest.raises(NotAllowed, match="Only the host"):
            act(showdown.code, grace, A.Reschedule(later, "Europe/Amsterdam"))
        with pytest.raises(RoomError, match="in the past"):
            act(showdown.code, ada, A.Reschedule(T0, "Europe/Amsterdam"))
        with pytest.raises(RoomError, match="already the showdown's time"):
            act(showdown.code, ada, A.Reschedule(START, "Europe/Amsterdam"))
        act(showdown.code, ada, A.Reschedule(later, "America/New_York"))
        html = client_for(grace).get(reverse("room", args=[showdown.code])).content.decode()
    showdown.refresh_from_db()
    assert (showdown.scheduled_for, showdown.host_timezone, showdown.schedule_sequence) == (
        later,
        "America/New_York",
        1,
    )
    assert "The host moved this showdown" in html and "Wed 2 December 2026, 15:00" in html  # 20:00 UTC in New York
    # The old time's ready room and expiry no longer apply.
    with time_machine.travel(START + dt.timedelta(minutes=31), tick=False):
        assert sweep_rooms() == 0
        with pytest.raises(RoomError, match="opens 15 minutes before"):
            act(showdown.code, ada, A.Start())
    with time_machine.travel(later + dt.timedelta(minutes=31), tick=False):
        assert sweep_rooms() == 1
    assert Room.objects.get(pk=showdown.pk).state == "expired"


def test_moving_or_cancelling_is_refused_once_the_ready_room_is_open(showdown, people):
    with time_machine.travel(START - dt.timedelta(minutes=14), tick=False):
        with pytest.raises(RoomError, match="closed when the ready room opened"):
            act(showdown.code, people[0], A.Reschedule(START + dt.timedelta(hours=1), "UTC"))
        with pytest.raises(RoomError, match="closed when the ready room opened"):
            act(showdown.code, people[0], A.Cancel())
    assert Room.objects.get(pk=showdown.pk).schedule_sequence == 0


def test_the_host_cancels_and_the_page_and_the_calendar_say_so(showdown, people):
    ada, grace, _ = people
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=False):
        with pytest.raises(NotAllowed):
            act(showdown.code, grace, A.Cancel())
        act(showdown.code, ada, A.Cancel())
        html = client_for(grace).get(reverse("room", args=[showdown.code])).content.decode()
        event = calendar_event(grace, showdown)
    showdown.refresh_from_db()
    assert showdown.state == "expired" and showdown.cancelled_at is not None and showdown.schedule_sequence == 1
    assert "This showdown was cancelled" in html and "The host cancelled this showdown." in html
    assert event["STATUS"] == "CANCELLED" and event["SEQUENCE"] == 1
    assert not event.walk("VALARM")


def calendar_event(profile, room):
    response = client_for(profile).get(reverse("room_calendar", args=[room.code]))
    assert response.status_code == 200
    calendar = icalendar.Calendar.from_ical(response.content)
    (event,) = calendar.walk("VEVENT")
    return event


def test_the_calendar_file_keeps_its_uid_and_raises_its_sequence(showdown, people):
    first = calendar_event(people[1], showdown)
    assert first["SEQUENCE"] == 0 and first["STATUS"] == "CONFIRMED"
    assert first.decoded("DTSTART") == START
    (alarm,) = first.walk("VALARM")
    assert alarm.decoded("TRIGGER") == -dt.timedelta(minutes=15) and alarm["ACTION"] == "DISPLAY"
    assert "21:00 (Europe/Amsterdam)" in str(first["DESCRIPTION"])
    with time_machine.travel(T0, tick=False):
        act(showdown.code, people[0], A.Reschedule(START + dt.timedelta(hours=1), "Europe/Amsterdam"))
    moved = calendar_event(people[1], showdown)
    assert moved["UID"] == first["UID"] and moved["SEQUENCE"] == 1
    assert moved.decoded("DTSTART") == START + dt.timedelta(hours=1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"scheduled_at": "2027-03-28T02:30", "timezone": "Europe/Amsterdam"}, "does not exist in Europe/Amsterdam"),
        ({"scheduled_at": "soon", "timezone": "UTC"}, "date and a time"),
        ({"scheduled_at": "2027-03-28T20:00", "timezone": "Mars/Olympus"}, "time zone from the list"),
        ({"scheduled_at": "2027-03-28T20:00+01:00", "timezone": "UTC"}, "local date and time"),
    ],
)
def test_the_reschedule_message_is_parsed_at_the_boundary(data, message):
    with pytest.raises(A.MalformedMessage, match=message):
        A.parse_message({"action": "reschedule", **data}, None)


def test_a_start_after_the_dst_change_keeps_its_local_time():
    action, _ = A.parse_message(
        {"action": "reschedule", "scheduled_at": "2027-03-28T20:00", "timezone": "Europe/Amsterdam"}, None
    )
    assert action.scheduled_for == dt.datetime(2027, 3, 28, 18, 0, tzinfo=dt.UTC)  # CEST, UTC+2, not winter's +1


@pytest.mark.django_db(transaction=True)
async def test_the_guest_list_and_a_move_are_pushed_live_over_the_socket():
    room, ada, grace = await sync_to_async(_scheduled_rows)()
    a, connected, _ = await connect(room.code, ada)
    assert connected
    g, connected, _ = await connect(room.code, grace)
    assert connected
    await a.receive_from(timeout=5)
    await g.receive_from(timeout=5)
    await g.send_to(text_data=json.dumps({"action": "coming", "zone": "Asia/Tokyo"}))
    body = await receive_until(a, 'id="room-body"')  # the host sees Grace on the list at once
    assert "Grace" in body and "2 coming" in body
    await receive_until(g, "2 coming")  # her own answer
    move = {"action": "reschedule", "scheduled_at": "2030-01-01T10:00", "timezone": "UTC"}
    await g.send_to(text_data=json.dumps(move))
    assert "Only the host can do that." in await receive_until(g, "Only the host")
    when = (room.scheduled_for + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    await a.send_to(text_data=json.dumps({"action": "reschedule", "scheduled_at": when, "timezone": "UTC"}))
    assert "The host moved this showdown" in await receive_until(g, "data-moved")
    for c in (a, g):
        await c.disconnect()


def _scheduled_rows():
    from django.utils import timezone

    ada, grace = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace"))
    when = (timezone.now() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
    return create_room(ada, level="easy", scheduled_for=when, host_timezone="UTC"), ada, grace

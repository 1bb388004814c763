"""Room lifecycle jobs and scheduled showdowns, with the clock under test control."""

import datetime as dt
import threading

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.sudoku.play import Enter
from players.models import Profile
from rooms import actions as A
from rooms.api import RoomError, act, create_room
from rooms.models import Room, RoomEvent
from rooms.tasks import sweep_rooms
from tests.conftest import EMPTY, SOLUTION, client_for, require_service

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)


@pytest.fixture
def ada(db):
    return Profile.objects.create(display_name="Ada")


@pytest.fixture
def grace(db):
    return Profile.objects.create(display_name="Grace")


def scheduled(ada, grace, start=T0 + dt.timedelta(hours=2)):
    with time_machine.travel(T0, tick=False):
        room = create_room(ada, level="easy", scheduled_for=start, host_timezone="Europe/Amsterdam")
        act(room.code, grace, A.Join())
    return room


def test_scheduling_in_the_past_or_too_far_ahead_is_refused(ada):
    with pytest.raises(RoomError, match="in the past"):
        create_room(ada, scheduled_for=T0, now=T0 + dt.timedelta(minutes=1))
    with pytest.raises(RoomError, match="30 days"):
        create_room(ada, scheduled_for=T0 + dt.timedelta(days=31), now=T0)
    assert not Room.objects.exists()


def test_schedule_form_converts_the_zone_to_utc_and_refuses_bad_input(ada):
    client = client_for(ada)
    with time_machine.travel(T0, tick=False):
        response = client.post(
            reverse("room_new"),
            {"level": "easy", "preset": "standard", "scheduled_at": "2026-12-01T21:30", "timezone": "Europe/Amsterdam"},
        )
        assert response.status_code == 302
        room = Room.objects.get()
        assert room.scheduled_for == dt.datetime(2026, 12, 1, 20, 30, tzinfo=dt.UTC)  # CET is UTC+1
        assert room.host_timezone == "Europe/Amsterdam"
        for data, message in [
            ({"scheduled_at": "2026-12-01T21:30", "timezone": "Mars/Olympus"}, b"time zone"),
            ({"scheduled_at": "tomorrow-ish", "timezone": "UTC"}, b"date and a time"),
            ({"scheduled_at": "2026-11-01T10:00", "timezone": "UTC"}, b"in the past"),
        ]:
            response = client.post(reverse("room_new"), {"level": "easy", "preset": "standard", **data})
            assert response.status_code == 400 and message in response.content
    assert Room.objects.count() == 1


def test_guests_join_and_host_changes_rules_before_the_ready_room_opens(ada, grace):
    room = scheduled(ada, grace)
    with time_machine.travel(T0 + dt.timedelta(minutes=10), tick=False):
        act(room.code, ada, A.SetRules("hard", A.parse_rules({"level": "hard", "preset": "hardcore"}).rules))
        with pytest.raises(RoomError, match="ready room opens 15 minutes"):
            act(room.code, grace, A.SetReady(True))
        with pytest.raises(RoomError, match="opens 15 minutes"):
            act(room.code, ada, A.Start())
    assert Room.objects.get().state == "lobby"


def test_ready_room_opens_15_minutes_before_and_host_starts(ada, grace, bank_puzzle):
    room = scheduled(ada, grace, start=T0 + dt.timedelta(hours=2))
    Room.objects.filter(pk=room.pk).update(level="easy")
    opens = T0 + dt.timedelta(hours=1, minutes=45)
    with time_machine.travel(opens + dt.timedelta(seconds=1), tick=False):
        act(room.code, grace, A.SetReady(True))
        act(room.code, ada, A.SetReady(True))
        assert sweep_rooms() == 0  # it never starts by itself
        act(room.code, ada, A.Start())
    assert Room.objects.get().state == "countdown"


def test_unstarted_scheduled_room_expires_30_minutes_after_its_time(ada, grace):
    room = scheduled(ada, grace)
    with time_machine.travel(T0 + dt.timedelta(hours=2, minutes=29), tick=False):
        assert sweep_rooms() == 0
    with time_machine.travel(T0 + dt.timedelta(hours=2, minutes=31), tick=False):
        assert sweep_rooms() == 1
        html = client_for(grace).get(reverse("room", args=[room.code])).content.decode()
    room.refresh_from_db()
    assert room.state == "expired" and "within 30 minutes" in room.expiry_reason
    assert "This room has expired" in html


def test_scheduled_lobby_does_not_expire_for_idleness_before_its_time(ada, grace):
    room = scheduled(ada, grace, start=T0 + dt.timedelta(days=2))
    with time_machine.travel(T0 + dt.timedelta(days=1), tick=False):
        assert sweep_rooms() == 0
    assert Room.objects.get(pk=room.pk).state == "lobby"


def test_idle_lobby_expires_and_page_treats_overdue_room_as_expired(ada, grace):
    with time_machine.travel(T0, tick=False):
        room = create_room(ada)
    with time_machine.travel(T0 + dt.timedelta(minutes=31), tick=False):
        # No worker has run yet: the page already shows it expired.
        html = client_for(grace).get(reverse("room", args=[room.code])).content.decode()
        assert "This room has expired" in html and Room.objects.get().state == "lobby"
        assert sweep_rooms() == 1 and sweep_rooms() == 0
    assert Room.objects.get().state == "expired"


def started(ada, grace, at):
    with time_machine.travel(at, tick=False):
        room = create_room(ada, level="easy")
        act(room.code, grace, A.Join())
        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        act(room.code, ada, A.Start())
    return room


def test_safety_limit_and_results_expiry(ada, grace, bank_puzzle):
    room = started(ada, grace, T0)
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        act(room.code, grace, A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]))))
    with time_machine.travel(T0 + dt.timedelta(hours=2, minutes=1), tick=False):
        assert sweep_rooms() == 1
    room.refresh_from_db()
    assert room.state == "finished" and room.seats.get(player=grace).place == 1
    with time_machine.travel(T0 + dt.timedelta(hours=26, minutes=2), tick=False):
        assert sweep_rooms() == 1
    assert Room.objects.get().state == "expired"


def test_countdown_turns_into_play_by_the_sweep(ada, grace, bank_puzzle):
    room = started(ada, grace, T0)
    with time_machine.travel(T0 + dt.timedelta(seconds=5), tick=False):
        assert sweep_rooms() == 1
    assert Room.objects.get(pk=room.pk).state == "playing"


def test_calendar_file(ada, grace):
    room = scheduled(ada, grace)
    response = client_for(grace).get(reverse("room_calendar", args=[room.code]))
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/calendar")
    assert "DTSTART:20261201T200000Z" in body and room.code in body
    plain = create_room(ada)
    assert client_for(grace).get(reverse("room_calendar", args=[plain.code])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_sweep_run_twice_at_once_changes_each_room_once():
    require_service(connection.vendor == "postgresql", "PostgreSQL (row locks)")
    ada = Profile.objects.create(display_name="Ada")
    codes = [create_room(ada).code for _ in range(5)]
    Room.objects.update(last_activity=timezone.now() - dt.timedelta(minutes=40))
    barrier = threading.Barrier(2)
    results = []

    def run():
        barrier.wait()
        try:
            results.append(sweep_rooms())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(results) == 5
    assert RoomEvent.objects.filter(room__code__in=codes, kind="sync").count() == 5
    assert set(Room.objects.values_list("state", flat=True)) == {"expired"}

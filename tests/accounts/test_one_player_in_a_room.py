"""A player signed in on two devices is one player in a room (docs/rules.md 6, issue 22): one seat,
whichever browser joins, leaves or opens the room; two joins at once seat the account once;
a player the host removed stays removed on their other device too."""

import pytest

from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import RoomEvent, Seat
from rooms.result import RoomError
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def signed_in(profile):
    """A browser whose player cookie names `profile`, signed in to its account."""
    client = client_for(profile)
    client.force_login(profile.account)
    return client


def seated(room):
    return sorted(Seat.objects.filter(room=room).values_list("player_id", flat=True))


def test_the_phone_of_a_seated_account_opens_the_room_as_that_seat_and_joining_adds_none(laptop, phone, stranger):
    room = create_room(stranger, level="easy")
    act(room.code, laptop, A.Join())
    phone_browser = signed_in(phone)
    page = phone_browser.get(f"/r/{room.code}/").content.decode()
    assert "Leave room" in page and "Join as" not in page  # seated, from the phone
    response = phone_browser.post(f"/r/{room.code}/join/")
    assert response.status_code == 302
    assert seated(room) == sorted([stranger.pk, laptop.pk])
    # Leaving from the phone leaves the laptop's seat: the account's one place in the room.
    assert phone_browser.post(f"/r/{room.code}/leave/").status_code == 302
    assert seated(room) == [stranger.pk]


def test_two_joins_at_once_from_two_browsers_of_one_account_seat_it_once(laptop, phone, stranger):
    # Both browsers saw the room without a seat (as_seated found none), then both join: the
    # second join, under the room's lock, finds the account's seat.
    room = create_room(stranger, level="easy")
    act(room.code, laptop, A.Join())
    result = act(room.code, phone, A.Join())
    assert not result.changed and result.seat.player_id == laptop.pk
    assert seated(room) == sorted([stranger.pk, laptop.pk])
    act(room.code, phone, A.SetReady(True))  # a lobby action from the other browser: the one seat
    assert Seat.objects.get(room=room, player=laptop).ready


def test_a_player_removed_by_the_host_cannot_rejoin_from_their_other_device(laptop, phone, stranger):
    room = create_room(stranger, level="easy")
    act(room.code, laptop, A.Join())
    act(room.code, stranger, A.Kick(laptop.pk))
    assert RoomEvent.objects.filter(room=room, kind="kick").exists()
    with pytest.raises(RoomError, match="removed you"):
        act(room.code, phone, A.Join())
    assert seated(room) == [stranger.pk]


def test_an_anonymous_browser_is_still_its_own_player(laptop, stranger):
    room = create_room(stranger, level="easy")
    act(room.code, laptop, A.Join())
    eve = Profile.objects.create(display_name="Eve")  # no account: nothing of Ada's
    act(room.code, eve, A.Join())
    assert seated(room) == sorted([stranger.pk, laptop.pk, eve.pk])


def test_the_guest_list_answer_of_one_device_is_the_accounts_on_the_other(laptop, phone, stranger):
    import datetime as dt

    from django.utils import timezone

    from rooms.rules import as_seated

    room = create_room(stranger, level="easy", scheduled_for=timezone.now() + dt.timedelta(days=1), host_timezone="UTC")
    act(room.code, laptop, A.Coming(True, "Europe/Amsterdam", "nl"))
    assert as_seated(room.code, phone) == laptop  # not seated: the guest list's profile
    act(room.code, as_seated(room.code, phone), A.Coming(False, "", ""))
    assert list(room.guests.values_list("player_id", "coming")) in (
        [(stranger.pk, True), (laptop.pk, False)],
        [(laptop.pk, False), (stranger.pk, True)],
    )

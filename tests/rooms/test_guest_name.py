"""A scheduled showdown's "I'm coming" asks a still unnamed guest ("Player 1234") for a name,
prefilled with the current one, so that guest lists do not read "Player 7220" (issue 43, 6)."""

import datetime as dt
import json

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.urls import reverse

from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from rooms.models import Guest
from tests.conftest import client_for
from tests.rooms.test_consumer import connect, receive_until

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)
START = T0 + dt.timedelta(hours=2)


@pytest.fixture
def utc_showdown(db):
    """Ada's showdown two hours ahead, scheduled from UTC."""
    ada = Profile.objects.create(display_name="Ada")
    with time_machine.travel(T0, tick=False):
        return create_room(ada, level="easy", scheduled_for=START, host_timezone="UTC")


def test_an_unnamed_guest_is_asked_a_name_prefilled_and_a_named_one_is_not(utc_showdown):
    unnamed = Profile.objects.create(display_name="Player 7220")
    named = Profile.objects.create(display_name="Grace")
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        asked = client_for(unnamed).get(reverse("room", args=[utc_showdown.code])).content.decode()
        not_asked = client_for(named).get(reverse("room", args=[utc_showdown.code])).content.decode()
    assert 'name="display_name" value="Player 7220"' in asked and "Your name on the guest list" in asked
    assert 'name="display_name"' not in not_asked and "I'm coming" in not_asked


def test_im_coming_with_a_name_renames_the_guest(utc_showdown):
    guest = Profile.objects.create(display_name="Player 7220")
    action, _ = A.parse_message({"action": "coming", "display_name": "  Hedy \u200b Lamarr "}, None)
    assert action == A.Coming(True, "", "", "Hedy Lamarr")  # trimmed, the zero-width space dropped
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        act(utc_showdown.code, guest, action)
    guest.refresh_from_db()
    assert guest.display_name == "Hedy Lamarr"
    assert list(
        Guest.objects.filter(room=utc_showdown, coming=True).values_list("player__display_name", flat=True)
    ) == [
        "Ada",
        "Hedy Lamarr",
    ]


def test_a_bad_name_refuses_the_answer_and_changes_nothing(utc_showdown):
    guest = Profile.objects.create(display_name="Player 7220")
    for bad, why in (("\u200b\u200b", "visible character"), ("x" * 25, "at most 24"), ("", "required")):
        with pytest.raises(A.MalformedMessage, match=why):
            A.parse_message({"action": "coming", "display_name": bad}, None)
    guest.refresh_from_db()
    assert guest.display_name == "Player 7220" and not Guest.objects.filter(player=guest).exists()
    # "Not coming" never renames, and an answer without the field keeps the name
    action, _ = A.parse_message({"action": "not_coming", "display_name": "Eve"}, None)
    assert action.name == ""
    assert A.parse_message({"action": "coming"}, None)[0].name == ""


@pytest.mark.django_db(transaction=True)
async def test_the_host_sees_the_picked_name_live_and_a_bad_one_is_refused_over_the_socket():
    room, ada, guest = await sync_to_async(_rows)()
    a, connected, _ = await connect(room.code, ada)
    assert connected
    g, connected, _ = await connect(room.code, guest)
    assert connected
    await a.receive_from(timeout=5)
    await g.receive_from(timeout=5)
    await g.send_to(text_data=json.dumps({"action": "coming", "display_name": "\u200b"}))
    assert "visible character" in await receive_until(g, "visible character")
    await g.send_to(text_data=json.dumps({"action": "coming", "display_name": "Hedy"}))
    body = await receive_until(a, "2 coming")
    assert "Hedy" in body and "Player 7220" not in body
    for c in (a, g):
        await c.disconnect()


def _rows():
    from django.utils import timezone

    ada, guest = (Profile.objects.create(display_name=n) for n in ("Ada", "Player 7220"))
    when = (timezone.now() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
    return create_room(ada, level="easy", scheduled_for=when, host_timezone="UTC"), ada, guest

"""Issue 43, item 4, on the dailies: the pause rule is shown before the start, and a ranked
daily moved to another device is not a pause (the clock runs on, the run stays Classic).
The rule itself: tests/games/test_solo_pause_rule.py."""

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import SoloRun
from players.models import Profile
from tests.conftest import EMPTY, SOLUTION, client_for

HX = {"HTTP_HX_REQUEST": "true"}
RULE = "Closing the page or switching device is not a pause"


pytestmark = pytest.mark.usefixtures("no_restart")  # the server has been up since long before the run


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def at(run, seconds):
    return time_machine.travel(run.started_at + dt.timedelta(seconds=seconds), tick=False)


def test_a_daily_moved_to_another_device_is_not_a_pause(dailies):
    user = get_user_model().objects.create_user(username="ada", email="ada@example.com")
    phone, laptop = Profile.objects.create(account=user), Profile.objects.create(account=user)
    phone_client, laptop_client = client_for(phone), client_for(laptop)
    phone_client.force_login(user)
    laptop_client.force_login(user)
    date = timezone.now().date()
    started = phone_client.post(reverse("daily_start"), {"zone": "UTC", "date": date.isoformat(), "level": "easy"})
    run = SoloRun.objects.get(pk=int(started["Location"].strip("/").split("/")[-1]))
    with at(run, 1):
        act(phone_client, run, cell=EMPTY[0], digit=SOLUTION[EMPTY[0]])
    with at(run, 120):  # two minutes later the laptop opens it: it carries on, no Resume
        moved = laptop_client.get(reverse("solo_run", args=[run.pk])).content.decode()
        assert 'data-state="playing"' in moved and 'role="grid"' in moved and "Resume" not in moved
    with at(run, 121):
        for cell in EMPTY[1:]:
            act(laptop_client, run, cell=cell, digit=SOLUTION[cell])
    finished = SoloRun.objects.get(pk=run.pk)
    assert finished.player == laptop and finished.state == "finished"
    assert not finished.assisted and finished.elapsed == pytest.approx(121, abs=0.5)


def test_the_rule_is_shown_before_the_start(player_client, dailies):
    assert RULE in player_client.get(reverse("home")).content.decode()  # the Solo Run tile and the daily's
    assert RULE in player_client.get(reverse("daily")).content.decode()

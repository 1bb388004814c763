"""Dates in the page's language (issue 43 item 17): a Dutch page said "Gepland voor Fri 4 Dec
2026" (strftime, always English) and "Dec 4, 2026" on the rankings (an English order)."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from players.models import Profile
from rooms.api import create_room
from tests.conftest import client_for
from tests.stats.rated_rooms import signed_in
from tests.stats.test_rating_pages import browser_of, finished_run, text

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC)
START = dt.datetime(2027, 3, 5, 17, 0, tzinfo=dt.UTC)  # Friday 5 March, 18:00 in Amsterdam


def test_a_scheduled_rooms_time_reads_in_the_pages_language(bank_puzzle):
    host = Profile.objects.create(display_name="Ada")
    with time_machine.travel(NOW, tick=False):
        room = create_room(host, level="easy", scheduled_for=START, host_timezone="Europe/Amsterdam")
        pages = {
            language: text(client_for(host).get(reverse("room", args=[room.code]), HTTP_ACCEPT_LANGUAGE=language))
            for language in ("en", "nl")
        }
    assert "Scheduled for Fri 5 March 2027, 18:00" in pages["en"]
    assert "Gepland voor vr 5 maart 2027, 18:00" in pages["nl"]
    assert "Fri" not in pages["nl"] and "Mar " not in pages["nl"]


def test_the_rankings_dates_read_in_the_pages_language(bank_puzzle):
    ada = signed_in("Ada")
    with time_machine.travel(dt.datetime(2027, 3, 5, 12, 0, tzinfo=dt.UTC), tick=False):
        finished_run(ada, "easy", 300, puzzle=bank_puzzle)
    pages = {
        language: text(browser_of(ada).get("/rankings/solo/easy/classic/", HTTP_ACCEPT_LANGUAGE=language))
        for language in ("en", "nl")
    }
    assert "5 March 2027" in pages["en"]
    assert "5 mrt 2027" in pages["nl"]
    assert "Mar 5" not in pages["nl"] and "March" not in pages["nl"]

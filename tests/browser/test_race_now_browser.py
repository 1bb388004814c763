"""Issue 38's "Done when", in Chromium: three players (two signed in, one anonymous) press
Race now on Easy in three browsers, land in one public room, race it to the end over
WebSockets; the two signed-in players see their rating changes, the anonymous one is told to
sign in for a rating; Race again puts them back in the pool."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from games.models import Puzzle
from players.models import Profile
from pool.models import PoolEntry
from rooms.models import Room
from stats.models import RatingChange
from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION
from tests.browser.test_ratings_browser import solve

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(browser, base_url, name):
    """A browser signed in to an account of its own (its session and its linked profile)."""
    user = get_user_model().objects.create_user(username=name.lower(), email=f"{name.lower()}@example.com")
    profile = Profile.objects.create(display_name=name, account=user)
    client = Client()
    client.force_login(user)
    page = new_page(browser, base_url, profile, width=1280)
    host = base_url.split("//", 1)[1].split(":")[0]
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "domain": host, "path": "/"}])
    return page


def test_three_press_race_now_race_one_public_room_and_race_again(browser, daphne_server):
    for _ in range(3):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada = signed_in(browser, daphne_server, "Ada")
    grace = signed_in(browser, daphne_server, "Grace")
    linus = new_page(browser, daphne_server, Profile.objects.create(display_name="Linus"), width=375)
    pages = (ada, grace, linus)

    for page in pages:
        page.goto("/")
        page.get_by_role("form", name="Race now: pick a level").get_by_role("button", name="Easy").click()
    # The first two waited on the pool's page; the third made three, and every page's poll
    # (or the third's own answer) led it into the room.
    for page in pages:
        expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=20_000)
    room = Room.objects.get()
    assert room.public and room.seats.count() == 3
    asked = PoolEntry.objects.order_by("asked_at").values_list("asked_at", flat=True)
    assert room.created_at - asked.last() < dt.timedelta(seconds=5)  # formed once the third asked
    for page in pages:
        page.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=20_000)
        assert page.locator(".room-meta .badge", has_text="Public race").count() == 1  # under Rules

    solve(linus)  # the anonymous player wins; the signed-in two are rated among themselves
    solve(grace)
    solve(ada)
    for page in pages:
        page.wait_for_selector("#room-body[data-state=finished]", timeout=20_000)
    stored = {c.profile.display_name: c.delta for c in RatingChange.objects.select_related("profile")}
    assert set(stored) == {"Ada", "Grace"} and stored["Grace"] > stored["Ada"]
    for page in (ada, grace):
        expect(page.locator("[data-rating]")).to_contain_text("Grace")
        expect(page.locator("[data-rating]")).not_to_contain_text("Linus")
    expect(linus.locator("#rematch")).to_contain_text("Sign in to get a rating")

    # Race again: straight back in the Easy pool, waiting (nobody else asked yet).
    for page in (ada, linus):
        page.get_by_role("button", name="Race again").click()
        expect(page).to_have_url(re.compile(r"/race/$"))
        expect(page.get_by_role("heading", name="Finding you a race")).to_be_visible()
    assert set(PoolEntry.objects.filter(state="waiting").values_list("level", flat=True)) == {"easy"}
    expect(ada.locator("#pool-panel")).to_contain_text("Linus")
    ada.get_by_role("button", name="Cancel").click()
    expect(ada).to_have_url(re.compile(r"/$"))
    assert not PoolEntry.objects.filter(state="waiting", player__display_name="Ada").exists()
    for page in pages:
        page.context.close()

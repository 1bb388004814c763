"""Issue 40's "Done when", in Chromium over real sockets (daphne): two signed-in players race,
follow each other from the finish screen, see each other on a daily's Friends tab; one invites
the other to a new room from the friends panel and the other joins by the notification; a
nudge arrives; the week's league table shows both."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from friends import graph
from friends.models import Member
from games.daily.models import Daily
from games.models import Puzzle, SoloRun
from leagues import placement
from players.models import Profile
from rooms import actions as A
from rooms.api import create_room
from rooms.models import Room, Seat
from tests.browser.conftest import act, new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION
from tests.browser.test_ratings_browser import solve

pytestmark = pytest.mark.django_db(transaction=True)


def member_page(browser, base_url, name, width=1280):
    """A browser signed in to an account with a handle (its session and its linked profile)."""
    user = get_user_model().objects.create_user(username=name.lower(), email=f"{name.lower()}@example.com")
    Member.objects.create(account=user, handle=name.lower())
    profile = Profile.objects.create(display_name=name, account=user)
    client = Client()
    client.force_login(user)
    page = new_page(browser, base_url, profile, width=width)
    host = base_url.split("//", 1)[1].split(":")[0]
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "domain": host, "path": "/"}])
    return page, profile


def raced(players) -> Room:
    """A Showdown room of `players`, playing (its countdown over), through the write path."""
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    room = create_room(players[0], "showdown", "easy", "standard")
    for p in players[1:]:
        act(room.code, p, A.Join())
    for p in players:
        act(room.code, p, A.SetReady(True))
    act(room.code, players[0], A.Start(), now=timezone.now() - dt.timedelta(seconds=30))
    act(room.code, players[0], A.Sync())
    return room


def daily_finish(profile, daily, elapsed):
    run = SoloRun.objects.create(
        player=profile, puzzle=daily.puzzle, level=daily.level, board={}, daily=daily, state="finished",
        elapsed=elapsed, mistakes=0, score=100, finished_at=timezone.now(),
    )  # fmt: skip
    placement.run_finished(SoloRun, run)  # as the finish's signal does: placed in the week's league
    return run


def test_race_follow_friends_tab_invite_nudge_league(browser, daphne_server):
    (ana, ana_p), (bo, bo_p) = (
        member_page(browser, daphne_server, "Ana"),
        member_page(browser, daphne_server, "Bo", 375),
    )

    # 1. They race; each follows the other from the finish screen.
    room = raced([ana_p, bo_p])
    for page in (ana, bo):
        page.goto(f"/r/{room.code}/")
        page.wait_for_selector("#room-body[data-state=playing] [data-board]")
    solve(bo)
    solve(ana)
    for page, other, now in ((ana, "Bo", "✓ Following"), (bo, "Ana", "✓ Friends")):
        page.wait_for_selector("#room-body[data-state=finished]")
        page.locator("[data-follow-strip]").get_by_role("button", name=f"Follow {other}").click()
        # Ana's follow answered before Bo's is sent (sent at once, a loaded CI stored Bo's first)
        expect(page.locator("[data-follow-strip] [data-follow-state]")).to_have_text(now)
    assert graph.is_friend(ana_p.account_id, bo_p.account_id)

    # 2. Today's Easy daily, both finished: the Friends tab places them among themselves.
    daily = Daily.objects.create(date=timezone.now().date(), level="easy", puzzle=Puzzle.objects.first())
    daily_finish(ana_p, daily, 250.0)
    daily_finish(bo_p, daily, 190.0)
    ana.goto(f"/daily/{daily.date.isoformat()}/easy/")
    ana.locator("[data-friends-tab]").click()
    rows = ana.locator(".daily-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Bo")
    expect(rows.nth(1)).to_contain_text("Ana")

    # 3. Bo is on the home page; Ana opens a new room, and the lobby's friends panel shows Bo
    # online, pushed, with an Invite. Bo's bell and toast say so; the toast's link joins.
    bo.goto("/")
    lobby = create_room(ana_p, "showdown", "easy", "standard")
    ana.goto(f"/r/{lobby.code}/")
    panel = ana.locator("#friends-online-slot")
    expect(panel).to_contain_text("Bo")
    panel.get_by_role("button", name="Invite").click()
    expect(bo.locator("#bell .bell-count")).to_have_text("2")  # Ana followed him, then invited him
    toast = bo.locator("#me-toasts [data-toast]")
    expect(toast).to_contain_text("Ana invites you to a race")
    toast.get_by_role("link", name="Open").click()
    expect(bo).to_have_url(re.compile(rf"/r/{lobby.code}/$"))
    bo.get_by_role("button", name="Join as Bo").click()
    expect(ana.locator(".players")).to_contain_text("Bo")
    assert Seat.objects.filter(room=lobby, player=bo_p).exists()

    # 4. A nudge from the friends page arrives on Bo's open page; a second one today is refused.
    ana.goto("/friends/")
    expect(ana.locator(f"[data-friend='{bo_p.account_id}'] [data-friend-streak]")).to_contain_text("1-day")
    ana.locator(f"[data-nudge='{bo_p.account_id}']").click()
    expect(bo.locator("#me-toasts [data-toast]").last).to_contain_text("Ana nudges you")
    expect(ana.locator(f"[data-friend='{bo_p.account_id}']")).to_contain_text("Nudged today")

    # 5. The week's league: both placed by their daily finishes, Bo ahead (behind him: Ana).
    bo.goto("/league/")
    table = bo.locator(".league-table tbody tr")
    expect(table).to_have_count(2)
    expect(table.nth(0)).to_contain_text("Bo")
    expect(table.nth(0)).to_contain_text("2")  # 1 + one player behind
    expect(table.nth(1)).to_contain_text("Ana")
    for page in (ana, bo):
        page.context.close()

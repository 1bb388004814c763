"""Issue 26's 'Done when' in Chromium: two guests in their own time zones join the guest list,
the host moves the showdown and both pages show the new time in their zones, the .ics says
SEQUENCE 1; the host cancels and both pages say so."""

import datetime as dt
import re
import zoneinfo

from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from players.models import Profile
from rooms.api import create_room
from tests.browser.conftest import new_page
from tests.conftest import cookie_for

AMSTERDAM = zoneinfo.ZoneInfo("Europe/Amsterdam")


def guest_page(browser, base_url, profile, zone, width):
    context = browser.new_context(
        base_url=base_url, timezone_id=zone, bypass_csp=True, viewport={"width": width, "height": 800}
    )
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie_for(profile), "domain": "127.0.0.1", "path": "/"}]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def clock(moment, zone):
    there = moment.astimezone(zoneinfo.ZoneInfo(zone))
    return re.compile(f"{there:%H:%M}|{there.hour % 12 or 12}:{there:%M}")  # the browser's own clock style


def test_guests_in_two_zones_see_the_move_and_the_cancellation(browser, daphne_server):
    host = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    linus = Profile.objects.create(display_name="Linus")
    first = (
        (timezone.now() + dt.timedelta(days=2))
        .astimezone(AMSTERDAM)
        .replace(hour=4, minute=18, second=0, microsecond=0)
    )
    room = create_room(
        host, "showdown", "easy", scheduled_for=first.astimezone(dt.UTC), host_timezone="Europe/Amsterdam"
    )
    guests = [
        (guest_page(browser, daphne_server, grace, "Asia/Tokyo", 375), "Asia/Tokyo"),
        (guest_page(browser, daphne_server, linus, "America/New_York", 1280), "America/New_York"),
    ]
    host_page = new_page(browser, daphne_server, host, width=1280, height=800)
    host_page.goto(f"/r/{room.code}/")
    for page, zone in guests:
        page.goto(f"/r/{room.code}/")
        expect(page.locator("[data-local-time]")).to_contain_text(clock(first, zone))
        page.get_by_role("button", name="I'm coming").click()
        expect(page.locator(".guest-panel")).to_contain_text("Remind me")
    # The host's page got both names over its socket, without a reload.
    expect(host_page.locator(".guests")).to_contain_text("Grace")
    expect(host_page.locator(".guests")).to_contain_text("Linus")
    expect(host_page.locator("#guests-h")).to_contain_text("3 coming")
    # The host moves it a day later to 19:45 Amsterdam time.
    moved = (first + dt.timedelta(days=1)).replace(hour=19, minute=45)
    host_page.get_by_text("Move or cancel the showdown").click()
    host_page.get_by_label("New start").fill(moved.strftime("%Y-%m-%dT%H:%M"))
    host_page.get_by_role("button", name="Move the showdown").click()
    expect(host_page.locator("[data-host-time]")).to_contain_text("19:45")
    for page, zone in guests:
        expect(page.locator("[data-moved]")).to_be_visible()
        expect(page.locator("[data-host-time]")).to_contain_text("19:45")
        expect(page.locator("[data-local-time]")).to_contain_text(clock(moved, zone))
        page.screenshot(path=f"/tmp/scheduled-moved-{zone.replace('/', '-')}.png", full_page=True)
    ics = guests[0][0].request.get(f"/r/{room.code}/calendar.ics").text()
    assert "SEQUENCE:1" in ics and "BEGIN:VALARM" in ics and "STATUS:CONFIRMED" in ics
    # The host cancels (asked twice); every page says so.
    if not host_page.locator("details.reschedule[open]").count():  # the push redrew it closed
        host_page.get_by_text("Move or cancel the showdown").click()
    host_page.locator("details.cancel-ask > summary").click()
    host_page.get_by_role("button", name="Yes, cancel it").click()
    for page, _zone in [*guests, (host_page, "")]:
        expect(page.get_by_role("heading", name="This showdown was cancelled")).to_be_visible()
        expect(page.locator("#room-body")).to_contain_text("The host cancelled this showdown.")
    ics = guests[1][0].request.get(f"/r/{room.code}/calendar.ics").text()
    assert "SEQUENCE:2" in ics and "STATUS:CANCELLED" in ics
    for page, _zone in [*guests, (host_page, "")]:
        page.context.close()


def test_a_dutch_page_in_an_english_browser_says_the_local_time_in_dutch(browser, daphne_server):
    """Issue 43 item 17: the viewer's own time was written in the browser's language, so a Dutch
    page in an English browser read "Fri, Dec 4"; it follows the page's language now."""
    host = Profile.objects.create(display_name="Ada")
    start = (timezone.now() + dt.timedelta(days=3)).replace(second=0, microsecond=0)
    room = create_room(host, "showdown", "easy", scheduled_for=start, host_timezone="Europe/Amsterdam")
    context = browser.new_context(base_url=daphne_server, locale="en-US", timezone_id="Asia/Tokyo", bypass_csp=True)
    domain = daphne_server.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {"name": settings.PLAYER_COOKIE_NAME, "value": cookie_for(host), "domain": domain, "path": "/"},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": "nl", "domain": domain, "path": "/"},
        ]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"/r/{room.code}/")
    local = page.locator("[data-local-time]")
    expect(local).to_be_visible()
    expect(local).to_contain_text(re.compile(r"\b(ma|di|wo|do|vr|za|zo)\b"))  # Dutch weekdays
    expect(local).not_to_contain_text(re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b"))
    context.close()

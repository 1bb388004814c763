"""The account page names each linked browser ("Chrome on Android": issue 43 item 7, it said
only "Last seen 5 minutes ago"), from the user agent it signed in with; and the passkeys' dates
read in the page's language (they were US dates, 12/04/2026, in English and Dutch alike)."""

import datetime as dt

import pytest
from allauth.mfa.models import Authenticator
from django.test import Client

from accounts.browsers import browser_of
from players.models import Profile
from tests.accounts.test_sign_in import sign_in, sign_up
from tests.conftest import cookie_for

pytestmark = pytest.mark.django_db

PIXEL = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)
MAC_SAFARI = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Safari/605.1.15"
)
WINDOWS_EDGE = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
    "Safari/537.36 Edg/131.0.0.0"
)


@pytest.mark.parametrize(
    ("user_agent", "names"),
    [
        (PIXEL, ("Chrome", "Android")),
        (WINDOWS_FIREFOX, ("Firefox", "Windows")),
        (IPHONE, ("Safari", "iPhone")),
        (MAC_SAFARI, ("Safari", "macOS")),
        (WINDOWS_EDGE, ("Edge", "Windows")),
        ("", ("", "")),
        ("x" * 100_000, ("", "")),
    ],
)
def test_a_user_agent_names_a_browser_and_a_system(user_agent, names):
    assert browser_of(user_agent) == names


def browser(settings, user_agent=""):
    """A browser with a player cookie of its own, that sends `user_agent`."""
    client = Client(HTTP_USER_AGENT=user_agent)
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(Profile.objects.create(display_name="Ada"))
    return client


def test_the_account_page_names_each_linked_browser(smtp, settings):
    laptop = browser(settings, WINDOWS_FIREFOX)
    sign_up(laptop, smtp)
    phone = browser(settings, PIXEL)
    sign_in(phone, smtp)
    page = laptop.get("/account/").content.decode()
    assert "Firefox on Windows</strong>" in page and "Chrome on Android</strong>" in page
    assert Profile.objects.filter(browser="Chrome", system="Android").count() == 1
    dutch = phone.get("/account/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Chrome op Android</strong>" in dutch and "Firefox op Windows</strong>" in dutch
    # A browser linked before its name was kept says so, and nothing made up.
    Profile.objects.filter(system="Windows").update(browser="", system="")
    assert "Unknown browser</strong>" in phone.get("/account/").content.decode()


def test_the_passkeys_dates_read_in_the_pages_language(smtp, settings):
    client = browser(settings)
    user = sign_up(client, smtp)
    key = Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN, data={"name": "Laptop"})
    Authenticator.objects.filter(pk=key.pk).update(created_at=dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC))
    english = client.get("/account/").content.decode()
    dutch = client.get("/account/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Added on 4 March 2026" in english
    assert "Toegevoegd op 4 maart 2026" in dutch
    assert "03/04/2026" not in english + dutch

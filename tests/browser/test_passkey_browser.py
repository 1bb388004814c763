"""Issue 43, item 2: passkeys cannot work at an IP address (Chromium refuses it as the WebAuthn
relying party, "This is an invalid domain") and the player got no word. The sign-in page says
why and disables the passkey button there; at the site's name it offers passkeys as before."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_at_an_ip_address_the_sign_in_page_says_passkeys_need_the_name(browser, live_server):
    address = live_server.url.replace("localhost", "127.0.0.1")
    page = new_page(browser, address)
    page.goto("/accounts/login/")
    note = page.locator("[data-passkey-unavailable]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("open it as http://localhost:8000")
    expect(note).to_contain_text("instead of 127.0.0.1")
    expect(page.get_by_role("button", name="Sign in with a passkey")).to_be_disabled()


def test_at_the_sites_name_passkeys_are_offered(browser, live_server):
    assert "//localhost:" in live_server.url
    page = new_page(browser, live_server.url)
    page.goto("/accounts/login/")
    expect(page.get_by_role("button", name="Sign in with a passkey")).to_be_enabled()
    expect(page.locator("[data-passkey-unavailable]")).to_be_hidden()

"""Sign-up asks for the display name (filled in with the browser's) and the handle (docs/rules.md
11), through the real SMTP server; a taken or malformed handle makes no account."""

import pytest
from django.contrib.auth import get_user_model

from friends.models import Member
from players.models import Profile
from tests.accounts.conftest import smtp  # noqa: F401  (a real SMTP server)
from tests.conftest import client_for
from tests.friends.people import member

pytestmark = pytest.mark.django_db


def test_sign_up_asks_the_name_and_the_handle_and_keeps_both(smtp):  # noqa: F811
    browser = Profile.objects.create(display_name="Ana Banana")
    client = client_for(browser)
    client.cookies["name_chosen"] = "1"
    page = client.get("/accounts/signup/").content.decode()
    assert 'name="handle"' in page and 'value="Ana Banana"' in page  # the browser's name, filled in
    response = client.post("/accounts/signup/", {"email": "ana@example.com", "display_name": "Ana B", "handle": "AnaB"})
    assert response.status_code == 302
    response = client.post("/accounts/confirm-email/", {"code": smtp.last_code("ana@example.com")})
    assert response.status_code == 302
    user = get_user_model().objects.get(email="ana@example.com")
    assert Member.objects.get(account=user).handle == "anab"
    browser.refresh_from_db()
    assert browser.account == user and browser.display_name == "Ana B"


@pytest.mark.parametrize("handle", ["\u0430na", "ANA", "a!", "admin"])
def test_a_taken_look_alike_or_bad_handle_makes_no_account(smtp, handle):  # noqa: F811
    member("Ana")
    client = client_for(Profile.objects.create(display_name="Eve"))
    response = client.post("/accounts/signup/", {"email": "eve@example.com", "display_name": "Eve", "handle": handle})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not get_user_model().objects.filter(email="eve@example.com").exists()
    assert smtp.messages == []

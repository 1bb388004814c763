"""Passkeys on the account page and allauth's passkey pages in the site's layout (issue 22):
rename and remove, each behind a fresh code, in English and Dutch; bad names and another
account's passkey change nothing; a code still signs in alone once the account has one."""

import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.test import Client

from tests.accounts.test_sign_in import ADA, sign_in, sign_up
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def passkey(user, name="Laptop"):
    return Authenticator.objects.create(
        user=user, type=Authenticator.Type.WEBAUTHN, data={"name": name, "credential": {}}
    )


def reauthenticate(client, smtp):
    """A fresh code (allauth's reauthentication, for ACCOUNT_REAUTHENTICATION_TIMEOUT): managing
    passkeys asks for one."""
    response = client.get("/accounts/2fa/webauthn/add/")
    assert response.status_code == 302 and "/reauthenticate/" in response["Location"]
    response = client.post(response["Location"], {"recipient": ADA})
    response = client.post(response["Location"], {"code": smtp.last_code(ADA)})
    assert response.status_code == 302, response.content.decode()[:1000]


@pytest.fixture
def ada_reauthenticated(smtp):
    """A browser signed up by code, with a fresh code entered for managing passkeys, and its user."""
    from players.models import Profile

    client = client_for(Profile.objects.create(display_name="Ada"))
    user = sign_up(client, smtp)
    reauthenticate(client, smtp)
    return client, user


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", ["/accounts/2fa/webauthn/add/", "/account/delete/"])
def test_a_page_behind_a_fresh_code_asks_for_one_in_debug_and_production_mode(smtp, settings, debug, path):
    """Issue 43, item 1: under `make run` (DEBUG on) the styled error pages caught allauth's
    "re-authenticate first" signal before allauth's middleware could redirect: 500 every time."""
    from players.models import Profile

    settings.DEBUG = debug
    client = client_for(Profile.objects.create(display_name="Ada"))
    sign_up(client, smtp)
    response = client.get(path)
    assert response.status_code == 302 and "/reauthenticate/" in response["Location"]
    response = client.get(response["Location"])
    assert response.status_code == 200 and b"code" in response.content


def name_of(key) -> str:
    key.refresh_from_db()
    return key.data["name"]


def test_the_account_page_lists_the_passkeys_with_rename_and_remove(ada_reauthenticated):
    client, user = ada_reauthenticated
    key = passkey(user)
    page = client.get("/account/").content.decode()
    assert "Laptop" in page and "never used" in page
    assert f'href="/accounts/2fa/webauthn/keys/{key.pk}/edit/"' in page
    assert f'href="/accounts/2fa/webauthn/keys/{key.pk}/remove/"' in page
    assert 'href="/accounts/2fa/webauthn/add/"' in page
    page = client.get("/accounts/2fa/", follow=True).content.decode()  # allauth's own list, the same
    assert "Laptop" in page and "Rename" in page and 'class="site-footer"' in page


def test_the_passkey_pages_speak_dutch(ada_reauthenticated):
    client, user = ada_reauthenticated
    client.cookies["django_language"] = "nl"
    # (the add page lists the account's real credentials for the browser: before the made-up one)
    page = client.get("/accounts/2fa/webauthn/add/").content.decode()
    assert "Een passkey toevoegen" in page and 'value="Passkey 1"' in page  # not allauth's "Master key"
    key = passkey(user)
    page = client.get("/account/").content.decode()
    assert "Hernoemen" in page and "Verwijderen" in page and "nooit gebruikt" in page
    assert "Passkey hernoemen" in client.get(f"/accounts/2fa/webauthn/keys/{key.pk}/edit/").content.decode()
    page = client.get(f"/accounts/2fa/webauthn/keys/{key.pk}/remove/").content.decode()
    assert "Passkey verwijderen" in page and "„Laptop”" in page


def test_rename_a_passkey(ada_reauthenticated):
    client, user = ada_reauthenticated
    key = passkey(user)
    page = client.get(f"/accounts/2fa/webauthn/keys/{key.pk}/edit/").content.decode()
    assert "Rename passkey" in page and 'value="Laptop"' in page and 'class="site-footer"' in page
    response = client.post(f"/accounts/2fa/webauthn/keys/{key.pk}/edit/", {"name": "  Work phone "})
    assert response.status_code == 302
    assert name_of(key) == "Work phone"
    assert "Work phone" in client.get("/account/").content.decode()


@pytest.mark.parametrize(
    "name, message",
    [("", "This field is required."), ("   ", "This field is required."), ("x" * 41, "at most 40 characters")],
)
def test_a_bad_name_is_refused_and_changes_nothing(ada_reauthenticated, name, message):
    client, user = ada_reauthenticated
    key = passkey(user)
    response = client.post(f"/accounts/2fa/webauthn/keys/{key.pk}/edit/", {"name": name})
    assert response.status_code == 200 and message in response.content.decode()
    assert name_of(key) == "Laptop"


def test_remove_a_passkey_after_asking_once_more(ada_reauthenticated):
    client, user = ada_reauthenticated
    key, other = passkey(user), passkey(user, "Phone")
    page = client.get(f"/accounts/2fa/webauthn/keys/{key.pk}/remove/").content.decode()
    assert "Remove passkey" in page and "“Laptop”" in page and 'class="button danger"' in page
    response = client.post(f"/accounts/2fa/webauthn/keys/{key.pk}/remove/")
    assert response.status_code == 302
    assert list(Authenticator.objects.filter(user=user)) == [other]
    page = client.get("/account/").content.decode()
    assert "Laptop" not in page and "Phone" in page


def test_another_accounts_passkey_can_be_neither_renamed_nor_removed(ada_reauthenticated, smtp):
    client, _user = ada_reauthenticated
    grace = get_user_model().objects.create_user("grace", email="grace@example.com")
    theirs = passkey(grace, "Grace's key")
    assert client.post(f"/accounts/2fa/webauthn/keys/{theirs.pk}/edit/", {"name": "Mine"}).status_code == 404
    assert client.post(f"/accounts/2fa/webauthn/keys/{theirs.pk}/remove/").status_code == 404
    assert name_of(theirs) == "Grace's key"


def test_renaming_and_removing_need_a_fresh_code_and_the_csrf_token(ada_reauthenticated, settings):
    client, user = ada_reauthenticated
    key = passkey(user)
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 0  # the sign-up's code is no longer fresh
    for action, data in (("edit", {"name": "Stolen"}), ("remove", {})):
        response = client.post(f"/accounts/2fa/webauthn/keys/{key.pk}/{action}/", data)
        assert response.status_code == 302 and "reauthenticate" in response["Location"]
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 300
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    assert strict.post(f"/accounts/2fa/webauthn/keys/{key.pk}/remove/").status_code == 403
    assert name_of(key) == "Laptop"


def test_a_code_still_signs_in_alone_once_the_account_has_a_passkey(ada_reauthenticated, smtp):
    _client, user = ada_reauthenticated
    passkey(user)
    phone = Client()  # a device without the passkey
    response = sign_in(phone, smtp, ADA)
    assert response["Location"] == "/account/"  # not allauth's "authenticate with your passkey" step
    assert phone.get("/account/").status_code == 200

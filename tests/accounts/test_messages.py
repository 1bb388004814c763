"""allauth's messages ("You have signed out.", ...) are shown once, on the next page, whichever
it is (base.html's message block): before, only the account page showed them, so they piled
up and surfaced there later, out of their context."""

import pytest
from django.test import Client

from tests.accounts.test_sign_in import sign_up

pytestmark = pytest.mark.django_db


def test_the_sign_out_message_shows_on_the_next_page_once(smtp):
    client = Client()
    sign_up(client, smtp)
    client.get("/account/")  # whatever sign-up said is consumed here
    assert client.post("/accounts/logout/").status_code == 302
    page = client.get("/how-to-play/").content.decode()
    assert 'id="flash"' in page and "You have signed out." in page
    assert "You have signed out." not in client.get("/how-to-play/").content.decode()


def test_messages_are_translated(smtp):
    client = Client()
    sign_up(client, smtp)
    client.get("/account/")
    client.post("/accounts/logout/", headers={"accept-language": "nl"})  # worded in the request's language
    page = client.get("/how-to-play/", headers={"accept-language": "nl"}).content.decode()
    assert "Je bent afgemeld." in page or "U bent afgemeld." in page, page[page.find('id="flash"') :][:300]

"""The language comes from Accept-Language; the footer's switch (Django's set_language, a
plain form) changes it, and the language cookie keeps it on the next pages."""

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_accept_language_picks_dutch_and_html_lang_follows(client):
    assert '<html lang="nl"' in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9").content.decode()
    assert '<html lang="en"' in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_the_footer_offers_each_language_in_its_own_name(client):
    html = client.get(reverse("how_to_play")).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert 'value="nl" lang="nl">Nederlands</button>' in html
    assert 'value="en" lang="en" aria-current="true">English' in html


def test_the_switch_changes_the_language_and_it_sticks(client):
    page = reverse("how_to_play")
    response = client.post(reverse("set_language"), {"language": "nl", "next": page}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == page
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"
    # The browser still asks for English: the cookie wins, on this page and the next.
    for url in (page, reverse("leaderboards")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert '<html lang="nl"' in html and "Ranglijsten" in html
    client.post(reverse("set_language"), {"language": "en", "next": page})
    assert '<html lang="en"' in client.get(page, HTTP_ACCEPT_LANGUAGE="nl").content.decode()


def test_an_unknown_language_changes_nothing(client):
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302 and settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert '<html lang="en"' in client.get(reverse("home")).content.decode()

"""Sign-in and sign-up codes as a player meets them (issue 43 item 5): the code pages offer a
new code, and a new code lasts as long as the first; an expired code says so and where to ask
for a new one (it dropped the player on a sign-in page without a word); the mails are the
site's own (allauth's said "Hello from 127.0.0.1:8000!" and "user bar.player has given your
email"), in English and Dutch, as text and HTML; the sign-up page says where the code goes in
development, as the sign-in page does. Mail goes through a real SMTP server (conftest.py)."""

import datetime as dt

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.accounts.test_sign_in import ADA, sign_up

pytestmark = pytest.mark.django_db
CONFIRM = "/accounts/login/code/confirm/"
VERIFY = "/accounts/confirm-email/"


def later(minutes):
    return time_machine.travel(timezone.now() + dt.timedelta(minutes=minutes), tick=False)


def asked_to_sign_in(smtp, language="en"):
    """A browser that asked for a sign-in code for Ada's account."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post("/accounts/login/", {"login": ADA})
    assert response.status_code == 302 and response["Location"].startswith(CONFIRM)
    return client


def signs_up(client, handle="ada"):
    """The sign-up form posted: the address, a name and a handle (friends.forms.SignupForm)."""
    response = client.post("/accounts/signup/", {"email": ADA, "display_name": "Ada", "handle": handle})
    assert response.status_code == 302, response.content.decode()[:2000]


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def bodies(mail) -> tuple[str, str]:
    return (
        mail.get_body(preferencelist=("plain",)).get_content(),
        mail.get_body(preferencelist=("html",)).get_content(),
    )


# --- a new code ------------------------------------------------------------------------------


def test_the_sign_in_code_page_sends_a_new_code_that_lasts_its_own_ten_minutes(smtp):
    sign_up(Client(), smtp)
    client = asked_to_sign_in(smtp)
    first = smtp.last_code(ADA)
    page = client.get(CONFIRM).content.decode()
    assert 'form="resend"' in page and "Request new code" in page  # a button, on the page
    with later(9):
        assert client.post(CONFIRM, {"action": "resend"}).status_code == 302
    second = smtp.last_code(ADA)
    assert second != first
    with later(18):  # 9 minutes after the second code, 18 after the sign-in began
        assert client.post(CONFIRM, {"code": first}).status_code == 200 and not signed_in(client)
        assert client.post(CONFIRM, {"code": second}).status_code == 302
    assert signed_in(client)


def test_the_sign_up_code_page_sends_a_new_code(smtp):
    client = Client()
    signs_up(client)
    first = smtp.last_code(ADA)
    assert 'form="resend"' in client.get(VERIFY).content.decode()
    with later(1):  # allauth mails an address once in 10 s at most
        assert client.post(VERIFY, {"action": "resend"}).status_code == 302
        second = smtp.last_code(ADA)
        assert second != first
        assert client.post(VERIFY, {"code": second}).status_code == 302 and signed_in(client)


def test_new_codes_count_against_the_per_ip_limit(smtp, settings):
    user = get_user_model().objects.create_user("ada", email=ADA)  # an account made without a request
    EmailAddress.objects.create(user=user, email=ADA, verified=True, primary=True)
    settings.ACCOUNT_CODE_REQUESTS_PER_IP = 2
    client = asked_to_sign_in(smtp)  # the first of 2 (all from the test client's address)
    assert client.post(CONFIRM, {"action": "resend"}).status_code == 302
    sent = len(smtp.messages)
    assert client.post(CONFIRM, {"action": "resend"}).status_code == 429
    assert len(smtp.messages) == sent


# --- an expired code -------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "nl"])
def test_an_expired_sign_in_code_says_so_and_where_to_ask_for_a_new_one(smtp, language):
    sign_up(Client(), smtp)
    client = asked_to_sign_in(smtp, language)
    code = smtp.last_code(ADA)
    with later(11):
        response = client.post(CONFIRM, {"code": code}, follow=True)
    assert not signed_in(client)
    page = response.content.decode()
    said = {"en": "That code has expired", "nl": "Die code is verlopen"}[language]
    assert said in page and "10 minutes" in page.replace("10 minuten", "10 minutes")
    # ... on the page that sends a new code: the address, once more, and a new code that works
    assert response.redirect_chain[-1][0] in ("/accounts/login/", "/accounts/login/code/")
    assert 'name="login"' in page or 'name="email"' in page
    again = asked_to_sign_in(smtp)
    again.post(CONFIRM, {"code": smtp.last_code(ADA)})
    assert signed_in(again)


def test_an_expired_sign_up_code_says_so_and_signing_in_finishes_the_sign_up(smtp):
    client = Client()
    signs_up(client)
    code = smtp.last_code(ADA)
    with later(11):
        response = client.post(VERIFY, {"code": code}, follow=True)
    assert not signed_in(client)
    assert "That code has expired" in response.content.decode()
    again = asked_to_sign_in(smtp)  # the address gets a sign-in code, which verifies it too
    again.post(CONFIRM, {"code": smtp.last_code(ADA)})
    assert signed_in(again)


def test_an_expired_code_to_confirm_it_is_you_says_so(smtp):
    client = Client()
    sign_up(client, smtp)
    asked = client.get("/account/delete/")  # deleting the account asks for a fresh code first
    confirm = client.post(asked["Location"], {"recipient": ADA})["Location"]
    with later(11):
        response = client.post(confirm, {"code": smtp.last_code(ADA)}, follow=True)
        assert "That code has expired" in response.content.decode()
        assert client.get("/account/delete/").status_code == 302  # still not confirmed


# --- the mails -------------------------------------------------------------------------------


def test_the_sign_in_code_mail_is_the_sites_own(smtp):
    user = sign_up(Client(), smtp)
    asked_to_sign_in(smtp)
    mail, code = smtp.to(ADA)[-1], smtp.last_code(ADA)
    assert mail["Subject"] == f"Sudoku Showdown: your sign-in code is {code}"
    for body in bodies(mail):
        assert code in body and "Sudoku Showdown" in body and "10 minutes" in body
        assert "Hello from" not in body and "testserver" not in body and user.username not in body
    text, html = bodies(mail)
    assert "<strong" in html and "<p" not in text


def test_the_sign_up_code_mail_is_the_sites_own(smtp):
    signs_up(Client(), "ada2")
    (mail,) = smtp.to(ADA)
    code = smtp.last_code(ADA)
    assert mail["Subject"] == f"Sudoku Showdown: your sign-up code is {code}"
    for body in bodies(mail):
        assert code in body and "Sudoku Showdown" in body and "10 minutes" in body
        assert "has given your email" not in body and "Hello from" not in body and "testserver" not in body


def test_the_code_mails_speak_dutch(smtp):
    client = Client(HTTP_ACCEPT_LANGUAGE="nl")
    signs_up(client)
    mail, code = smtp.to(ADA)[-1], smtp.last_code(ADA)
    assert mail["Subject"] == f"Sudoku Showdown: je registratiecode is {code}"
    for body in bodies(mail):
        assert "10 minuten" in body and "Sudoku Showdown" in body
    client.post(VERIFY, {"code": code})
    client.post("/accounts/logout/")
    asked_to_sign_in(smtp, "nl")
    mail, code = smtp.to(ADA)[-1], smtp.last_code(ADA)
    assert mail["Subject"] == f"Sudoku Showdown: je inlogcode is {code}"
    for body in bodies(mail):
        assert "Je code om in te loggen bij Sudoku Showdown" in body and "10 minuten" in body


def test_an_unknown_address_gets_the_sites_own_mail_with_the_sign_up_link(smtp):
    asked = Client().post("/accounts/login/", {"login": "nobody@example.com"})
    assert asked.status_code == 302
    (mail,) = smtp.to("nobody@example.com")
    assert mail["Subject"] == "Sudoku Showdown: no account with this address"
    for body in bodies(mail):
        assert "http://testserver/accounts/signup/" in body and "Hello from" not in body


def test_signing_up_with_a_known_address_mails_a_sign_in_link_not_a_password_reset(smtp):
    sign_up(Client(), smtp)
    with later(1):  # allauth mails an address once in 10 s at most
        signs_up(Client(), "ada2")
    mail = smtp.to(ADA)[-1]
    assert mail["Subject"] == "Sudoku Showdown: you already have an account"
    for body in bodies(mail):
        assert "http://testserver/accounts/login/" in body and "password" not in body.lower()


# --- the sign-up page in development -----------------------------------------------------------


def test_the_sign_up_page_says_where_the_code_goes_in_development(settings):
    settings.DEBUG = True
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    assert "data-console-note" in Client().get("/accounts/signup/").content.decode()
    settings.DEBUG = False
    assert "data-console-note" not in Client().get("/accounts/signup/").content.decode()

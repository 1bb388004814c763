"""Sign-up and sign-in by a code sent by email, through a real SMTP server (aiosmtpd), and
what each does to the browser's profile (issue 22)."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import SoloRun
from players.middleware import _load
from players.models import Profile
from tests.conftest import client_for, cookie_for

pytestmark = pytest.mark.django_db
ADA = "ada@example.com"
TOKEN = re.compile(r"[A-Za-z0-9]{64}")  # CSRF tokens differ per client


def sign_up(client, smtp, address=ADA):
    """Sign up as a player does: the address, a display name (the browser's, kept) and a handle."""
    known = (
        Profile.objects.filter(token=player_token(client)).first()
        if settings.PLAYER_COOKIE_NAME in client.cookies
        else None
    )
    name = known.display_name if known else "Ada"
    handle = re.sub(r"[^a-z0-9_]", "_", address.split("@")[0].lower())[:20]
    response = client.post("/accounts/signup/", {"email": address, "display_name": name, "handle": handle})
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post("/accounts/confirm-email/", {"code": smtp.last_code(address)})
    assert response.status_code == 302 and response["Location"] == "/account/"
    return get_user_model().objects.get(email=address)


def sign_in(client, smtp, address=ADA):
    response = client.post("/accounts/login/", {"login": address})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/code/confirm/")
    response = client.post("/accounts/login/code/confirm/", {"code": smtp.last_code(address)})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def browser_with_run(bank_puzzle, elapsed, name="Player 1234"):
    profile = Profile.objects.create(display_name=name)
    SoloRun.objects.create(
        player=profile,
        puzzle=bank_puzzle,
        level="easy",
        board={},
        state=SoloRun.State.FINISHED,
        elapsed=elapsed,
        score=100,
        finished_at=timezone.now() - timedelta(minutes=5),
    )
    return profile, client_for(profile)


def board_page(client):
    return client.get("/leaderboards/?game=solo&level=easy&board=classic").content.decode()


def player_token(client):
    from django.core import signing

    return signing.loads(client.cookies[settings.PLAYER_COOKIE_NAME].value, salt="stats.player")


def test_sign_up_links_this_browsers_profile_and_its_records(smtp, bank_puzzle):
    laptop, client = browser_with_run(bank_puzzle, 300.0, name="Ada")
    session_before = client.cookies.get(settings.SESSION_COOKIE_NAME)
    user = sign_up(client, smtp)
    laptop.refresh_from_db()
    assert laptop.account == user
    assert player_token(client) == laptop.token  # the browser keeps its profile
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != getattr(session_before, "value", None)
    assert "5:00" in board_page(client)
    page = client.get("/account/").content.decode()
    assert ADA in page and "Ada" in page


def test_a_second_browser_signs_in_and_both_see_both_runs(smtp, bank_puzzle):
    _laptop, a = browser_with_run(bank_puzzle, 300.0, name="Ada")
    user = sign_up(a, smtp)
    phone, b = browser_with_run(bank_puzzle, 200.0, name="Player 5555")
    sign_in(b, smtp)
    phone.refresh_from_db()
    assert phone.account == user and phone.display_name == "Ada"  # the account's name wins
    for client in (a, b):
        page = board_page(client)
        assert "5:00" in page and "3:20" in page
    # each run once: the account has two finished runs, not four
    assert client.get("/leaderboards/?game=solo").context["tabs"][0]["count"] == 2


def test_sign_out_leaves_a_fresh_anonymous_profile_and_the_old_cookie_opens_nothing(smtp, bank_puzzle):
    laptop, client = browser_with_run(bank_puzzle, 300.0)
    sign_up(client, smtp)
    old_cookie = client.cookies[settings.PLAYER_COOKIE_NAME].value
    assert client.post("/accounts/logout/").status_code == 302
    assert player_token(client) != laptop.token
    assert "5:00" not in board_page(client)
    # a copy of the linked profile's cookie, without the account's session: nothing readable
    thief = Client()
    thief.cookies[settings.PLAYER_COOKIE_NAME] = old_cookie
    assert "5:00" not in board_page(thief)
    # ... nor writable: the post gets a profile of its own
    thief.post("/profile/", {"display_name": "Mallory"})
    laptop.refresh_from_db()
    assert laptop.display_name != "Mallory"
    assert player_token(thief) != laptop.token


def test_a_socket_with_a_linked_profiles_cookie_needs_the_accounts_session(smtp, bank_puzzle):
    laptop, client = browser_with_run(bank_puzzle, 300.0)
    user = sign_up(client, smtp)
    raw = cookie_for(laptop)
    assert _load(raw, {}) is None
    assert _load(raw, {"_auth_user_id": str(user.pk + 1)}) is None
    assert _load(raw, {"_auth_user_id": str(user.pk)}) == laptop


def test_another_account_on_a_linked_browser_gets_a_fresh_profile(smtp, bank_puzzle):
    laptop, client = browser_with_run(bank_puzzle, 300.0)
    ada = sign_up(client, smtp)
    # the session goes (expired, or cleared), the cookie of Ada's profile stays
    cookie = client.cookies[settings.PLAYER_COOKIE_NAME].value
    other = Client()
    other.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    grace = sign_up(other, smtp, "grace@example.com")
    laptop.refresh_from_db()
    assert laptop.account == ada  # nothing moves between accounts
    graces = Profile.objects.get(account=grace)
    assert graces != laptop and player_token(other) == graces.token
    assert "5:00" not in board_page(other)
    # and signing in to Ada again on that browser of Ada's cookie reuses her profile
    again = Client()
    again.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    sign_in(again, smtp)
    assert player_token(again) == laptop.token
    assert Profile.objects.filter(account=ada).count() == 1


def test_a_browser_without_a_profile_gets_one_at_sign_in(smtp):
    client = Client()
    user = sign_up(client, smtp)
    assert Profile.objects.get(account=user).token == player_token(client)


def test_known_and_unknown_addresses_get_the_same_answer(smtp):
    sign_up(Client(), smtp)
    answers = []
    for address in (ADA, "nobody@example.com"):
        response = Client().post("/accounts/login/", {"login": address}, follow=True)
        page = TOKEN.sub("", response.content.decode().replace(address, "@"))
        answers.append((response.status_code, response.redirect_chain, page))
    assert answers[0] == answers[1]  # the same page, word for word (the CSRF token aside)


def test_a_wrong_code_is_refused_and_three_wrong_codes_void_the_code(smtp):
    sign_up(Client(), smtp)
    client = Client()
    client.post("/accounts/login/", {"login": ADA})
    code = smtp.last_code(ADA)
    wrong = "AAAA-AAAA" if code != "AAAA-AAAA" else "BBBB-BBBB"
    first = client.post("/accounts/login/code/confirm/", {"code": wrong})
    assert first.status_code == 200 and "_auth_user_id" not in client.session
    for _ in range(2):
        client.post("/accounts/login/code/confirm/", {"code": wrong})
    late = client.post("/accounts/login/code/confirm/", {"code": code})
    assert "_auth_user_id" not in client.session, late.status_code


def test_code_requests_are_limited_per_client_ip(smtp, settings):
    settings.ACCOUNT_CODE_REQUESTS_PER_IP = 2
    for n in range(2):
        assert Client().post("/accounts/login/", {"login": f"p{n}@example.com"}).status_code == 302
    sent = len(smtp.messages)
    refused = Client().post("/accounts/login/", {"login": "p9@example.com"})
    assert refused.status_code == 429
    assert len(smtp.messages) == sent


def test_the_sign_in_page_says_where_the_code_goes_in_development(settings, db):
    settings.DEBUG = True
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    assert "data-console-note" in Client().get("/accounts/login/").content.decode()
    settings.DEBUG = False
    assert "data-console-note" not in Client().get("/accounts/login/").content.decode()


def test_unlink_signs_that_browser_out_and_keeps_its_records_with_the_account(smtp, bank_puzzle):
    _laptop, a = browser_with_run(bank_puzzle, 300.0)
    sign_up(a, smtp)
    phone, b = browser_with_run(bank_puzzle, 200.0)
    sign_in(b, smtp)
    assert "5:00" in board_page(b)  # signed in (and the cache now vouches for the phone's cookie)
    assert a.post(f"/account/browsers/{phone.pk}/unlink/").status_code == 302
    assert "3:20" in board_page(a)  # what the phone played stays the account's
    assert "3:20" not in board_page(b)  # the phone is signed out, with a fresh profile
    assert "_auth_user_id" not in b.session
    assert b.get("/account/").status_code == 302
    # nobody unlinks a browser of someone else's account
    grace = Client()
    sign_up(grace, smtp, "grace@example.com")
    _laptop.refresh_from_db()
    assert grace.post(f"/account/browsers/{_laptop.pk}/unlink/").status_code == 404


def test_download_my_data_has_every_record_of_every_linked_browser(smtp, bank_puzzle):
    laptop, a = browser_with_run(bank_puzzle, 300.0)
    sign_up(a, smtp)
    phone, b = browser_with_run(bank_puzzle, 200.0)
    sign_in(b, smtp)
    response = a.get("/account/data.json")
    assert response["Content-Disposition"].startswith("attachment")
    data = response.json()
    assert data["account"]["email"] == ADA
    assert {p["id"] for p in data["profiles"]} == {laptop.pk, phone.pk}
    assert sorted(r["elapsed"] for r in data["solo_runs"]) == [200.0, 300.0]
    assert Client().get("/account/data.json").status_code == 302  # signed out: to the sign-in page


def test_delete_account_needs_a_fresh_code_and_keeps_others_room_results(smtp, bank_puzzle, settings):
    from rooms.models import RoomResult

    laptop, a = browser_with_run(bank_puzzle, 300.0)
    user = sign_up(a, smtp)
    grace = Profile.objects.create(display_name="Grace")
    for profile, place in ((laptop, 1), (grace, 2)):
        RoomResult.objects.create(
            player=profile,
            room_code="ABCDEF",
            game="showdown",
            placement=place,
            player_count=2,
            status="finished",
            score=10,
            finished_at=timezone.now(),
        )
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 0  # the sign-up's code is not fresh enough
    response = a.post("/account/delete/", {"confirm": "delete"})
    assert response.status_code == 302 and "reauthenticate" in response["Location"]
    assert get_user_model().objects.filter(pk=user.pk).exists()
    # the fresh code: asked for, read from the SMTP server, entered
    settings.ACCOUNT_REAUTHENTICATION_TIMEOUT = 300
    response = a.post(response["Location"], {"recipient": ADA, "next": "/account/delete/"})
    response = a.post(response["Location"], {"code": smtp.last_code(ADA), "next": "/account/delete/"})
    assert response["Location"] == "/"  # allauth resumes the confirmed post: the account goes
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert not SoloRun.objects.filter(player=laptop).exists()  # the solo records go
    kept = RoomResult.objects.get(room_code="ABCDEF", placement=1)  # Grace's room keeps its result
    assert kept.player.display_name == "deleted player" and kept.player.account is None
    assert RoomResult.objects.get(room_code="ABCDEF", placement=2).player == grace
    assert "_auth_user_id" not in a.session and player_token(a) != laptop.token


def test_one_display_name_per_account_a_new_name_on_one_browser_is_every_browsers(smtp, bank_puzzle):
    laptop, a = browser_with_run(bank_puzzle, 300.0, name="Ada")
    sign_up(a, smtp)
    phone, b = browser_with_run(bank_puzzle, 200.0)
    sign_in(b, smtp)
    stranger = Profile.objects.create(display_name="Grace")
    b.post("/profile/", {"display_name": "Ada L"})
    for profile, name in ((laptop, "Ada L"), (phone, "Ada L"), (stranger, "Grace")):
        profile.refresh_from_db()
        assert profile.display_name == name
    assert "Ada L" in a.get("/account/").content.decode()


def test_there_are_no_password_views_and_every_mailing_view_is_limited(smtp, settings):
    for path in (
        "/accounts/password/reset/",
        "/accounts/password/change/",
        "/accounts/password/set/",
        "/accounts/password/reset/done/",
        "/accounts/password/reset/key/1a-set-password/",
    ):
        assert Client().post(path, {"email": "victim@example.com"}).status_code == 404, path
        assert Client().get(path).status_code == 404, path
    assert smtp.messages == []  # no reset mail to anyone
    # Adding an address mails a verification: under the same per-IP limit as the codes.
    settings.ACCOUNT_CODE_REQUESTS_PER_IP = 1
    client = Client()
    client.post("/accounts/email/", {"email": "first@example.com", "action_add": ""})
    assert client.post("/accounts/email/", {"email": "second@example.com", "action_add": ""}).status_code == 429

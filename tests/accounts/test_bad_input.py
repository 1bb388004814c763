"""Bad input and attacks on sign-in (issue 22): each is refused with a clear answer and
changes nothing."""

import statistics
import time

import pytest
from django.test import Client

from tests.accounts.test_sign_in import ADA, sign_in, sign_up

pytestmark = pytest.mark.django_db


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_a_reused_code_signs_nobody_in(smtp):
    sign_up(Client(), smtp)
    client = Client()
    sign_in(client, smtp)
    code = smtp.last_code(ADA)
    client.post("/accounts/logout/")
    again = Client()
    again.post("/accounts/login/", {"login": ADA})
    response = again.post("/accounts/login/code/confirm/", {"code": code})  # the old code, not the new one
    assert not signed_in(again), response.status_code


def test_a_code_for_one_address_does_not_sign_in_another(smtp):
    sign_up(Client(), smtp)
    sign_up(Client(), smtp, "grace@example.com")
    mallory = Client()
    mallory.post("/accounts/login/", {"login": "grace@example.com"})
    other = Client()
    other.post("/accounts/login/", {"login": ADA})
    response = mallory.post("/accounts/login/code/confirm/", {"code": smtp.last_code(ADA)})
    assert response.status_code == 200 and not signed_in(mallory)


def test_an_expired_code_is_refused(smtp, settings):
    import time_machine

    sign_up(Client(), smtp)
    client = Client()
    client.post("/accounts/login/", {"login": ADA})
    code = smtp.last_code(ADA)
    with time_machine.travel(time.time() + settings.ACCOUNT_LOGIN_BY_CODE_TIMEOUT + 5):
        client.post("/accounts/login/code/confirm/", {"code": code})
        assert not signed_in(client)


def test_brute_forcing_codes_stops_at_the_attempt_limit(smtp, settings):
    sign_up(Client(), smtp)
    client = Client()
    client.post("/accounts/login/", {"login": ADA})
    real = smtp.last_code(ADA)
    guesses = [f"{n:04d}-0000" for n in range(settings.ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS)]
    for guess in guesses:
        client.post("/accounts/login/code/confirm/", {"code": guess})
    client.post("/accounts/login/code/confirm/", {"code": real})  # the right one, too late
    assert not signed_in(client)


def test_next_does_not_redirect_off_the_site(smtp):
    sign_up(Client(), smtp)
    client = Client()
    client.post("/accounts/login/?next=https://evil.example/", {"login": ADA, "next": "https://evil.example/"})
    response = client.post(
        "/accounts/login/code/confirm/?next=https://evil.example/",
        {"code": smtp.last_code(ADA), "next": "https://evil.example/"},
    )
    assert signed_in(client)
    assert "evil.example" not in response["Location"]


@pytest.mark.parametrize("address", ["", " ", "a" * 300 + "@example.com", "not an address", "ada@"])
def test_bad_addresses_get_a_clear_answer_and_no_mail(smtp, address):
    for url, field in (("/accounts/login/", "login"), ("/accounts/signup/", "email")):
        response = Client().post(url, {field: address})
        assert response.status_code in (200, 400)  # the form again with its error, or the refusal
        page = response.content.decode()
        assert 'class="errorlist' in page or "required" in page or "too long" in page
    assert smtp.messages == []


def test_a_non_ascii_address_is_answered_without_an_error(smtp):
    for url, field in (("/accounts/login/", "login"), ("/accounts/signup/", "email")):
        assert Client().post(url, {field: "zoë@exämple.nl"}).status_code in (200, 302)


def test_posts_without_the_csrf_token_are_refused(smtp):
    client = Client(enforce_csrf_checks=True)
    for url, data in (("/accounts/login/", {"login": ADA}), ("/accounts/signup/", {"email": ADA})):
        assert client.post(url, data).status_code == 403
    assert smtp.messages == []


def test_the_account_pages_posts_without_the_csrf_token_are_refused(smtp):
    """Signed in, a forged form (no token) can neither unlink, delete, nor sign out."""
    from players.models import Profile
    from tests.accounts.test_sign_in import player_token
    from tests.conftest import client_for

    laptop = Profile.objects.create(display_name="Ada")
    signed = client_for(laptop)
    sign_up(signed, smtp)
    forged = Client(enforce_csrf_checks=True)
    forged.cookies = signed.cookies
    for url, data in (
        (f"/account/browsers/{laptop.pk}/unlink/", {}),
        ("/account/delete/", {"confirm": "delete"}),
        ("/accounts/logout/", {}),
    ):
        assert forged.post(url, data).status_code == 403
    laptop.refresh_from_db()
    assert laptop.account is not None and not laptop.unlinked and player_token(signed) == laptop.token
    assert signed.get("/account/").status_code == 200  # still signed in


def test_the_answer_takes_as_long_for_an_unknown_address_as_for_a_known_one(smtp, settings):
    """Enumeration by timing: medians of the code request for a known and an unknown address
    (both send a message: a code, or 'no account here') are within noise of each other."""
    settings.ACCOUNT_RATE_LIMITS = {"request_login_code": None, "login": None}
    settings.ACCOUNT_CODE_REQUESTS_PER_IP = 10_000
    sign_up(Client(), smtp)
    timings: dict[str, list[float]] = {"known": [], "unknown": []}
    for n in range(15):
        for kind, address in (("known", ADA), ("unknown", f"nobody{n}@example.com")):
            client = Client()
            start = time.perf_counter()
            client.post("/accounts/login/", {"login": address})
            timings[kind].append(time.perf_counter() - start)
    known, unknown = statistics.median(timings["known"]), statistics.median(timings["unknown"])
    assert abs(known - unknown) < 0.5 * max(known, unknown) + 0.005, (known, unknown)


@pytest.mark.parametrize("game", ["solo", "cardoku", "domino"])
def test_a_stale_cookie_after_sign_out_cannot_move_in_the_accounts_games(smtp, bank_puzzle, game):
    """A copy of a linked browser's player cookie, kept past its sign-out (or its session's end),
    makes no move in the account's game in progress, also when this process kept the game's row
    after the account's last move (games/common/rowwriter.py)."""
    from django.conf import settings
    from django.urls import reverse

    from games.cardoku import solo as cardoku
    from games.domino import solo as domino
    from games.models import SoloRun
    from games.sudoku.solo import start_run
    from players.models import Profile
    from tests.accounts.test_sign_in import player_token
    from tests.conftest import EMPTY, SOLUTION, client_for

    laptop = Profile.objects.create(display_name="Ada")
    client = client_for(laptop)
    sign_up(client, smtp)
    if game == "solo":
        played = start_run(laptop, "easy")
        url, model = reverse("solo_act", args=[played.pk]), SoloRun
        moves = [{"cell": cell, "digit": SOLUTION[cell], "version": v} for v, cell in enumerate(EMPTY[:2])]
    elif game == "cardoku":
        played = cardoku.start_game(laptop, {"layout": "default"})
        url, model = reverse("cardoku_act", args=[played.pk]), type(played)
        moves = [{"action": "discard", "step": step} for step in range(2)]
    else:
        played = domino.start_game(laptop, "easy")
        url, model = reverse("domino_act", args=[played.pk]), type(played)
        moves = [{"joker": "gold", "cell": "1-3", "version": 0}, {"joker": "gold", "cell": "1-4", "version": 1}]
    assert player_token(client) == laptop.token
    response = client.post(url, moves[0], HTTP_HX_REQUEST="true")  # the account's move: kept by this process
    assert response.status_code == 200, response.content.decode()[:500]
    before = model.objects.get(pk=played.pk).revision
    stale = client.cookies[settings.PLAYER_COOKIE_NAME].value
    assert client.post("/accounts/logout/").status_code == 302
    thief = Client()
    thief.cookies[settings.PLAYER_COOKIE_NAME] = stale
    response = thief.post(url, moves[1], HTTP_HX_REQUEST="true")
    assert response.status_code in (403, 404, 409)
    assert model.objects.get(pk=played.pk).revision == before  # nothing written

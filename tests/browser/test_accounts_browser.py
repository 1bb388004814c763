"""Issue 22's "Done when": records follow a player from browser A to browser B through an
account, the codes read from a real SMTP server (aiosmtpd), and a passkey added with
Chromium's virtual authenticator (CDP WebAuthn) signs in alone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import SoloRun
from players.models import Profile
from tests.accounts.conftest import smtp  # noqa: F401  (the fixture)
from tests.browser.conftest import new_page

pytestmark = pytest.mark.django_db(transaction=True)
ADA = "ada@example.com"


def finish_run(profile, puzzle, elapsed):
    SoloRun.objects.create(
        player=profile,
        puzzle=puzzle,
        level="easy",
        board={},
        state=SoloRun.State.FINISHED,
        elapsed=elapsed,
        score=100,
        finished_at=timezone.now() - timedelta(minutes=1),
    )


def board(page) -> str:
    page.goto("/leaderboards/?game=solo&level=easy&board=classic")
    return page.inner_text("main")


def enter_code(page, smtp):  # noqa: F811
    page.fill("input[name=code]", smtp.last_code(ADA))
    with page.expect_navigation():
        page.press("input[name=code]", "Enter")


def test_records_follow_the_account_and_a_passkey_signs_in_alone(browser, live_server, smtp, bank_puzzle, settings):  # noqa: F811
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True  # http://localhost in the test
    url = live_server.url.replace("127.0.0.1", "localhost")  # WebAuthn wants a domain name
    a_player = Profile.objects.create(display_name="Ada")
    finish_run(a_player, bank_puzzle, 300.0)  # A played a Solo Run anonymously
    a = new_page(browser, url, a_player)
    # A signs up with the code from the SMTP server
    a.goto("/accounts/signup/")
    a.fill("input[name=email]", ADA)
    a.click("main form button[type=submit]")
    enter_code(a, smtp)
    assert "/account/" in a.url and ADA in a.inner_text("main")
    # B signs in with a new code and sees A's run
    b = new_page(browser, url)
    b.goto("/accounts/login/")
    b.fill("input[name=login]", ADA)
    b.click("main form button[type=submit] >> nth=0")
    enter_code(b, smtp)
    assert "5:00" in board(b)
    # a run finished on B shows on A
    b_player = Profile.objects.exclude(pk=a_player.pk).get(account__email=ADA)
    finish_run(b_player, bank_puzzle, 200.0)
    assert "3:20" in board(a)
    # B signs out: its leaderboards are empty
    b.goto("/account/")
    b.click("form[action='/accounts/logout/'] button")
    b.wait_for_load_state()
    text = board(b)
    assert "5:00" not in text and "3:20" not in text
    # a passkey on A (Chromium's virtual authenticator), then a sign-in with it alone
    cdp = a.context.new_cdp_session(a)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    a.goto("/accounts/2fa/webauthn/add/")
    if "/reauthenticate/" in a.url:  # adding a passkey asks for a fresh code first
        with a.expect_navigation():
            a.click("main form button[type=submit] >> nth=0")
        enter_code(a, smtp)
    assert a.is_checked("input[name=passwordless]")  # always a passkey: it signs in alone
    a.fill("input[name=name]", "Laptop")
    a.click("#mfa_webauthn_add")
    a.wait_for_url(lambda u: "/webauthn/add/" not in u, timeout=10_000)
    assert "Laptop" in a.inner_text("[data-passkeys]")  # the passkeys list, in the site's layout
    a.goto("/account/")
    a.click("form[action='/accounts/logout/'] button")
    a.wait_for_load_state()
    a.goto("/accounts/login/")
    a.click("#passkey_login")
    a.wait_for_url(lambda u: "/accounts/login/" not in u, timeout=10_000)
    assert "5:00" in board(a) and "3:20" in board(a)


def test_the_finish_screens_offer_sign_in_once(browser, live_server, bank_puzzle):
    """A signed-out player is offered "Sign in to keep your records on every device" on the
    first finish this browser shows (and on that finish again), not on a later one."""
    from tests.games.test_solo_finish import finished_run
    from tests.rooms.test_podium import finished_room

    players = [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus", "Barbara")]
    first, second = (finished_run(players[0], bank_puzzle, seconds) for seconds in (95, 120))
    room = finished_room(players)
    a = new_page(browser, live_server.url, players[0])
    offer = "[data-keep-records]"
    a.goto(f"/solo/{first.pk}/")
    assert a.is_visible(offer) and "Sign in to keep your records on every device" in a.inner_text(offer)
    a.goto(f"/solo/{second.pk}/")
    assert a.locator(offer).count() == 1 and not a.is_visible(offer)  # rendered, not shown again
    a.goto(f"/r/{room.code}/")
    assert a.locator(offer).count() == 1 and not a.is_visible(offer)
    a.goto(f"/solo/{first.pk}/")  # the finish it was offered on keeps it
    assert a.is_visible(offer)
    a.click(f"{offer} a")
    a.wait_for_url("**/accounts/login/")
    # another browser is offered it on its own first finish
    b = new_page(browser, live_server.url, players[1])
    b.goto(f"/r/{room.code}/")
    assert b.is_visible(offer)

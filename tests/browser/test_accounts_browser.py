"""Issue 22's "Done when": records follow a player from browser A to browser B through an
account, each run played through the board, the codes read from a real SMTP server
(aiosmtpd), and a passkey added with Chromium's virtual authenticator (CDP WebAuthn) signs in
alone."""

import pytest
from playwright.sync_api import expect

from games.models import SoloRun
from games.templatetags.game_tags import clock
from players.models import Profile
from tests.accounts.conftest import smtp  # noqa: F401  (the fixture)
from tests.browser.conftest import new_page
from tests.browser.test_solo_browser import start_easy

pytestmark = pytest.mark.django_db(transaction=True)
ADA = "ada@example.com"


def play_a_solo_run(page) -> str:
    """An Easy Solo Run started from the home page and solved on the board by keyboard (the test
    reads the solution from the database, never the page); its time as the boards show it."""
    before = set(SoloRun.objects.values_list("pk", flat=True))
    start_easy(page)
    run = SoloRun.objects.exclude(pk__in=before).get()
    givens, solution = run.puzzle.givens, run.puzzle.solution
    for index, given in enumerate(givens):
        if given not in "0.":
            continue
        name = f"Row {index // 9 + 1}, column {index % 9 + 1}"
        page.get_by_role("gridcell", name=f"{name}, empty", exact=True).click()
        page.keyboard.press(solution[index])
        page.get_by_role("gridcell", name=f"{name}, {solution[index]}").wait_for()
    page.get_by_role("heading", name="Solved!").wait_for()
    run.refresh_from_db()
    assert run.state == "finished" and not run.assisted
    return clock(run.elapsed)


def board(page) -> list[str]:
    """The times on the page's Classic Easy board, one per run."""
    page.goto("/leaderboards/?game=solo&level=easy&board=classic")
    return page.locator(".lb tbody tr td:nth-child(2)").all_inner_texts()


def enter_code(page, smtp):  # noqa: F811
    page.fill("input[name=code]", smtp.last_code(ADA))
    with page.expect_navigation():
        page.press("input[name=code]", "Enter")


def test_records_follow_the_account_and_a_passkey_signs_in_alone(browser, live_server, smtp, bank_puzzle, settings):  # noqa: F811
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True  # http://localhost in the test
    url = live_server.url.replace("127.0.0.1", "localhost")  # WebAuthn wants a domain name
    a = new_page(browser, url, Profile.objects.create(display_name="Ada"))
    a_time = play_a_solo_run(a)  # A plays a Solo Run anonymously
    # its finish offers to keep the records (shown by keep-records.js once the finish settles)
    expect(a.locator("[data-keep-records]")).to_be_visible()
    # A signs up with the code from the SMTP server
    a.goto("/accounts/signup/")
    a.fill("input[name=email]", ADA)
    a.fill("input[name=handle]", "ada")  # the display name comes filled in: the browser's (Ada)
    a.click("main form button[type=submit]")
    enter_code(a, smtp)
    assert "/account/" in a.url and ADA in a.inner_text("main")
    # B signs in with a new code and sees A's run
    b = new_page(browser, url)
    b.goto("/accounts/login/")
    b.fill("input[name=login]", ADA)
    b.click("main form button[type=submit] >> nth=0")
    enter_code(b, smtp)
    assert board(b) == [a_time]
    # a run B finishes on its board shows on A's boards (B, signed in, is offered nothing)
    b_time = play_a_solo_run(b)
    assert b.locator("[data-keep-records]").count() == 0
    assert sorted(board(a)) == sorted([a_time, b_time])  # each run once
    # B signs out: its leaderboards are empty
    b.goto("/account/")
    b.click("form[action='/accounts/logout/'] button")
    b.wait_for_load_state()
    assert board(b) == []
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
    assert sorted(board(a)) == sorted([a_time, b_time])


def test_the_finish_screens_offer_sign_in_once(browser, live_server, full_bank_puzzle):
    """A signed-out player is offered "Sign in to keep your records on every device" on the
    first finish this browser shows (and on that finish again), not on a later one."""
    from tests.games.test_solo_finish import finished_run
    from tests.rooms.test_podium import finished_room

    players = [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus", "Barbara")]
    first, second = (finished_run(players[0], full_bank_puzzle, seconds) for seconds in (95, 120))
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

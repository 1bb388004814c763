"""Two real browsers race through a whole showdown over WebSockets on daphne."""

from games.models import Puzzle
from players.models import Profile
from rooms.models import Room, RoomResult, Seat
from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, EMPTY, PUZZLE, SOLUTION


def test_two_players_race_one_finishes_one_is_eliminated(browser, daphne_server):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    host = new_page(browser, daphne_server, ada)
    guest = new_page(browser, daphne_server, grace)

    host.goto("/")
    host.get_by_label("Difficulty").select_option("easy")
    host.get_by_label("Rules").select_option("hardcore")
    host.get_by_role("button", name="Create room").click()
    host.wait_for_selector("#room-body[data-state=lobby]")
    code = Room.objects.get().code

    guest.goto("/")
    guest.get_by_label("Room code").fill(code.lower())  # codes are case-insensitive
    guest.get_by_role("button", name="Join room").click()
    guest.wait_for_selector("#room-body[data-state=lobby]")
    host.locator(".players .name", has_text="Grace").wait_for()  # the join reached the host live

    guest.get_by_role("button", name="I'm ready").click()  # the host's Start is the host's ready
    host.locator(".player.is-ready", has_text="Grace").wait_for()
    host.locator(".player.is-ready", has_text="Ada").wait_for()
    host.get_by_role("button", name="Start showdown").click()
    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=playing] [data-board]", timeout=15_000)

    # Grace makes three wrong entries: the Hardcore cap eliminates her.
    wrong = str(int(SOLUTION[EMPTY[0]]) % 9 + 1)
    guest.locator(f'[data-cell="{EMPTY[0]}"]').click()
    for n in range(1, 4):
        guest.keyboard.press(wrong)
        guest.locator("[data-mistakes]", has_text=f"{n} / 3").wait_for()
    guest.get_by_text("your board is locked").first.wait_for()
    assert guest.locator(".pad").count() == 0
    host.locator(".standing", has_text="Grace").get_by_text("eliminated").wait_for()

    # Ada solves it; Grace watches Ada's progress arrive live.
    for i, index in enumerate(EMPTY):
        host.locator(f'[data-cell="{index}"]').click()
        host.keyboard.press(SOLUTION[index])
        host.locator(f'[data-cell="{index}"][data-value="{SOLUTION[index]}"]').wait_for()
        if i == 10:
            guest.locator(".standing", has_text="Ada").get_by_text("110 pts").wait_for()
    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=finished]", timeout=15_000)
    assert host.locator(".standing", has_text="Ada").locator(".place").inner_text() == "1"
    assert guest.locator(".standing", has_text="Grace").locator(".place").inner_text() == "2"
    # The solution never reached the eliminated player's page.
    assert SOLUTION not in guest.content()
    assert Seat.objects.get(player=ada).place == 1
    assert RoomResult.objects.get(player=grace).status == "eliminated"
    host.goto("/leaderboards/")
    totals = host.locator('[data-game-totals="showdown"]').inner_text().replace("\n", " ")
    assert "Showdowns 1" in totals and "Wins 1" in totals


def test_ready_clicked_before_the_pages_scripts_run_is_never_a_page_load(browser, daphne_server):
    """The CI flake of 2026-12-06: under load a guest clicked "I'm ready" before htmx (a
    deferred script) had wired the form, and the bare form was submitted as a GET of the page
    (/r/CODE/?action=ready): the ready was lost with the page. Here htmx never loads at all: the
    click must stay on the page; once htmx runs, the same click goes over the socket."""
    from playwright.sync_api import expect

    from rooms import actions as A
    from rooms.api import create_room
    from tests.browser.conftest import act

    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    room = create_room(ada, "showdown", "easy", "standard")
    act(room.code, grace, A.Join())
    guest = new_page(browser, daphne_server, grace)
    guest.route("**/htmx-2.min.js", lambda route: route.abort())
    guest.goto(f"/r/{room.code}/")
    guest.get_by_role("button", name="I'm ready").click()
    guest.wait_for_timeout(500)  # a navigation would have started by now: nothing else to await
    assert guest.url.endswith(f"/r/{room.code}/")
    assert not Seat.objects.get(player=grace).ready

    guest.unroute("**/htmx-2.min.js")
    guest.reload()
    guest.get_by_role("button", name="I'm ready").click()
    expect(guest.get_by_role("button", name="Not ready")).to_be_visible()
    assert guest.url.endswith(f"/r/{room.code}/")

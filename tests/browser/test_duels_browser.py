"""Two real browsers play a Sudoku Domino duel over WebSockets on daphne: the same stones
for both, moves by pointer and by keyboard, live standings, results in the history."""

from games.engines import domino as d
from games.models import Puzzle
from players.models import Profile
from rooms.gametypes import GAME_TYPES
from rooms.models import Room, RoomResult, Seat
from tests.browser.conftest import new_page
from tests.browser.puzzle import CLUES, PUZZLE, SOLUTION


def durable_seat(player) -> Seat:
    """The seat as stored durably: its row plus the move log entries the room's live owner
    acknowledged but has not written behind yet (rooms/owner.py)."""
    from rooms.api import running_view

    seat = Seat.objects.get(player=player)
    _, seats = running_view(seat.room.code)
    return next(s for s in seats if s.pk == seat.pk)


def state_of(player) -> d.State:
    return d.from_dict(durable_seat(player).state)


def entry(state: d.State, right: bool):
    """An entry point where the current stone lands right (or wrong), or None."""
    for (edge, line), (row, col) in sorted(d.entry_points(state).items()):
        if (state.solution[(row - 1) * 9 + col - 1] == state.current_stone) == right:
            return edge, line
    return None


def push(page, player, right: bool, keyboard=False) -> bool:
    """Push the current stone from the browser; wait for the server's answer."""
    state = state_of(player)
    where = entry(state, right)
    if where is None:
        return False
    marker = page.locator(f'#game [data-marker][data-edge="{where[0]}"][data-line="{where[1]}"]')
    if keyboard:
        marker.focus()
        page.keyboard.press("Enter")
    else:
        marker.click()
    page.locator(f'[data-domino-version="{state.move_count + 1}"]').wait_for()
    return True


def joker(page, player) -> bool:
    """Place a joker (G for grey, J for gold) on the first empty cell."""
    state = state_of(player)
    kind = "g" if state.jokers_left["grey"] else "j" if state.jokers_left["gold"] else None
    if kind is None:
        return False
    page.locator("#game [data-domino-board]").click(position={"x": 1, "y": 1})
    page.keyboard.press(kind)
    page.locator("#game [data-pick]").first.click()
    page.locator(f'[data-domino-version="{state.move_count + 1}"]').wait_for()
    return True


def stones(page) -> tuple[str, str]:
    return (page.locator("[data-current-stone]").inner_text(), page.locator("[data-next-stone]").inner_text())


def test_two_players_duel_with_the_same_stones(browser, daphne_server):
    Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=CLUES, seed=1)
    ada = Profile.objects.create(display_name="Ada")
    grace = Profile.objects.create(display_name="Grace")
    host = new_page(browser, daphne_server, ada)
    guest = new_page(browser, daphne_server, grace)

    host.goto("/")
    host.get_by_label("Game type").select_option("domino")
    host.get_by_label("Difficulty").select_option("easy")
    host.get_by_role("button", name="Create room").click()
    host.wait_for_selector("#room-body[data-state=lobby]")
    room = Room.objects.get()
    assert room.game == "domino"

    guest.goto(f"/r/{room.code}")
    with guest.expect_navigation():  # the join reloads the room page: act on the new one
        guest.get_by_role("button", name="Join as Grace").click()
    guest.wait_for_selector("#room-body[data-state=lobby] .player >> text=Grace")
    host.locator(".players .name", has_text="Grace").wait_for()
    guest.get_by_role("button", name="I'm ready").click()  # the host's Start is the host's ready
    host.locator(".player.is-ready", has_text="Grace").wait_for()
    host.locator(".player.is-ready", has_text="Ada").wait_for()
    host.get_by_role("button", name="Start duel").click()
    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=playing] [data-domino-board]", timeout=15_000)

    # The same stones in the same order, and the same start position.
    assert stones(host) == stones(guest)
    assert state_of(ada).bag == state_of(grace).bag and state_of(ada).board == state_of(grace).board

    # Ada pushes a stone by pointer and one by keyboard (a right entry when the random stone
    # order offers one, else a wrong one); Grace sees the result in the standings.
    assert push(host, ada, right=True) or push(host, ada, right=False)
    assert push(host, ada, right=True, keyboard=True) or push(host, ada, right=False, keyboard=True)
    line = GAME_TYPES["domino"].standing_line(durable_seat(ada))
    assert line != "0 pts · 3 lives · 0 stones placed"
    guest.locator(".standing", has_text="Ada").get_by_text(line).wait_for()
    assert stones(guest) == (str(state_of(grace).current_stone), guest.locator("[data-next-stone]").inner_text())

    # Both lose their three lives (a right stone when no wrong entry is left); the duel ends.
    for page, player in ((guest, grace), (host, ada)):
        for _ in range(60):
            if durable_seat(player).status != "playing":
                break
            push(page, player, right=False) or push(page, player, right=True) or joker(page, player)
    for page in (host, guest):
        page.wait_for_selector("#room-body[data-state=finished]", timeout=15_000)
    results = {r.player_id: r for r in RoomResult.objects.filter(game="domino")}
    seats = {s.player_id: s for s in Seat.objects.all()}
    assert {r.score for r in results.values()} == {seats[ada.pk].score, seats[grace.pk].score}
    winner = ada if seats[ada.pk].score >= seats[grace.pk].score else grace
    assert results[winner.pk].placement == 1
    assert SOLUTION not in guest.content() and SOLUTION not in host.content()

    host.goto("/leaderboards/")
    assert "Sudoku Domino duels 1" in host.locator('[data-game-totals="domino"]').inner_text().replace("\n", " ")
    assert "Showdowns 0" in host.locator('[data-game-totals="showdown"]').inner_text().replace("\n", " ")
    host.locator('tr[data-game="domino"]', has_text=room.code).wait_for()

import pytest
from games.domino import solo
from games.engines import domino as d
from tests.browser.conftest import new_page

pytestmark = pytest.mark.browser


def correct(game):
    st = game.engine_state()
    for (e, l), (r, c) in d.entry_points(st).items():
        if st.solution[(r-1)*9+c-1] == st.current_stone:
            return f"{e}-{l}"

def wrong(game):
    st = game.engine_state()
    for (e, l), (r, c) in d.entry_points(st).items():
        if st.solution[(r-1)*9+c-1] != st.current_stone:
            return f"{e}-{l}"


@pytest.mark.parametrize("width,scheme", [(1100, "light"), (375, "light"), (1100, "dark"), (375, "dark")])
def test_shots(browser, live_server, player, bank_puzzle, width, scheme):
    game = solo.start_game(player, "easy", seed=3)
    # make some progress server side
    from games.domino.play import Push
    for _ in range(6):
        e = correct(game)
        if not e: break
        edge, line = e.split("-")
        game, _ = solo.act(game.pk, player, Push(edge, int(line)))
    page = new_page(browser, live_server.url, player, width=width, height=900 if width > 500 else 800)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/domino/{game.pk}/")
    page.wait_for_timeout(300)
    page.screenshot(path=f"/tmp/dm/game-{width}-{scheme}.png", full_page=True)
    # hover a marker
    page.locator("[data-marker]").first.hover()
    page.wait_for_timeout(200)
    page.screenshot(path=f"/tmp/dm/hover-{width}-{scheme}.png")
    e = wrong(game)
    page.locator(f'button[value="{e}"]').click()
    page.wait_for_timeout(700)
    page.screenshot(path=f"/tmp/dm/wrong-{width}-{scheme}.png", full_page=True)
    page.get_by_role("button", name="Gold joker").click()
    page.wait_for_timeout(400)
    page.screenshot(path=f"/tmp/dm/joker-{width}-{scheme}.png", full_page=True)
    page.goto("/")
    page.screenshot(path=f"/tmp/dm/home-{width}-{scheme}.png", full_page=True)
    page.goto("/how-to-play/#domino")
    page.screenshot(path=f"/tmp/dm/htp-{width}-{scheme}.png", full_page=False)
    page.goto("/leaderboards/")
    page.locator("#domino-records").screenshot(path=f"/tmp/dm/stats-{width}-{scheme}.png")
    page.context.close()

"""Temporary: screenshots for eyeballing (not committed)."""
import pytest
from django.urls import reverse

from games.cardoku import solo, play
from games.engines import cardoku as ck
from tests.browser.conftest import new_page


def _played_game(player, n=25, finish=False):
    game = solo.start_game(player, {"layout": "default", "code": "7K3M9QXA"})
    game.show_moves = True
    game.show_restrictions = True
    game.save()
    i = 0
    while True:
        state = game.engine_state()
        if state.finished or (not finish and i >= n):
            break
        legal = sorted(ck.legal_squares(state))
        if legal:
            # prefer filling the lowest rows first
            r, c = max(legal, key=lambda s: (sum(1 for x in ck.ALL_SQUARES if state.card_at(*x) and (x[0] == s[0])), s[0]))
            game, _ = solo.act(game.pk, player, play.Action("place", r, c))
        else:
            game, _ = solo.act(game.pk, player, play.Action("discard"))
        i += 1
    return game


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1100, 375])
def test_shots(browser, live_server, player, scheme, width):
    game = _played_game(player)
    done = _played_game(player, finish=True)
    for name, url in [("setup", reverse("cardoku_setup") + "?layout=custom&spade_1=7,1&spade_2=8,4&spade_5=9,9"),
                      ("game", reverse("cardoku_game", args=[game.pk])),
                      ("finish", reverse("cardoku_game", args=[done.pk])),
                      ("home", "/"), ("htp", "/how-to-play/#cardoku"), ("lb", "/leaderboards/")]:
        page = new_page(browser, live_server.url, player, width=width, height=900 if width > 400 else 780)
        page.emulate_media(color_scheme=scheme)
        page.goto(url)
        page.screenshot(path=f"/tmp/ck/{name}-{width}-{scheme}.png", full_page=True)
        page.context.close()

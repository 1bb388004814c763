"""How to Play (issue 27, defect 16): a short guide per game on top, a screen each, with
pictures drawn by the games' own board builders; every decided detail below, under
"Rules in detail"."""

import re

import pytest
from django.urls import reverse

GUIDES = ("play-solo", "play-showdown", "cardoku-guide", "domino-guide")


def page(client, language="en") -> str:
    return client.get(reverse("how_to_play"), HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize(("language", "details"), [("en", "Rules in detail"), ("nl", "Regels in detail")])
def test_the_guides_come_first_and_the_details_follow(client, db, language, details):
    html = page(client, language)
    starts = [html.index(f'<section class="guide" id="{guide}"') for guide in GUIDES]
    assert starts == sorted(starts)
    rules = html.index(f'<h2 id="rules">{details}</h2>')
    assert starts[-1] < rules
    # Every detail section sits under "Rules in detail", one level down.
    for anchor in ("sudoku", "solo", "showdown", "duels", "keyboard", "levels", "cardoku-rules", "domino-rules"):
        assert rules < html.index(f'<h3 id="{anchor}">')
    # Each guide is four plain steps: no "we decided" in them.
    for guide in GUIDES:
        section = html[html.index(f'id="{guide}"') :]
        section = section[: section.index("</section>")]
        steps = re.search(r'<ol class="guide-steps">(.*?)</ol>', section, re.S)
        assert steps and steps.group(1).count("<li>") == 4
        assert "decided" not in section and "besloten" not in section


def test_the_pictures_are_the_real_boards(client, db):
    html = page(client)
    solo = html[html.index('id="play-solo"') : html.index('id="play-showdown"')]
    # The Solo Run board: 81 cells from the cell builder, the puzzle's givens, an entry, a
    # hint, the selected cell's notes 2 and 8, and the pad with what is left of each digit.
    assert solo.count('role="gridcell"') == 81
    assert 'class="cell given' in solo and 'class="cell entered' in solo and 'class="cell hinted' in solo
    assert 'aria-label="Row 1, column 6, notes 2 8"' in solo and "selected" in solo
    assert solo.count('class="digit') == 9
    # A picture is shown, not used: nothing in it can be focused or read twice.
    assert solo.count("inert aria-hidden") == 1
    cardoku = html[html.index('id="cardoku-guide"') : html.index('id="domino-guide"')]
    # Cardoku: the nine starting spades, the 2 of hearts in hand, and the eight squares it may go on.
    assert cardoku.count("ck-sq has-card") == 9
    assert 'data-card="2H"' in cardoku
    assert cardoku.count("is-legal") == 8
    domino = html[html.index('id="domino-guide"') : html.index('<h2 id="rules">')]
    assert domino.count('role="gridcell"') == 81 and domino.count("data-marker ") > 10
    assert "data-current-stone" in domino and "data-next-stone" in domino


def test_game_pages_link_their_guide_and_their_details(player_client):
    setup = player_client.get(reverse("cardoku_setup")).content.decode()
    assert "/how-to-play/#cardoku" in setup
    domino = player_client.get(reverse("domino_home")).content.decode()
    assert "/how-to-play/#domino-rules" in domino
    html = page(player_client)
    for anchor in ("cardoku-rules", "domino-rules", "solo", "showdown", "duels"):
        assert f'href="#{anchor}"' in html and f'id="{anchor}"' in html

"""The finish screens' offer to a signed-out player, "Sign in to keep your records on every
device" (issue 22): rendered (hidden, for static/js/keep-records.js to show on the first finish
only) on the Solo Run, Cardoku, Domino and room finishes, named after the finish; never for a
signed-in player. Which finish shows it is the browser test's (tests/browser/test_accounts_browser.py)."""

import re

import pytest
from django.urls import reverse

from players.models import Profile
from tests.conftest import client_for
from tests.games.test_solo_finish import finished_run
from tests.rooms.test_podium import finished_room

pytestmark = pytest.mark.django_db
OFFER = "Sign in to keep your records on every device"


def offer(html: str) -> str | None:
    """The finish screen's offer (its data-keep-records key), None without one. The footer's own
    sign-in line is not it."""
    found = re.search(r'<p class="keep-records" data-keep-records="([^"]+)" hidden>.*?</p>', html, re.S)
    if found:
        assert OFFER in found.group(0) and 'href="/accounts/login/"' in found.group(0)
    return found.group(1) if found else None


def signed_in(profile, account):
    profile.account = account
    profile.save()
    client = client_for(profile)
    client.force_login(account)
    return client


def test_a_solo_run_finish_offers_it_to_a_signed_out_player_only(player, bank_puzzle, account):
    run = finished_run(player, bank_puzzle, 95)
    assert offer(client_for(player).get(reverse("solo_run", args=[run.pk])).content.decode()) == f"solo-{run.pk}"
    html = signed_in(player, account).get(reverse("solo_run", args=[run.pk])).content.decode()
    assert offer(html) is None and "solo-" not in html


def test_a_cardoku_finish_offers_it(player, account):
    from tests.games.test_cardoku_views import deal, finish

    game = finish(deal(player), player)
    assert game.finished
    assert offer(client_for(player).get(reverse("cardoku_game", args=[game.pk])).content.decode()) == (
        f"cardoku-{game.pk}"
    )
    assert offer(signed_in(player, account).get(reverse("cardoku_game", args=[game.pk])).content.decode()) is None


def test_a_domino_finish_offers_it(player, bank_puzzle, account):
    from games.domino import solo
    from tests.games.test_domino_views import act, entries, fresh

    client = client_for(player)
    game = solo.start_game(player, "easy")
    for _ in range(3):  # three wrong pushes: out of lives
        act(client, fresh(game), push=entries(fresh(game), False)[0])
    assert fresh(game).status == "finished"
    assert offer(client.get(reverse("domino_game", args=[game.pk])).content.decode()) == f"domino-{game.pk}"
    assert offer(signed_in(player, account).get(reverse("domino_game", args=[game.pk])).content.decode()) is None


def test_a_finished_room_offers_it_to_its_signed_out_players_not_to_watchers(bank_puzzle, account):
    players = [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus", "Barbara")]
    room = finished_room(players)
    url = reverse("room", args=[room.code])
    assert offer(client_for(players[1]).get(url).content.decode()) == f"room-{room.code}"
    watcher = Profile.objects.create(display_name="Watcher")
    assert offer(client_for(watcher).get(url).content.decode()) is None  # no records of this room
    assert offer(signed_in(players[0], account).get(url).content.decode()) is None


def test_how_to_play_says_the_sign_in_line_where_it_says_records_live_in_this_browser(player, account):
    def accounts_section(client) -> str:
        html = client.get(reverse("how_to_play")).content.decode()
        start = html.index('id="accounts"')
        return html[start : html.index("</ul>", start)]

    assert OFFER in accounts_section(client_for(player))
    assert OFFER not in accounts_section(signed_in(player, account))

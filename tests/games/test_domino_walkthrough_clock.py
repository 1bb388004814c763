"""A first Domino game's clock waits for the walkthrough (issue 43, 18): it starts at the
walkthrough's end, at the first move, or 2 minutes after the game opened, whichever comes
first; every later game starts at once."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from games.domino import solo
from games.domino.models import DominoGame
from tests.games.test_domino_views import HX, act, entries, fresh, seed_with_both

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def first(player, bank_puzzle):
    with time_machine.travel(T0, tick=False):
        return solo.start_game(player, "easy", seed=seed_with_both())


def test_a_first_game_waits_at_most_two_minutes_and_a_second_game_does_not(first, player):
    assert first.started_at == T0 + dt.timedelta(minutes=2)
    assert first.deadline == T0 + dt.timedelta(minutes=12)
    with time_machine.travel(T0 + dt.timedelta(minutes=1), tick=False):
        assert fresh(first).seconds_left() == 600  # standing still
        second = solo.start_game(player, "easy")
    assert second.started_at == T0 + dt.timedelta(minutes=1) and second.deadline == T0 + dt.timedelta(minutes=11)
    # Unstarted, the clock runs by itself from the cap: 2 + 10 minutes after the game opened.
    with time_machine.travel(T0 + dt.timedelta(minutes=7), tick=False):
        assert fresh(first).seconds_left() == 300
    with time_machine.travel(T0 + dt.timedelta(minutes=12), tick=False):
        assert solo.settle(first.pk).end_reason == "time"


def test_the_walkthroughs_end_starts_the_clock_once(first, player, player_client):
    with time_machine.travel(T0, tick=False):
        page = player_client.get(reverse("domino_game", args=[first.pk])).content.decode()
    assert "data-clock-waiting" in page and 'data-tour="domino"' in page and 'name="clock" value="start"' in page
    with time_machine.travel(T0 + dt.timedelta(seconds=40), tick=False):
        answer = player_client.post(reverse("domino_act", args=[first.pk]), {"clock": "start"}, **HX)
    assert answer.status_code == 200 and "data-clock-waiting" not in answer.content.decode()
    game = fresh(first)
    assert game.started_at == T0 + dt.timedelta(seconds=40) and game.deadline == T0 + dt.timedelta(seconds=640)
    assert game.engine_state().started_at == game.started_at.timestamp()
    # Asked again later (a second tab): the running clock is not set back.
    with time_machine.travel(T0 + dt.timedelta(seconds=90), tick=False):
        player_client.post(reverse("domino_act", args=[first.pk]), {"clock": "start"}, **HX)
        assert fresh(first).started_at == T0 + dt.timedelta(seconds=40)
        assert fresh(first).seconds_left() == 550
        later = player_client.get(reverse("domino_game", args=[first.pk])).content.decode()
    assert "data-clock-waiting" not in later and 'data-tour="domino"' not in later


def test_the_first_move_starts_a_waiting_clock(first, player_client):
    with time_machine.travel(T0 + dt.timedelta(seconds=20), tick=False):
        assert act(player_client, first, push=entries(first, True)[0]).status_code == 200
    game = fresh(first)
    assert game.moves == 1 and game.started_at == T0 + dt.timedelta(seconds=20)
    assert game.deadline == T0 + dt.timedelta(seconds=620)


def test_another_players_start_is_refused_and_changes_nothing(first, other_player):
    from tests.conftest import client_for

    answer = client_for(other_player).post(reverse("domino_act", args=[first.pk]), {"clock": "start"}, **HX)
    assert answer.status_code == 403
    assert DominoGame.objects.get(pk=first.pk).started_at == T0 + dt.timedelta(minutes=2)

"""games/common/rowwriter.py: a move is one compare-and-set UPDATE of the copy of its game this process
kept from the last move; a copy that is behind the row (another tab or process wrote) is
never written over it, and a refusal decided on it is asked again of the row."""

import copy
import threading

import pytest
from django.db import connection, transaction

from games.cardoku import solo as cardoku
from games.cardoku.models import CardokuGame
from games.common import rowwriter
from games.engines import race
from games.models import SoloRun
from games.sudoku import solo
from tests.conftest import EMPTY, SOLUTION
from tests.games.test_cardoku_views import deal
from tests.games.test_solo_answers import act

# Real commits: a write is kept once committed, as outside tests.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _nothing_kept():
    rowwriter.forget()
    yield
    rowwriter.forget()


def kept(model, pk):
    return rowwriter._kept[(model, pk)][1]


def enter(player, run, n, version=None):
    cell = EMPTY[n]
    return solo.act(
        run.pk, player.token, solo.SoloAction("enter", cell=cell, digit=int(SOLUTION[cell]), version=version)
    )


def test_a_move_keeps_a_copy_of_the_written_row_the_caller_does_not_share(player, run):
    played = enter(player, run, 0)
    copy_ = kept(SoloRun, run.pk)
    assert copy_ is not played.run and copy_.revision == played.run.revision == SoloRun.objects.get(pk=run.pk).revision
    played.run.score = 999  # the caller's instance (a view rendering it) is its own
    assert kept(SoloRun, run.pk).score == 10


def test_a_copy_behind_the_row_loses_no_move_and_doubles_none(player, run):
    """Two tabs, two processes: the move the kept copy missed stays, this one is added once."""
    enter(player, run, 0)
    behind = copy.copy(kept(SoloRun, run.pk))
    enter(player, run, 1)  # what another process did: this one's copy is now behind
    rowwriter._kept[(SoloRun, run.pk)] = (player.token, behind)
    played = enter(player, run, 2, version=2)
    stored = SoloRun.objects.get(pk=run.pk)
    assert [stored.get_board().cells[EMPTY[n]] for n in range(3)] == [int(SOLUTION[EMPTY[n]]) for n in range(3)]
    assert stored.moves == 3 and stored.score == 30 and not played.stale and played.run.moves == 3


def test_a_write_outside_the_write_path_is_not_written_over(player, run):
    """The admin pauses the run (Model.save moves the revision on): the kept copy still says
    playing, but the entry is refused as the row says."""
    enter(player, run, 0)
    row = SoloRun.objects.get(pk=run.pk)
    row.state = SoloRun.State.PAUSED
    row.save()
    with pytest.raises(race.IllegalMove, match="paused"):
        enter(player, run, 1)
    stored = SoloRun.objects.get(pk=run.pk)
    assert stored.state == SoloRun.State.PAUSED and stored.moves == 1


def test_a_refusal_decided_on_a_copy_behind_the_row_is_asked_again(player):
    """Cardoku: the page is at step 2, this process's copy at step 1 (another process played
    step 1). On the copy the move is stale; on the row it is right, and it is played."""
    game = deal(player)
    discard = cardoku.play.parse_action({"action": "discard", "step": "0"})
    cardoku.play_move(game.pk, player.token, discard)
    behind = copy.copy(kept(CardokuGame, game.pk))
    cardoku.play_move(game.pk, player.token, cardoku.play.parse_action({"action": "discard", "step": "1"}))
    rowwriter._kept[(CardokuGame, game.pk)] = (player.token, behind)
    played = cardoku.play_move(game.pk, player.token, cardoku.play.parse_action({"action": "discard", "step": "2"}))
    assert played.game.step == 3 and CardokuGame.objects.get(pk=game.pk).discards == 3


def test_another_players_token_never_gets_the_kept_copy(player, other_player, run):
    enter(player, run, 0)
    with pytest.raises(solo.NotYourRun):
        solo.act(run.pk, other_player.token, solo.SoloAction("enter", cell=EMPTY[1], digit=1))
    assert SoloRun.objects.get(pk=run.pk).moves == 1 and (SoloRun, run.pk) in rowwriter._kept


def test_a_rolled_back_write_is_never_kept(player, run):
    with pytest.raises(RuntimeError), transaction.atomic():
        enter(player, run, 0)
        raise RuntimeError
    assert (SoloRun, run.pk) not in rowwriter._kept and SoloRun.objects.get(pk=run.pk).moves == 0


def test_a_kept_move_over_http_is_one_statement(player_client, run):
    from django.test.utils import CaptureQueriesContext

    act(player_client, run, cell=2, digit=4, version=0)
    with CaptureQueriesContext(connection) as queries:
        response = act(player_client, run, cell=3, digit=6, version=1)
    assert response.status_code == 200 and [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    assert "revision" in queries.captured_queries[0]["sql"]


def test_two_tabs_playing_at_once_lose_no_move_and_double_none(bank_puzzle):
    """Two threads (two tabs, each its own connection) enter every empty cell of one run at
    the same time, interleaved: each entry is played once, whichever copy or row it met."""
    from players.models import Profile

    player = Profile.objects.create(display_name="Two tabs")
    run = solo.start_run(player, "easy")
    cells = {0: EMPTY[0::2], 1: EMPTY[1::2]}
    barrier = threading.Barrier(2)
    errors = []

    def tab(n):
        try:
            barrier.wait()
            for cell in cells[n]:
                solo.act(run.pk, player.token, solo.SoloAction("enter", cell=cell, digit=int(SOLUTION[cell])))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tab, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stored = SoloRun.objects.get(pk=run.pk)
    assert stored.state == SoloRun.State.FINISHED and stored.moves == len(EMPTY) and stored.mistakes == 0
    assert stored.score == stored.get_board().score and "".join(map(str, stored.get_board().cells)) == SOLUTION

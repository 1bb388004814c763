"""Fill notes (auto-candidates) in Solo Run's Assisted play (issue 43, "Beyond the fixes";
docs/rules.md 2): refused in a Classic run with a message, free in an Assisted one, never a
room's move."""

import re

import pytest
from django.urls import reverse

from games.engines import race
from games.models import SoloRun
from games.sudoku import play, solo
from tests.conftest import EMPTY

HX = {"HTTP_HX_REQUEST": "true"}


def act(client, run, **data):
    return client.post(reverse("solo_act", args=[run.pk]), data, **HX)


def test_a_classic_run_is_refused_fill_notes_with_a_message(player_client, run):
    page = player_client.get(reverse("solo_run", args=[run.pk])).content.decode()
    assert 'id="fill-notes" type="submit" class="tool" name="action" value="fill" hidden' in page
    refused = act(player_client, run, action="fill")
    assert refused.status_code == 409
    assert "Fill notes is for Assisted runs only" in refused.content.decode()
    kept = SoloRun.objects.get(pk=run.pk)
    assert kept.get_board().notes == (0,) * 81 and kept.moves == 0 and not kept.assisted


def test_an_assisted_run_fills_every_empty_cell_s_notes_for_free(player_client, run):
    answer = act(player_client, run, cell=EMPTY[0], command="hint").content.decode()
    # The hint makes the run Assisted: Fill notes appears with the badge.
    button = re.search(r'<button[^>]*id="fill-notes"[^>]*>', answer)
    assert button and "hx-swap-oob" in button.group() and "hidden" not in button.group()
    before = SoloRun.objects.get(pk=run.pk)
    filled = act(player_client, run, action="fill")
    assert filled.status_code == 200
    after = SoloRun.objects.get(pk=run.pk)
    board = after.get_board()
    assert board.notes == race.candidates(board.cells) and board.notes_at(EMPTY[1]) == [2, 6]
    assert (after.score, after.hints, after.mistakes) == (before.score, before.hints, before.mistakes)
    assert after.moves == before.moves + 1 and after.log[-1][1] == "f"
    text = filled.content.decode()
    assert "Notes filled: every empty cell shows its candidates." in text
    assert f'id="cell-{EMPTY[1]}"' in text  # the changed cells come back, out of band


def test_fill_is_solo_run_s_move_only():
    assert solo.parse_action({"action": "fill"}) == solo.SoloAction("fill")
    with pytest.raises(race.MalformedMove, match="Unknown action"):
        play.parse_move({"action": "fill"})  # a room's parse: no Assisted play there

import datetime as dt
import re
from html import unescape

from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertInHTML

from games.models import SoloRun
from players.models import Profile
from stats.leaderboards import solo_board


def finished(player, puzzle, elapsed, mistakes=0, hints=0, score=400, assisted=None, days_ago=0):
    return SoloRun.objects.create(
        player=player,
        puzzle=puzzle,
        level="easy",
        state="finished",
        board={},
        elapsed=elapsed,
        mistakes=mistakes,
        hints=hints,
        score=score,
        assisted=hints > 0 if assisted is None else assisted,
        finished_at=timezone.now() - dt.timedelta(days=days_ago),
    )


def test_classic_board_ranks_by_time_then_mistakes_then_score(player, bank_puzzle):
    a = finished(player, bank_puzzle, 300, mistakes=1)
    b = finished(player, bank_puzzle, 300, mistakes=0, score=300)
    c = finished(player, bank_puzzle, 200, mistakes=4)
    d = finished(player, bank_puzzle, 300, mistakes=0, score=350)
    finished(player, bank_puzzle, 100, hints=1)  # Assisted: never on the Classic board
    board = solo_board(player, "easy", assisted=False)
    assert [(place, run.pk) for place, run in board.entries] == [(1, c.pk), (2, d.pk), (3, b.pk), (4, a.pk)]
    assert board.best == c and board.completions == 4


def test_assisted_board_ranks_by_hints_mistakes_time_score(player, bank_puzzle):
    a = finished(player, bank_puzzle, 100, hints=2)
    b = finished(player, bank_puzzle, 500, hints=1, mistakes=1)
    c = finished(player, bank_puzzle, 600, hints=1, mistakes=0)
    d = finished(player, bank_puzzle, 600, hints=1, mistakes=0)  # identical: shares a place
    board = solo_board(player, "easy", assisted=True)
    assert [(place, run.pk) for place, run in board.entries] == [(1, c.pk), (1, d.pk), (3, b.pk), (4, a.pk)]


def test_recent_average_is_the_mean_of_the_last_ten(player, bank_puzzle):
    for i in range(12):
        finished(player, bank_puzzle, 100 + i * 10, days_ago=12 - i)  # newest have the largest times
    board = solo_board(player, "easy", assisted=False)
    assert board.recent_average == sum(100 + i * 10 for i in range(2, 12)) / 10
    assert len(board.entries) == 10 and board.completions == 12


def test_leaderboards_page_only_shows_this_players_records(player_client, player, other_player, bank_puzzle):
    finished(other_player, bank_puzzle, 61)
    finished(player, bank_puzzle, 125)
    html = player_client.get(reverse("leaderboards")).content.decode()
    assert "2:05" in html and "1:01" not in html
    assert "Sign in to keep your records on every device" in html  # issue 22: was "clearing its site data"


def test_display_name_is_editable_limited_and_escaped(player_client, player):
    response = player_client.post(reverse("profile"), {"display_name": "<b>Ada</b>"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "<b>Ada</b>"
    html = player_client.get("/").content.decode()
    assert "&lt;b&gt;Ada&lt;/b&gt;" in html and "<b>Ada</b>" not in html
    response = player_client.post(reverse("profile"), {"display_name": "x" * 25})
    assert response.status_code == 400
    response = player_client.post(reverse("profile"), {"display_name": "   "})
    assert response.status_code == 400
    player.refresh_from_db()
    assert player.display_name == "<b>Ada</b>"


# Moved from tests/browser/test_ux_browser.py (issue 27): server-rendered pages, no script involved.


def test_saving_the_profile_says_saved(player_client):
    """Defect 15: the profile's form (a plain post) saves the name, and the page it lands on
    says Saved in its one status line."""
    html = player_client.get(reverse("profile")).content.decode()
    form = re.search(r'<form method="post" class="stack">.*?</form>', html, re.S).group(0)
    assertInHTML('<label for="id_display_name">Display name</label>', form)  # the field the player fills in
    assert 'name="display_name" id="id_display_name"' in form
    assertInHTML('<button class="button primary">Save</button>', form)
    response = player_client.post(reverse("profile"), {"display_name": "Ada L"}, follow=True)
    assert response.redirect_chain == [(reverse("profile") + "?saved=1", 302)]
    statuses = re.findall(r'<(\w+)[^>]*\brole="status"[^>]*>(.*?)</\1>', response.content.decode(), re.S)
    assert len(statuses) == 1 and "Saved" in statuses[0][1], statuses
    assert Profile.objects.filter(display_name="Ada L").exists()


def test_an_empty_leaderboard_names_no_blank_player(client, db):
    """Defect 10: a visitor without a profile reads "for this browser", never "for ."."""
    html = client.get(reverse("leaderboards")).content.decode()
    lede = re.search(r'<div class="lb-head">.*?<p class="lede">(.*?)</p>', html, re.S).group(1)
    lede = " ".join(unescape(re.sub(r"<[^>]+>", "", lede)).split())
    assert "for ." not in lede and "Personal boards for" in lede

"""The home page and the leaderboards as a player meets them: one leaderboard at a time with
filters, invitations instead of empty tables, server-drawn charts, data loaded by the views."""

import datetime as dt
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.cardoku.models import CardokuGame
from rooms.models import RoomResult
from stats.charts import line_chart
from tests.stats.test_profile_and_leaderboards import finished


def room_result(player, placement=1, days_ago=0, game="showdown"):
    return RoomResult.objects.create(
        player=player,
        room_code=f"R{placement}{days_ago}{game[0]}".upper()[:6],
        game=game,
        placement=placement,
        player_count=3,
        status="finished",
        seconds=321,
        score=400,
        summary={"difficulty": "easy", "preset": "standard", "mistakes": 0, "hints": 0},
        finished_at=timezone.now() - dt.timedelta(days=days_ago),
    )


def test_a_new_player_is_invited_to_every_game_instead_of_shown_empty_tables(player_client):
    html = player_client.get(reverse("leaderboards")).content.decode()
    for invite in (
        "No Solo Run finishes yet.",
        "No showdowns or duels yet.",
        "No finished Cardoku games yet.",
        "No finished Domino games yet.",
    ):
        assert invite in html
    assert "<table" not in html and 'aria-current="page" class="tab' not in html
    assert html.count('class="tab tab-') == 4


def test_leaderboards_open_on_the_game_last_played(player_client, player, bank_puzzle):
    finished(player, bank_puzzle, 125, days_ago=3)
    room_result(player, days_ago=1)
    html = player_client.get(reverse("leaderboards")).content.decode()
    assert re.search(r'href="\?game=rooms" aria-current="page"', html)
    assert 'data-game-totals="showdown"' in html and "2:05" not in html  # one game's board at a time
    assert re.search(r'Solo Run <span class="count">1</span>', html)
    html = player_client.get(reverse("leaderboards"), {"game": "solo"}).content.decode()
    assert "2:05" in html and 'data-game-totals="showdown"' not in html


def test_solo_filters_pick_level_and_board(player_client, player, bank_puzzle):
    finished(player, bank_puzzle, 125, days_ago=2)
    finished(player, bank_puzzle, 400, hints=1, days_ago=1)  # the latest: Easy Assisted
    html = player_client.get(reverse("leaderboards")).content.decode()
    assert '<h3 id="detail-h">Easy Assisted</h3>' in html and "6:40" in html
    html = player_client.get(
        reverse("leaderboards"), {"game": "solo", "level": "easy", "board": "classic"}
    ).content.decode()
    assert '<h3 id="detail-h">Easy Classic</h3>' in html
    detail = html.split('id="detail-h"')[1]
    assert "2:05" in detail and "6:40" not in detail
    html = player_client.get(reverse("leaderboards"), {"game": "solo", "level": "expert"}).content.decode()
    assert "No classic Expert finishes yet." in html and 'value="expert">Play Expert now</button>' in html
    assert "<figure class=\"chart\">" not in html  # nothing to chart


def test_unknown_filters_say_so_and_fall_back(player_client, player, bank_puzzle):
    finished(player, bank_puzzle, 125)
    response = player_client.get(reverse("leaderboards"), {"game": "chess", "level": "<b>x", "board": "gold"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "There is no game &#x27;chess&#x27;" in html and "There is no level &#x27;&lt;b&gt;x&#x27;" in html
    assert "There is no board" in html and "2:05" in html and "<b>x" not in html


def test_solo_chart_is_svg_from_the_server_with_a_text_summary(player_client, player, bank_puzzle):
    for i, seconds in enumerate((300, 240, 270)):
        finished(player, bank_puzzle, seconds, days_ago=5 - i)
    html = player_client.get(reverse("leaderboards")).content.decode()
    svg = re.search(r"<figure class=\"chart\">.*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and "oldest to newest: 5:00, 4:00, 4:30. Best 4:00, average 4:30." in svg
    assert svg.count("<circle") == 3 and svg.count('class="chart-dot best"') == 1
    assert "Best 4:00" in svg and "Avg 4:30" in svg


def test_cardoku_and_domino_tabs_chart_scores(player_client, player):
    for i, score in enumerate((120, 300)):
        CardokuGame.objects.create(
            player=player,
            deal_code=f"ABC{i}",
            state={},
            status="finished",
            score=score,
            finished_at=timezone.now() - dt.timedelta(days=2 - i),
        )
    html = player_client.get(reverse("leaderboards")).content.decode()
    assert "data-cardoku-best>300<" in html and "Scores of your latest Cardoku games" in html
    assert "oldest to newest: 120, 300. Best 300" in html
    html = player_client.get(reverse("leaderboards"), {"game": "domino"}).content.decode()
    assert 'id="domino-records"' in html and '<figure class="chart">' not in html


def test_line_chart_geometry():
    assert line_chart([]) is None
    one = line_chart([90], lambda v: f"{v:.0f}")
    assert len(one.dots) == 1 and [g["kind"] for g in one.guides] == ["best"]
    chart = line_chart([300, 200, 250], lambda v: f"{v:.0f}")
    ys = [dot["y"] for dot in chart.dots]
    assert ys[1] > ys[2] > ys[0]  # a faster time sits lower, inside the drawing
    assert all(0 <= dot["x"] <= chart.width and 0 <= dot["y"] <= chart.height for dot in chart.dots)
    assert chart.line.startswith("M") and chart.area.endswith("Z")
    scores = line_chart([10, 40], lower_is_better=False)
    assert scores.dots[1]["best"] and not scores.dots[0]["best"]


def test_home_shows_the_players_name_and_latest_results_across_games(player_client, player, bank_puzzle):
    html = player_client.get("/").content.decode()
    assert "Playing as</span> " + player.display_name in html and "Your results show up here" in html
    finished(player, bank_puzzle, 125, days_ago=2)
    room_result(player, placement=2, days_ago=1)
    html = player_client.get("/").content.decode()
    results = re.search(r'<ul class="results".*?</ul>', html, re.S).group(0)
    assert results.index("2nd of 3") < results.index("2:05")  # newest first
    assert html.count('class="panel game-card') == 4  # four equal tiles


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/leaderboards/",
        "/leaderboards/?game=rooms",
        "/leaderboards/?game=cardoku",
        "/leaderboards/?game=domino",
        "/leaderboards/?game=solo&level=hard",
    ],
)
def test_templates_only_present_what_the_views_loaded(
    player_client, player, bank_puzzle, url, django_assert_num_queries
):
    finished(player, bank_puzzle, 125)
    room_result(player)
    response = player_client.get(url)
    template = response.templates[0].name
    context = response.context[0].flatten()
    with django_assert_num_queries(0):
        render_to_string(template, context)


def test_rooms_tab_without_rooms_invites_instead_of_zero_totals(player_client, player, bank_puzzle):
    finished(player, bank_puzzle, 125)
    html = player_client.get(reverse("leaderboards"), {"game": "rooms"}).content.decode()
    assert "No showdowns or duels yet." in html and "Create a room" in html
    assert "data-game-totals" not in html


def test_a_custom_rule_showdown_stays_in_the_history_marked_but_not_in_the_totals(player_client, player):
    room_result(player, placement=1, days_ago=2)
    custom = room_result(player, placement=1, days_ago=1)
    custom.summary["preset"], custom.in_totals = "custom", False
    custom.save()
    room_result(player, placement=2, days_ago=0, game="domino")
    html = player_client.get(reverse("leaderboards"), {"game": "rooms"}).content.decode()
    showdown = html.split('data-game-totals="showdown"')[1].split("</div>")[0]
    assert "Showdowns <strong>1</strong>" in showdown and "Wins <strong>1</strong>" in showdown
    domino = html.split('data-game-totals="domino"')[1].split("</div>")[0]
    assert "Sudoku Domino duels <strong>1</strong>" in domino and "Wins <strong>0</strong>" in domino
    assert html.count('<tr data-game="showdown">') == 2 and html.count('class="custom-mark"') == 1

"""The home page and the leaderboards load each game through the registry of panels
(stats/panels.py): a game added there gets its tab, count, tile context and recent lines
with no change to the views."""

import datetime as dt

from django.utils import timezone

from games.common.panels import Panel
from stats import panels


class Fake(Panel):
    key, label = "fake", "Fake game"
    settled: list[int] = []

    def settle(self, player):
        self.settled.append(player.pk)

    def home_panel(self, player):
        return {"fake_tile": "ready"}

    def count(self, player):
        return 7

    def latest(self, player):
        return timezone.now() + dt.timedelta(days=1)  # the latest finish of all: its tab opens

    def recent_results(self, player, limit):
        return [{"game": "fake", "title": "Fake game", "result": "7 points", "detail": "", "when": self.latest(player)}]

    def stats_panel(self, player, params, problems):
        return {"fake_records": [1, 2]}


def test_a_registered_panel_reaches_home_and_leaderboards(player_client, player, monkeypatch):
    monkeypatch.setitem(panels.PANELS, "fake", Fake())
    home = player_client.get("/")
    assert home.context["fake_tile"] == "ready" and home.context["recent_results"][0]["title"] == "Fake game"
    board = player_client.get("/leaderboards/")
    assert board.status_code == 200 and board.context["game"] == "fake" and board.context["fake_records"] == [1, 2]
    tab = next(tab for tab in board.context["tabs"] if tab["key"] == "fake")
    assert (tab["label"], tab["count"], tab["url"]) == ("Fake game", 7, "?game=fake")
    assert Fake.settled == [player.pk, player.pk]  # settled before each page loads


def test_an_unknown_tab_falls_back_with_a_note(player_client):
    response = player_client.get("/leaderboards/", {"game": "chess"})
    assert response.status_code == 400 and response.context["game"] == "solo"
    assert response.context["problems"] == ["There is no game 'chess': showing Solo Run instead."]

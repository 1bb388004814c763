"""The migrations that moved Profile to players and ShowdownResult to rooms.RoomResult keep
every row: rows written in the old shape read back through the new models."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("stats", "0002_showdownresult"),
    ("rooms", "0005_game_choices_from_registry"),
    ("games", "0002_revision"),
    ("cardoku", "0003_revision"),
    ("domino", "0002_revision"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_old_results_and_profiles_survive_the_move():
    latest = [(app, name) for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes()]
    old = migrate(BEFORE)
    try:
        Profile, Result, Room = (
            old.get_model(*m) for m in (("stats", "Profile"), ("stats", "ShowdownResult"), ("rooms", "Room"))
        )
        ada = Profile.objects.create(token="t-ada", display_name="Ada")
        Room.objects.create(code="AAAAAA", host=ada)
        when = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
        common = dict(
            player=ada, placement=1, player_count=2, status="finished", seconds=90.0, score=500, finished_at=when
        )
        Result.objects.create(
            room_code="AAAAAA", game="showdown", difficulty="easy", preset="custom", mistakes=2, hints=1, **common
        )
        Result.objects.create(
            room_code="BBBBBB", game="cardoku", difficulty="", preset="random", mistakes=0, hints=0, **common
        )
        Result.objects.create(
            room_code="CCCCCC", game="domino", difficulty="hard", preset="duel", mistakes=3, hints=0, **common
        )
    finally:
        new = migrate(latest)
    profile = new.get_model("players", "Profile").objects.get(token="t-ada")
    assert (
        profile.display_name == "Ada"
        and new.get_model("rooms", "Room").objects.get(code="AAAAAA").host_id == profile.pk
    )
    rows = {r.room_code: r for r in new.get_model("rooms", "RoomResult").objects.all()}
    assert {code: (r.player_id, r.game, r.score, r.seconds, r.finished_at) for code, r in rows.items()} == {
        "AAAAAA": (profile.pk, "showdown", 500, 90.0, when),
        "BBBBBB": (profile.pk, "cardoku", 500, 90.0, when),
        "CCCCCC": (profile.pk, "domino", 500, 90.0, when),
    }
    assert rows["AAAAAA"].summary == {"difficulty": "easy", "preset": "custom", "mistakes": 2, "hints": 1}
    assert rows["BBBBBB"].summary == {"layout": "random"} and rows["CCCCCC"].summary == {
        "difficulty": "hard",
        "mistakes": 3,
    }
    assert [code for code, r in sorted(rows.items()) if not r.in_totals] == ["AAAAAA"]

"""Records on both sides of a link (issue 22): a profile linked to an account counts the
records of every profile of that account, each once; an anonymous profile only its own."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.cardoku import records as cardoku_records
from games.cardoku.models import CardokuGame
from games.domino.models import DominoGame
from games.domino.records import player_records
from games.models import SoloRun
from games.sudoku.panels import SoloRunPanel
from players.identity import record_profiles
from rooms.models import RoomResult
from stats.history import room_history
from stats.leaderboards import board_counts, solo_board
from stats.panels import PANELS, recent_results
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def finished_run(profile, puzzle, elapsed, minutes_ago, level="easy"):
    return SoloRun.objects.create(
        player=profile,
        puzzle=puzzle,
        level=level,
        board={},
        state=SoloRun.State.FINISHED,
        elapsed=elapsed,
        score=100,
        finished_at=timezone.now() - timedelta(minutes=minutes_ago),
    )


def room_result(profile, code, placement, minutes_ago):
    return RoomResult.objects.create(
        player=profile,
        room_code=code,
        game="showdown",
        placement=placement,
        player_count=3,
        status="finished",
        seconds=200.0,
        score=300,
        finished_at=timezone.now() - timedelta(minutes=minutes_ago),
    )


@pytest.fixture
def records(laptop, phone, stranger, bank_puzzle):
    finished_run(laptop, bank_puzzle, 300.0, 30)
    finished_run(laptop, bank_puzzle, 250.0, 20)
    finished_run(phone, bank_puzzle, 200.0, 10)  # the best of the account, played on the phone
    finished_run(stranger, bank_puzzle, 100.0, 5)  # faster, but someone else's
    room_result(laptop, "AAAAAA", 1, 40)
    room_result(phone, "BBBBBB", 2, 15)
    room_result(stranger, "BBBBBB", 1, 15)
    now = timezone.now()
    for profile, score in ((laptop, 40), (phone, 70), (stranger, 99)):
        CardokuGame.objects.create(
            player=profile, state={}, status=CardokuGame.Status.FINISHED, score=score, finished_at=now
        )
        DominoGame.objects.create(
            player=profile,
            puzzle=bank_puzzle,
            level="easy",
            seed=1,
            state={},
            status=DominoGame.Status.FINISHED,
            score=score,
            finished_at=now,
            deadline=now,
        )


def test_record_profiles_is_the_account_when_signed_in_and_the_profile_alone_when_not(laptop, phone, stranger):
    assert set(record_profiles(laptop)) == {laptop, phone}
    assert set(record_profiles(phone)) == {laptop, phone}
    assert list(record_profiles(stranger)) == [stranger]


@pytest.mark.parametrize("side", ["laptop", "phone"])
def test_solo_boards_count_both_profiles_once(records, side, request):
    profile = request.getfixturevalue(side)
    board = solo_board(profile, "easy", False)
    assert board.completions == 3  # 2 + 1, the stranger's run not among them
    assert board.best.elapsed == 200.0  # the phone's run is the laptop's best too
    assert [run.elapsed for _, run in board.entries] == [200.0, 250.0, 300.0]
    assert board.recent_average == pytest.approx(250.0)
    assert board_counts(profile) == {("easy", False): 3}
    assert SoloRunPanel().count(profile) == 3


def test_an_anonymous_profile_sees_only_its_own(records, stranger):
    board = solo_board(stranger, "easy", False)
    assert board.completions == 1 and board.best.elapsed == 100.0
    totals = {t["game"]: t for t in room_history(stranger)["totals"]}
    assert totals["showdown"]["total"] == 1 and totals["showdown"]["wins"] == 1


def test_room_history_and_totals_over_the_account(records, phone):
    mine = room_history(phone)
    assert [r.room_code for r, _ in mine["history"]] == ["BBBBBB", "AAAAAA"]
    totals = {t["game"]: t for t in mine["totals"]}["showdown"]
    assert (totals["total"], totals["wins"], totals["podiums"], totals["win_rate"]) == (2, 1, 2, 50)
    assert PANELS["rooms"].count(phone) == 2


def test_cardoku_and_domino_records_over_the_account(records, laptop):
    mine = cardoku_records.records_for(laptop)
    assert mine.finished == 2 and mine.best.score == 70
    domino = player_records(laptop)
    assert domino["total"] == 2
    assert {row["level"]: row["best"] for row in domino["levels"]}["easy"] == 70


def test_recent_results_mix_both_profiles_without_doubles(records, laptop):
    lines = recent_results(laptop, limit=20)
    assert len(lines) == 3 + 2 + 2 + 2  # solo runs, room results, cardoku, domino


def test_the_leaderboards_page_of_one_browser_shows_the_other_browsers_run(records, laptop):
    client = client_for(laptop)
    client.force_login(laptop.account)  # a linked profile plays only in a signed-in browser
    page = client.get("/leaderboards/?game=solo&level=easy&board=classic").content.decode()
    assert "3:20" in page  # the phone's 200 s run
    assert "1:40" not in page  # the stranger's 100 s run


def test_the_finish_screen_compares_with_the_accounts_best(records, phone, bank_puzzle):
    from games.sudoku.solo import finish_summary, start_run

    run = start_run(phone, "easy")
    SoloRun.objects.filter(pk=run.pk).update(state=SoloRun.State.FINISHED, elapsed=260.0, finished_at=timezone.now())
    run.refresh_from_db()
    summary = finish_summary(run)
    assert summary.best_before == 200.0  # over both browsers, not only the phone's

"""Issue 23, 1: the job that keeps the dailies chosen, and the bank that never gives a daily's
puzzle out elsewhere."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from games import bank
from games.daily import schedule
from games.daily.models import Daily
from games.engines import sudoku
from games.models import Level, Puzzle

NOW = dt.datetime(2026, 12, 3, 8, 0, tzinfo=dt.UTC)  # 2 Dec is still open (UTC-12), 4 Dec opened at 10:00 UTC


def test_the_wanted_dates_are_the_open_ones_and_seven_days_ahead(settings):
    settings.DAILY_DAYS_AHEAD = 7
    dates = schedule.wanted_dates(NOW)
    assert dates[0] == dt.date(2026, 12, 2) and dates[-1] == dt.date(2026, 12, 10)
    assert len(dates) == 9
    later = schedule.wanted_dates(dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC))  # 2 Dec closed at 12:00 UTC
    assert later[0] == dt.date(2026, 12, 3)


@pytest.mark.django_db
def test_two_runs_choose_each_day_once(settings):
    settings.DAILY_DAYS_AHEAD = 7
    assert schedule.choose_dailies(NOW) == 9 * 4
    first = dict(((d.date, d.level), d.puzzle_id) for d in Daily.objects.all())
    assert schedule.choose_dailies(NOW) == 0  # beat twice, or a redelivered task
    assert dict(((d.date, d.level), d.puzzle_id) for d in Daily.objects.all()) == first
    assert Puzzle.objects.filter(for_daily=True).count() == 36  # no puzzle made for nothing
    # A day later one new date joins (and one old one is no longer wanted, but stays).
    assert schedule.choose_dailies(NOW + dt.timedelta(days=1)) == 4
    assert Daily.objects.count() == 40


@pytest.mark.django_db
def test_a_run_racing_another_keeps_the_first_choice(settings, monkeypatch):
    """Two workers at once: the second finds the (date, level) taken by the constraint and
    leaves no puzzle behind (its transaction is rolled back)."""
    settings.DAILY_DAYS_AHEAD = 0
    schedule.choose_dailies(NOW)
    before = Puzzle.objects.count()
    chosen = set(Daily.objects.values_list("date", "level", "puzzle_id"))

    manager = Daily.objects

    class Blind:  # what a worker that read before the other one's commit saw: nothing
        def filter(self, **kwargs):
            return manager.none()

        def create(self, **kwargs):
            return manager.create(**kwargs)

    monkeypatch.setattr(schedule.Daily, "objects", Blind(), raising=False)
    assert schedule.choose_dailies(NOW) == 0
    monkeypatch.undo()
    assert set(Daily.objects.values_list("date", "level", "puzzle_id")) == chosen
    assert Puzzle.objects.count() == before


@pytest.mark.django_db
def test_one_daily_per_date_and_level(bank_puzzle):
    other = Puzzle.objects.create(
        level="easy", givens=bank_puzzle.givens, solution=bank_puzzle.solution, clues=30, seed=2
    )
    Daily.objects.create(date=dt.date(2026, 12, 3), level="easy", puzzle=bank_puzzle)
    with pytest.raises(IntegrityError), transaction.atomic():
        Daily.objects.create(date=dt.date(2026, 12, 3), level="easy", puzzle=other)


@pytest.mark.django_db
def test_each_daily_is_graded_at_its_level(settings):
    settings.DAILY_DAYS_AHEAD = 0
    schedule.choose_dailies(NOW)
    for daily in Daily.objects.select_related("puzzle"):
        grid = sudoku.parse(daily.puzzle.givens)
        assert sudoku.grade(grid).level == sudoku.Level.coerce(daily.level)
        low, high = sudoku.CLUE_BANDS[sudoku.Level.coerce(daily.level)]
        assert low <= daily.puzzle.clues <= high and daily.puzzle.level == daily.level
        assert sudoku.count_solutions(grid, 2) == 1


@pytest.mark.django_db
def test_a_misgraded_puzzle_is_never_a_daily(settings, monkeypatch):
    settings.DAILY_DAYS_AHEAD = 0
    real = sudoku.grade
    calls = []

    def grade_once_wrong(grid):
        calls.append(1)
        found = real(grid)
        if len(calls) == 1:  # the first puzzle graded one level off
            return sudoku.Grade(
                level=sudoku.Level.EXPERT if found.level != sudoku.Level.EXPERT else sudoku.Level.EASY,
                techniques=found.techniques,
                solved=found.solved,
            )
        return found

    monkeypatch.setattr(schedule.sudoku, "grade", grade_once_wrong)
    schedule.choose_dailies(NOW)
    assert Daily.objects.count() == 2 * 4  # 2 and 3 Dec: every one chosen, the misgraded one retried
    assert Puzzle.objects.filter(for_daily=True).count() == 8  # the misgraded puzzle went with its transaction


@pytest.mark.django_db
def test_the_bank_never_gives_a_daily_puzzle_out(settings):
    settings.DAILY_DAYS_AHEAD = 0
    settings.PUZZLE_BANK_INLINE = True  # the bank makes what it gives on the spot (with Redis, alone, it had none)
    schedule.choose_dailies(NOW)
    daily_puzzles = set(Daily.objects.values_list("puzzle_id", flat=True))
    # Even a daily puzzle whose used mark was lost is not claimed.
    Puzzle.objects.filter(pk__in=daily_puzzles).update(used_at=None)
    taken = {bank.take_puzzle(level).pk for level in Level.values for _n in range(3)}
    assert not taken & daily_puzzles
    assert bank.fill_bank(target=1) == {level: 1 for level in Level.values}  # dailies are not the bank's stock


@pytest.mark.django_db
def test_run_jobs_chooses_the_dailies(settings):
    settings.DAILY_DAYS_AHEAD = 2
    call_command("run_jobs", "--once")
    assert Daily.objects.filter(date=dt.date.today() + dt.timedelta(days=2)).count() == 4
    call_command("run_jobs", "--once")
    assert Puzzle.objects.filter(for_daily=True).count() == Daily.objects.count()


@pytest.mark.django_db
def test_celery_beat_runs_the_job(settings):
    from config.celery import app
    from games.daily.tasks import choose_daily_puzzles

    entry = settings.CELERY_BEAT_SCHEDULE["choose-daily-puzzles"]
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks and entry["task"] == choose_daily_puzzles.name
    settings.DAILY_DAYS_AHEAD = 1
    assert choose_daily_puzzles.apply().get() > 0  # as a worker runs it
    assert choose_daily_puzzles.apply().get() == 0  # beat again, or a redelivery

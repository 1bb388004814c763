"""The daily's share card and the per-level statistics (issue 43, beyond the fixes): a PNG of a
ranked finish with no digit of the grid, the page a shared link opens (og:image), the Share
button's card, and played / finished / streaks / the times' bars per level."""

import datetime as dt
import io

import pytest
from django.urls import reverse
from PIL import Image

from games.daily import card, stats
from games.daily.stats import Row
from games.models import SoloRun
from tests.conftest import PUZZLE, SOLUTION
from tests.daily.test_streak_archive import ago, finished


@pytest.fixture
def finished_daily(player, dailies):
    """The player's daily of today, finished (in 12:34, two mistakes) the day after another."""
    finished(player, ago(1), elapsed=200.0)
    return finished(player, ago(0), elapsed=754.0, mistakes=2)


def test_the_card_is_a_1200x630_png_and_its_words_hold_no_digit_of_the_grid(finished_daily, player_client, monkeypatch):
    drawn: list = []
    real = card.render
    monkeypatch.setattr(card, "render", lambda texts: drawn.append(texts) or real(texts))
    answer = player_client.get(reverse("daily_card", args=[finished_daily.pk]))
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(answer.content))
    assert image.format == "PNG" and image.size == (1200, 630)
    (texts,) = drawn  # the render's only input
    assert dict(texts.stats) == {"Time": "12:34", "Mistakes": "2", "Streak": "2"}
    assert texts.kind == "Classic" and texts.level == "Easy" and texts.link.endswith("/daily/")
    words = " ".join([texts.title, texts.date, texts.level, texts.kind, texts.link, *sum(texts.stats, ())])
    digits = "".join(ch for ch in words if ch.isdigit())
    for grid in (SOLUTION, PUZZLE.replace("0", "").replace(".", "")):
        assert grid[:9] not in digits and SOLUTION[9:18] not in digits  # no row of the grid
    assert len(digits) < 20  # a date, a time, two counts: nothing grid-sized


def test_no_card_for_practice_an_unfinished_run_or_a_missing_one(player, player_client, dailies):
    practice = finished(player, ago(2), practice=True)
    playing = finished(player, ago(0))
    SoloRun.objects.filter(pk=playing.pk).update(state="playing", elapsed=None)
    for pk in (practice.pk, playing.pk, 999_999):
        assert player_client.get(reverse("daily_card", args=[pk])).status_code == 404
        assert player_client.get(reverse("daily_shared", args=[pk])).status_code == 404


def test_the_shared_page_has_the_card_as_og_image_and_no_name(finished_daily, client):
    html = client.get(reverse("daily_shared", args=[finished_daily.pk])).content.decode()
    card_url = f"http://testserver/daily/card/{finished_daily.pk}.png"
    assert f'<meta property="og:image" content="{card_url}">' in html
    assert 'property="og:description" content="Sudoku Showdown daily' in html and "12:34" in html
    assert "Ada" not in html and "Play today's daily" in html


def test_the_finish_shows_share_with_the_card(finished_daily, player_client):
    html = player_client.get(reverse("daily")).content.decode()
    assert (
        f'data-card-url="/daily/card/{finished_daily.pk}.png"' in html
        and f'href="/daily/shared/{finished_daily.pk}/"' in html
    )


def test_stats_per_level_worked_example():
    today = dt.date(2026, 12, 10)
    rows = [
        Row("easy", dt.date(2026, 12, 6), True, 150.0),  # 2:30 -> 0-3
        Row("easy", dt.date(2026, 12, 7), True, 250.0),  # 4:10 -> 3-5
        Row("easy", dt.date(2026, 12, 8), False),  # started, not finished: breaks the streak
        Row("easy", dt.date(2026, 12, 9), True, 280.0),  # 4:40 -> 3-5
        Row("easy", dt.date(2026, 12, 10), True, 1500.0),  # 25:00 -> 20+
        Row("hard", dt.date(2026, 12, 1), True, 600.0),  # 10:00 -> 8-12, long ago
    ]
    by_level = {s.level: s for s in stats.level_stats(rows, today)}
    easy, hard, medium = by_level["easy"], by_level["hard"], by_level["medium"]
    assert (easy.played, easy.finished, easy.streak, easy.best_streak) == (5, 4, 2, 2)
    assert [(b.label, b.count, b.percent) for b in easy.bars] == [
        ("0-3 min", 1, 50),
        ("3-5 min", 2, 100),
        ("5-8 min", 0, 0),
        ("8-12 min", 0, 0),
        ("12-20 min", 0, 0),
        ("20+ min", 1, 50),
    ]
    assert (hard.played, hard.finished, hard.streak, hard.best_streak) == (1, 1, 0, 1)
    assert [b.count for b in hard.bars] == [0, 0, 0, 1, 0, 0]
    assert (medium.played, medium.finished, medium.streak) == (0, 0, 0)
    assert list(by_level) == ["easy", "medium", "hard", "expert"]


def test_the_archive_shows_the_stats_panel(player, player_client, dailies):
    finished(player, ago(1), elapsed=200.0)
    finished(player, ago(0), elapsed=250.0)
    voided = finished(player, ago(0), level="hard", elapsed=100.0)
    SoloRun.objects.filter(pk=voided.pk).update(review=SoloRun.Review.VOIDED)
    html = player_client.get(reverse("daily_archive")).content.decode()
    assert "Your daily statistics" in html
    easy = html.split('data-level-stats="easy"')[1].split("</article>")[0]
    assert "<dd data-played>2</dd>" in easy and "<dd data-streak>2</dd>" in easy
    assert '<th scope="row">3-5 min</th><td><span class="time-bar" style="width: 100%"></span>' in easy
    hard = html.split('data-level-stats="hard"')[1].split("</article>")[0]
    assert "<dd data-played>0</dd>" in hard and "No finish yet at this level." in hard  # voided: not counted

"""Every daily page in Dutch, with no English left (tests/i18n/test_dutch_pages.py's check):
/daily/ with a finished and a playing daily, a board with places, the archive, a ranked finish,
a held finish, the home page's tile and the profile's streak."""

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import SoloRun
from players.models import Profile
from tests.conftest import EMPTY, SOLUTION
from tests.i18n.test_dutch_pages import untranslated

HX = {"HTTP_HX_REQUEST": "true"}


def test_the_daily_pages_are_dutch(player, player_client, dailies):
    today = timezone.now().date()
    start = {"zone": "UTC", "date": today.isoformat()}
    easy = player_client.post(reverse("daily_start"), {**start, "level": "easy"})["Location"]
    for cell in EMPTY:  # a script's pace: held under review
        player_client.post(easy.rstrip("/") + "/act/", {"cell": cell, "digit": SOLUTION[cell]}, **HX)
    medium = player_client.post(reverse("daily_start"), {**start, "level": "medium"})["Location"]
    user = get_user_model().objects.create_user(username="grace", email="grace@example.com")
    grace = Profile.objects.create(display_name="Grace", account=user)
    daily = dailies[(today, "easy")]
    SoloRun.objects.create(
        player=grace,
        puzzle=daily.puzzle,
        level="easy",
        board={},
        daily=daily,
        state="finished",
        elapsed=300,
        assisted=True,
        hints=1,
    )
    names = {player.display_name, "Grace"}
    for url in (
        reverse("daily"),
        reverse("daily_board", args=[today.isoformat(), "easy"]),
        reverse("daily_archive"),
        reverse("daily_archive") + "?month=nonsense",
        easy,
        medium,
        reverse("home"),
        reverse("profile"),
    ):
        assert untranslated(player_client, url, names) == [], url
    with_zone = player_client.get(reverse("daily"), {"zone": "Mars/Base"}, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "kennen we niet" in with_zone

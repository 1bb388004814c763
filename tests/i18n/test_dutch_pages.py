"""Every page in Dutch, with no English left: each page is rendered with Accept-Language en
and nl, and any visible text (a text node, or an aria-label, title, placeholder or alt) that
reads the same in both fails, except names, numbers, codes and a few words Dutch shares."""

import re
import zoneinfo
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from games.sudoku.play import Enter
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import EMPTY, SOLUTION, client_for

# Names of games, keys and the few words that are the same in Dutch (a Dutch Sudoku player
# says "hint" and "score"): a text made of these words only may read the same.
SAME_IN_DUTCH = {
    "Sudoku",
    "Showdown",
    "Showdowns",
    "Solo",
    "Run",
    "Cardoku",
    "GG",  # the quick reaction "good game": gamers say it in Dutch too
    "Domino",
    "race",
    "English",
    "Nederlands",
    "Expert",
    "Hardcore",
    "Shift",  # the key's name on a Dutch keyboard too
    "min",  # minutes, abbreviated (the daily statistics' "3-5 min"): the same in Dutch
    "Joker",
    "Jokers",
    "Hint",
    "Hints",
    "Score",
    "Bonus",
    "Flush",
    "Royal",
    "Duels",
    "CODE",
    "code",
    "Enter",
    "Esc",
    "Tab",
    "Delete",
    "Backspace",  # a key's name, as on the keyboard
}
ZONES = zoneinfo.available_timezones()
ATTRIBUTES = {"aria-label", "title", "placeholder", "alt"}


class Texts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.texts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        self.texts += [value.strip() for name, value in attrs if name in ATTRIBUTES and value and value.strip()]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(" ".join(data.split()))


def texts(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    return parser.texts


def exempt(text: str, names: set[str]) -> bool:
    return (
        not re.search(r"[^\W\d_]{2}", text)  # numbers, symbols, single letters
        or text in names
        or text in ZONES
        or text.startswith("/")  # names, time zones, paths
        or re.fullmatch(r"[A-Z0-9]{6}|[A-Z0-9]{8}|[A-Z0-9]{26}", text) is not None  # room and deal codes
        or set(re.findall(r"[^\W\d_]+", text)) <= SAME_IN_DUTCH
    )


def untranslated(client, url: str, names: set[str]) -> list[str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    dutch = client.get(url, HTTP_ACCEPT_LANGUAGE="nl")
    assert english.status_code == dutch.status_code, url
    assert '<html lang="nl"' in dutch.content.decode() and '<html lang="en"' in english.content.decode()
    same = set(texts(english.content.decode()))
    return sorted({t for t in texts(dutch.content.decode()) if t in same and not exempt(t, names)})


@pytest.fixture
def pages(player, player_client, bank_puzzle):
    """The URL of every kind of page, with a game of each in progress."""
    from games.models import Puzzle
    from tests.conftest import PUZZLE

    for level in ("easy", "medium"):  # a Solo Run, a Domino game and a room each take one
        for _ in range(3):
            Puzzle.objects.create(level=level, givens=PUZZLE, solution=SOLUTION, clues=30, seed=2)
    solo = player_client.post(reverse("solo_new"), {"level": "easy"})["Location"]
    cardoku = player_client.post(reverse("cardoku_new"), {"layout": "default"})["Location"]
    domino = player_client.post(reverse("domino_new"), {"level": "easy"})["Location"]
    lobby = create_room(player, level="easy", preset="standard")
    running = create_room(player, level="easy", preset="standard")
    from players.models import Profile

    guest = Profile.objects.create(display_name="Grace")
    act(running.code, guest, A.Join())
    for who in (player, guest):
        act(running.code, who, A.SetReady(True))
    act(running.code, player, A.Start(), now=timezone.now() - timezone.timedelta(seconds=5))
    act(running.code, player, A.GameMove(Enter(EMPTY[0], int(SOLUTION[EMPTY[0]]))))
    return {
        "home": reverse("home"),
        "how to play": reverse("how_to_play"),
        "solo run": solo,
        "cardoku setup": reverse("cardoku_setup"),
        "cardoku game": cardoku,
        "domino home": reverse("domino_home"),
        "domino game": domino,
        "leaderboards": reverse("leaderboards"),
        "profile": reverse("profile"),
        "room lobby": reverse("room", args=[lobby.code]),
        "running room": reverse("room", args=[running.code]),
        "404": "/no-such-page/",
    }


def test_no_page_keeps_english_text_in_dutch(player, player_client, pages):
    names = {player.display_name, "Grace"}
    left = {name: found for name, url in pages.items() if (found := untranslated(player_client, url, names))}
    assert not left, f"untranslated in Dutch: {left}"


@pytest.mark.parametrize("game", ["solo", "rooms", "cardoku", "domino"])
def test_every_leaderboard_is_dutch(player, player_client, game):
    assert untranslated(player_client, reverse("leaderboards") + f"?game={game}", {player.display_name}) == []


def test_a_spectator_sees_a_dutch_room(player, other_player, pages):
    spectator = client_for(other_player)
    names = {player.display_name, other_player.display_name, "Grace"}
    assert untranslated(spectator, pages["running room"], names) == []

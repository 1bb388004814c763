"""The rooms' fixtures: players and rooms made to order (make_players, make_room, as
allauth's tests make users with user_factory), the fixed deals and the frozen clock."""

import datetime as dt

import pytest
import time_machine

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)  # the frozen clock's now (clock)
DOMINO_SEED = 5  # its first stones each have a right and a wrong entry point
CARDOKU_SEED = 12345  # its first card fits on the board


@pytest.fixture
def clock():
    """Time stands at T0: a room's own timestamps (auto_now) agree with the `now` a test passes."""
    with time_machine.travel(T0, tick=False):
        yield


@pytest.fixture
def fixed_seeds(monkeypatch):
    """A new Domino or Cardoku room deals the known seed (a fixed deal keeps the tests deterministic)."""
    from rooms.gametypes import GAME_TYPES

    monkeypatch.setattr(GAME_TYPES["domino"], "new_seed", lambda: DOMINO_SEED)
    monkeypatch.setattr(GAME_TYPES["cardoku"], "new_deal", lambda: (None, CARDOKU_SEED))


@pytest.fixture
def make_players(db):
    """make_players("Ada", "Grace"): a new player of each name."""
    from players.models import Profile

    def make(*names):
        return [Profile.objects.create(display_name=name) for name in names]

    return make


@pytest.fixture
def players(make_players):
    """Three to seat and a watcher."""
    return make_players("Ada", "Grace", "Linus", "Watcher")


@pytest.fixture
def make_room(db):
    """make_room(host, *others, game=..., level=..., now=...): the host's new room (create_room's
    options), the others joined at the same `now`."""
    from rooms import actions as A
    from rooms.api import act, create_room

    def make(host, *others, **options):
        room = create_room(host, **options)
        for other in others:
            act(room.code, other, A.Join(), now=options.get("now"))
        return room

    return make


@pytest.fixture
def room(player, bank_puzzle, make_room):
    """The player's own easy lobby, nobody else in it."""
    return make_room(player, level="easy")

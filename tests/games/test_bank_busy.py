"""An empty puzzle bank never makes a request generate a puzzle (issue 12, section 6):
with a worker to ask (a broker), the request queues a top-up and waits a bounded time,
then answers "busy, try again" (503 on pages, a refusal over the socket). Only the
embedded no-broker mode, where no worker can top up, still generates inline."""

import json
import time

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import bank
from games.models import Puzzle, SoloRun
from games.tasks import fill_puzzle_bank
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import PUZZLE, SOLUTION


@pytest.fixture
def broker(settings, monkeypatch):
    """A deployment with a broker: tasks go to a worker (recorded here, not run)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.PUZZLE_BANK_INLINE = False
    monkeypatch.setattr(bank, "BANK_WAIT", 0.4)
    from django.core.cache import cache

    cache.clear()
    queued = []
    monkeypatch.setattr(fill_puzzle_bank, "delay", lambda **kw: queued.append(kw))
    return queued


def no_generator(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a request generated a puzzle")

    monkeypatch.setattr(bank, "generate_into_bank", refuse)


def test_solo_start_on_an_empty_bank_is_busy_not_generated(player_client, player, broker, monkeypatch):
    no_generator(monkeypatch)
    started = time.monotonic()
    response = player_client.post(reverse("solo_new"), {"level": "expert"})
    waited = time.monotonic() - started
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert b"being prepared" in response.content and b"try again" in response.content
    assert 0.35 < waited < 6 and not SoloRun.objects.exists() and not Puzzle.objects.exists()
    assert broker == [{"levels": ["expert"]}]
    player_client.post(reverse("solo_new"), {"level": "expert"})
    assert len(broker) == 1  # one top-up per level in flight, not one per request


def test_a_top_up_within_the_wait_starts_the_run(player_client, player, broker, monkeypatch):
    def worker(**kwargs):  # a quick worker: the puzzle is there by the first poll
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=2)

    monkeypatch.setattr(fill_puzzle_bank, "delay", worker)
    response = player_client.post(reverse("solo_new"), {"level": "easy"})
    assert response.status_code == 302 and SoloRun.objects.get(player=player).puzzle.seed == 2


def test_domino_start_on_an_empty_bank_is_busy(player_client, broker, monkeypatch):
    no_generator(monkeypatch)
    response = player_client.post(reverse("domino_new"), {"level": "hard"})
    assert response.status_code == 503 and b"being prepared" in response.content


def test_a_broker_outage_is_still_a_clear_busy_answer(player_client, broker, monkeypatch):
    def down(**kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(fill_puzzle_bank, "delay", down)
    response = player_client.post(reverse("solo_new"), {"level": "medium"})
    assert response.status_code == 503 and b"try again" in response.content


def test_only_two_requests_per_process_wait(broker, monkeypatch, db):
    monkeypatch.setattr(bank, "BANK_WAIT", 5.0)
    for _ in range(2):
        assert bank.BANK_WAITERS.acquire(blocking=False)
    try:
        started = time.monotonic()
        with pytest.raises(bank.BankEmpty):
            bank.take_puzzle("easy")
        assert time.monotonic() - started < 0.5  # answered at once, no third waiter
    finally:
        bank.BANK_WAITERS.release()
        bank.BANK_WAITERS.release()


def test_a_room_start_on_an_empty_bank_is_refused_at_once(broker, monkeypatch, db):
    no_generator(monkeypatch)
    ada, grace = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace"))
    room = create_room(ada, level="hard")
    act(room.code, grace, A.Join())
    for p in (ada, grace):
        act(room.code, p, A.SetReady(True))
    started = time.monotonic()
    with pytest.raises(bank.BankEmpty, match="being prepared"):  # a Refusal: the socket answers it
        act(room.code, ada, A.Start())
    assert time.monotonic() - started < 0.3  # the sockets' shared sync thread never waits
    room.refresh_from_db()
    assert room.state == "lobby" and room.seats.filter(ready=True).count() == 2


def test_running_low_queues_a_top_up_before_the_bank_is_empty(broker, settings, db):
    settings.PUZZLE_BANK_TARGET = 4
    for seed in range(3):
        Puzzle.objects.create(level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, seed=seed)
    bank.take_puzzle("easy")  # 2 left: not low yet
    assert broker == []
    bank.take_puzzle("easy")  # 1 left
    assert broker == [{"levels": ["easy"]}]


def test_the_top_up_task_fills_the_asked_level_and_frees_the_guard(settings, db):
    from django.core.cache import cache

    settings.PUZZLE_BANK_TARGET = 2
    cache.set("bank-top-up-easy", 1)
    assert fill_puzzle_bank(levels=["easy", "nonsense"]) == {"easy": 2}
    assert Puzzle.objects.filter(level="easy").count() == 2 and not Puzzle.objects.exclude(level="easy").exists()
    assert cache.get("bank-top-up-easy") is None


def test_without_a_broker_the_puzzle_is_still_generated_inline(player_client, player, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no worker could top up: the embedded mode
    response = player_client.post(reverse("solo_new"), {"level": "easy"})
    assert response.status_code == 302 and SoloRun.objects.get(player=player).puzzle.level == "easy"


@pytest.mark.django_db(transaction=True)
async def test_a_room_start_over_the_socket_gets_a_refusal(broker, monkeypatch):
    from tests.rooms.test_consumer import connect, receive_until

    no_generator(monkeypatch)

    @sync_to_async
    def lobby():
        ada, grace = (Profile.objects.create(display_name=n) for n in ("Ada", "Grace"))
        room = create_room(ada, level="expert")
        act(room.code, grace, A.Join())
        for p in (ada, grace):
            act(room.code, p, A.SetReady(True))
        return room, ada

    room, ada = await lobby()
    a, connected, _ = await connect(room.code, ada)
    assert connected
    await a.receive_from(timeout=5)
    await a.send_to(text_data=json.dumps({"action": "start"}))
    assert "being prepared" in await receive_until(a, 'id="room-message"')
    await a.disconnect()

"""The load client's own bookkeeping: which answer belongs to which move."""

import asyncio
import random
from types import SimpleNamespace

from loadtest.client import Player, RunStats


def _player():
    run = SimpleNamespace(stats=RunStats(), config=SimpleNamespace())
    return Player(run, room=None, index=0, name="p0", rng=random.Random(1))


def test_a_duplicates_late_answer_does_not_answer_the_next_move():
    """After a kill -9 the client re-sends a move the resync showed applied (logged at
    v47, resync at v50); the process that took the room over answers that duplicate with
    the game as of v47. The next move, pending now, must get its own answer (v56), not
    the duplicate's (the clean-clone CI run at ef7bd96 failed so)."""

    async def play():
        player = _player()
        player.duplicate_floor = 50
        future = asyncio.get_running_loop().create_future()
        player.pending = ("next", future)
        player._answer(("applied", 47, "ok", ""), unexpected_ok=False)
        assert not future.done()
        player._answer(("applied", 56, "ok", ""), unexpected_ok=False)
        assert future.result() == ("applied", 56, "ok", "")
        assert player.stats.reconnects["duplicate answered"] == 1
        assert player.stats.unexpected == []

    asyncio.run(play())


def test_without_a_re_sent_duplicate_a_stray_answer_is_still_reported():
    player = _player()
    player._answer(("applied", 12, "ok", ""), unexpected_ok=False)
    assert player.stats.unexpected == ["p0: answer with nothing pending: ('applied', 12, 'ok', '')"]

"""The one token bucket behind a socket's own message allowance (rooms/consumers.py) and a
player's over all their sockets in a process (rooms/hub.py bucket): worked examples."""

from games.common.limits import TokenBucket


def test_a_full_bucket_gives_its_burst_at_once_then_refills_at_its_rate():
    bucket = TokenBucket(rate=2, burst=3)
    t = bucket.last
    assert [bucket.take(t) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(t + 0.2)  # 0.4 of a token
    assert bucket.take(t + 0.6)  # 1.2 tokens: 0.4 more seconds at 2 a second
    assert not bucket.take(t + 0.6)  # 0.2 left
    assert [bucket.take(t + 100) for _ in range(4)] == [True, True, True, False]  # never above its burst


def test_looking_spends_nothing_and_spend_takes_one():
    bucket = TokenBucket(rate=1, burst=1)
    t = bucket.last
    assert bucket.has(t) and bucket.has(t)  # a look is free
    bucket.spend()
    assert not bucket.has(t)
    assert bucket.has(t + 1.5)

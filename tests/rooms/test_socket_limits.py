"""One hostile client must not slow anyone else down (issue 12, section 1): messages are
counted when they arrive, a socket's queue is bounded, sockets per player are capped, a
burst of room refreshes renders once per distinct view, and guessing codes over the
socket handshake is limited per network."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from players.models import Profile
from rooms import actions as A
from rooms import consumers, refresh
from rooms import hub as hubs
from rooms.api import act
from tests.rooms.test_consumer import connect, receive_until, setup_room

pytestmark = pytest.mark.django_db(transaction=True)


async def test_messages_are_counted_when_they_arrive_and_a_full_queue_cuts_the_socket_off(monkeypatch):
    room, ada, *_ = await setup_room(started=False)
    a, *_ = await connect(room.code, ada)
    await a.receive_from(timeout=5)
    handled = []
    slow = asyncio.Event()  # the handler never finishes its first message

    async def stuck_act(consumer, incoming):
        handled.append(incoming.message_id)
        await slow.wait()

    monkeypatch.setattr(hubs.Hub, "act", lambda self, *args: stuck_act(*args))
    for i in range(consumers.MAX_QUEUED + 3):  # not syncs: resyncs waiting together are answered once
        await a.send_to(text_data=json.dumps({"action": "ready" if i % 2 else "unready", "mid": f"q{i}"}))
    closed = None
    for _ in range(10):
        message = await a.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            closed = message.get("code")
            break
    assert closed == consumers.CLOSE_TOO_MANY
    assert len(handled) <= 1  # the queue was cut off, not worked through
    slow.set()


async def test_a_player_can_hold_only_so_many_sockets(monkeypatch):
    monkeypatch.setattr(hubs, "MAX_SOCKETS_PER_PROFILE", 3)
    room, ada, *_ = await setup_room(started=False)
    sockets = []
    for _ in range(3):
        c, connected, _ = await connect(room.code, ada)
        assert connected
        await c.receive_from(timeout=5)
        sockets.append(c)
    _, connected, close_code = await connect(room.code, ada)
    assert not connected and close_code == consumers.CLOSE_TOO_MANY
    await sockets[0].disconnect()  # a socket closed frees its place
    c, connected, _ = await connect(room.code, ada)
    assert connected
    for s in [*sockets[1:], c]:
        await s.disconnect()


async def test_a_network_can_hold_only_so_many_sockets(settings):
    """Players behind one address share ROOM_SOCKETS_PER_IP (a setting: a NAT or a load
    test from one machine may need more)."""
    settings.ROOM_SOCKETS_PER_IP = 2
    room, ada, grace, watcher = await setup_room(started=False)
    a, connected, _ = await connect(room.code, ada)
    g, connected_too, _ = await connect(room.code, grace)
    assert connected and connected_too
    _, connected, close_code = await connect(room.code, watcher)  # another player, same address
    assert not connected and close_code == consumers.CLOSE_TOO_MANY
    settings.ROOM_SOCKETS_PER_IP = 3
    w, connected, _ = await connect(room.code, watcher)
    assert connected
    for c in (a, g, w):
        await c.disconnect()


async def test_a_burst_of_refreshes_renders_once_per_distinct_view(monkeypatch):
    room, _ada, grace, watcher = await setup_room(started=False)
    renders = []
    real = refresh.render_views

    def counting(code, players):
        renders.append(sorted(players))
        return real(code, players)

    monkeypatch.setattr(refresh, "render_views", counting)
    idle = []
    for _ in range(6):  # one player's many idle tabs
        c, *_ = await connect(room.code, watcher)
        await c.receive_from(timeout=5)
        idle.append(c)
    g, *_ = await connect(room.code, grace)
    await g.receive_from(timeout=5)
    for ready in (True, False, True, False, True):  # a toggling client: five refreshes at once
        await sync_to_async(act)(room.code, grace, A.SetReady(ready))
    for c in idle:
        await receive_until(c, 'id="room-body"')
    await asyncio.sleep(0.3)
    # At most one render per refresh for the whole process (never one per socket), each for
    # the two distinct viewers: Grace seated, and the watcher's six tabs sharing one view.
    assert 1 <= len(renders) <= 5
    assert all([pk for pk, _language in players] == sorted([grace.pk, watcher.pk]) for players in renders)
    for c in [*idle, g]:
        await c.disconnect()


async def test_guessing_codes_over_the_socket_handshake_is_limited_per_network(settings):
    settings.ROOM_MISS_LIMIT = 3
    room, ada, _grace, watcher = await setup_room(started=False)
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        _, connected, close_code = await connect(code, watcher)
        assert not connected and close_code == 4404
    _, connected, close_code = await connect(room.code, watcher)  # the right code, too late
    assert not connected and close_code == consumers.CLOSE_TOO_MANY
    a, connected, _ = await connect(room.code, ada)  # a seated player still gets in
    assert connected
    await a.disconnect()


async def connect_from(code, profile, ip):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.conftest import handshake
    from tests.rooms.test_consumer import headers_for

    communicator = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers_for(profile))
    communicator.scope["client"] = (ip, 40000)
    connected, close_code = await handshake(communicator)
    if connected:
        await communicator.receive_from(timeout=5)
    return communicator, connected, close_code


async def test_seated_players_always_get_in_and_watchers_have_caps_of_their_own(monkeypatch, settings):
    """Issue 28, item 3: watchers from one address (5 cookies, 54 sockets) filled the room's
    one cap of 55, and a player reloading the page was refused on the way back in."""
    monkeypatch.setattr(hubs, "MAX_WATCHERS_PER_ROOM", 4)
    monkeypatch.setattr(hubs, "MAX_WATCHERS_PER_ADDRESS", 3)
    settings.ROOM_SOCKETS_PER_IP = 100
    room, ada, grace, watcher = await setup_room()  # a running race: Ada and Grace seated
    others = [await sync_to_async(Profile.objects.create)(display_name=f"W{n}") for n in range(3)]
    crowd = [await connect_from(room.code, p, "203.0.113.5") for p in [watcher, *others]]
    assert [connected for _, connected, _ in crowd] == [True, True, True, False]  # 3 per address
    assert crowd[3][2] == consumers.CLOSE_TOO_MANY
    elsewhere, connected, _ = await connect_from(room.code, others[2], "198.51.100.8")
    assert connected  # the room's fourth watcher
    _late, connected, code = await connect_from(room.code, watcher, "192.0.2.1")
    assert not connected and code == consumers.CLOSE_TOO_MANY  # the room's watchers are full
    # The players, from the crowd's own address, still get in: the race is theirs.
    players = [await connect_from(room.code, p, "203.0.113.5") for p in (ada, grace)]
    assert all(connected for _, connected, _ in players)
    for c, connected, _ in [*crowd, (elsewhere, True, None), *players]:
        if connected:
            await c.disconnect()


async def test_reconnecting_buys_no_full_renders_past_the_connect_budget(monkeypatch, settings):
    """Issue 28, item 2: a client cut off (4429) reconnected at once, and every connect
    rendered the room's full state again. Connects are charged per profile and per address
    before anything is rendered; past the budget the handshake is refused unrendered."""
    settings.ROOM_CONNECTS_PER_PROFILE = 3
    settings.ROOM_CONNECTS_PER_IP = 5
    room, ada, grace, watcher = await setup_room(started=False)
    renders = []
    real = consumers.RoomConsumer._render

    def counting(self, *args):
        renders.append(self.player.pk)
        return real(self, *args)

    monkeypatch.setattr(consumers.RoomConsumer, "_render", counting)
    for _ in range(3):  # a reload loop: connect, full state, close
        c, connected, _ = await connect_from(room.code, watcher, "203.0.113.20")
        assert connected
        await c.disconnect()
    c, connected, code = await connect_from(room.code, watcher, "203.0.113.20")
    assert not connected and code == consumers.CLOSE_TOO_MANY
    assert renders == [watcher.pk] * 3  # the refused connect rendered nothing
    # Other profiles of the same address share its budget of 5 (4 charged so far).
    c, connected, _ = await connect_from(room.code, grace, "203.0.113.20")
    assert connected
    await c.disconnect()
    _c, connected, code = await connect_from(room.code, ada, "203.0.113.20")
    assert not connected and code == consumers.CLOSE_TOO_MANY
    c, connected, _ = await connect_from(room.code, ada, "198.51.100.30")  # elsewhere: in
    assert connected
    await c.disconnect()


async def test_resyncs_spend_the_same_budget_as_connects(settings):
    settings.ROOM_CONNECTS_PER_PROFILE = 4
    room, _ada, _grace, watcher = await setup_room(started=False)
    c, connected, _ = await connect_from(room.code, watcher, "203.0.113.21")  # spends 1
    assert connected
    answers = []
    for n in range(5):
        await c.send_to(text_data=json.dumps({"action": "sync", "mid": f"s{n}"}))
        answers.append(await c.receive_from(timeout=5))
    assert ["Slow down" in a or "slow down" in a for a in answers] == [False, False, False, True, True]
    await c.disconnect()


async def test_resyncs_waiting_together_are_answered_once_and_sent_as_full_states():
    """Issue 28, item 1: a client that sends sync after sync without reading got a full render
    of the room for each; now the resyncs waiting in its queue are answered once, and every
    full state goes out marked so that daphne (config/sockets.py) does not queue a second
    one behind a first the client has not read."""
    room, ada, *_ = await setup_room(started=False)
    a, *_ = await connect(room.code, ada)
    first = await a.receive_output(timeout=5)
    assert first["type"] == "websocket.send" and first.get("resync") == "state" and 'id="room-body"' in first["text"]
    for _ in range(8):
        await a.send_to(text_data=json.dumps({"action": "sync"}))
    answers = []
    while not await a.receive_nothing(timeout=1):
        answers.append(await a.receive_output(timeout=5))
    assert 1 <= len(answers) <= 2
    assert all(m.get("resync") == "answer" and 'id="room-body"' in m["text"] for m in answers)
    await a.send_to(text_data=json.dumps({"action": "sync"}))  # taken: the next one is answered
    assert (await a.receive_output(timeout=5)).get("resync") == "answer"
    await a.disconnect()


async def test_a_room_pages_issued_cookie_makes_its_profile_when_the_socket_opens_a_real_room():
    """Issue 28, item 8: the room page issues a cookie whose profile is not made yet. Opening
    the socket of a real room (past the budgets) makes it, with that token and the name the
    browser picked meanwhile; a guessed code or a refused socket makes nothing."""
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.core import signing

    from config.asgi import application
    from players.middleware import PENDING_NAME_COOKIE
    from tests.conftest import handshake

    room, *_ = await setup_room(started=False)
    before = await sync_to_async(Profile.objects.count)()
    token = "issued-token-without-a-row"

    async def open_socket(code):
        cookies = (
            f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt='stats.player')}; "
            f"{PENDING_NAME_COOKIE}={signing.dumps('Linus', salt='players.pending-name')}"
        )
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookies.encode())]
        c = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
        return c, *(await handshake(c))

    c, connected, code = await open_socket("ZZZZZZ")
    assert not connected and code == 4404
    assert await sync_to_async(Profile.objects.count)() == before  # a guess makes nothing
    c, connected, _ = await open_socket(room.code)
    assert connected
    assert 'id="room-body"' in await c.receive_from(timeout=5)
    made = await sync_to_async(Profile.objects.get)(token=token)
    assert made.display_name == "Linus" and await sync_to_async(Profile.objects.count)() == before + 1
    await c.disconnect()
    c, connected, _ = await open_socket(room.code)  # the same browser again: the same profile
    assert connected and await sync_to_async(Profile.objects.count)() == before + 1
    await c.disconnect()


async def test_messages_on_a_refused_socket_are_dropped_quietly(settings, caplog):
    """Issue 45, item 8: a socket refused "try later" is held open ROOM_REFUSAL_HOLD before its
    close, and every message it sent meanwhile logged AttributeError (no game: the socket never
    reached a room), 97 tracebacks in one run. They are dropped, and the close still comes."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.rooms.test_consumer import headers_for

    settings.ROOM_SOCKETS_PER_IP = 1
    settings.ROOM_REFUSAL_HOLD = 0.5
    room, _ada, _grace, watcher = await setup_room(started=False)
    other = await sync_to_async(Profile.objects.create)(display_name="Other watcher")
    first, connected, _ = await connect_from(room.code, other, "203.0.113.40")
    assert connected
    refused = WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers_for(watcher))
    refused.scope["client"] = ("203.0.113.40", 40001)
    accepted, _ = await refused.connect(timeout=5)
    assert accepted  # accepted, to close with a code the page can read
    for n in range(3):
        await refused.send_to(text_data=json.dumps({"action": "join", "mid": f"j{n}"}))
    closed = await refused.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_TOO_MANY}
    await asyncio.sleep(0.2)  # what was queued behind the close has been dispatched by now
    await refused.disconnect()  # re-raises what the consumer raised meanwhile (AttributeError)
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []
    seated = await sync_to_async(lambda: set(room.seats.values_list("player_id", flat=True)))()
    assert watcher.pk not in seated  # nothing it sent was acted on
    await first.disconnect()

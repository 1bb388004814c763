"""An idle room socket stays up. With redis-py 8 the client's default socket timeout
(5 s) equalled channels-redis's blocking read (BZPOPMIN, 5 s): every consumer that got
no group message for 5 s crashed with "Timeout reading" and its socket closed (1011), so
a lobby waiting for friends reconnected every 5 seconds (django/channels_redis#422)."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from players.models import Profile
from rooms import actions as A
from rooms.api import act, create_room
from tests.conftest import cookie_for, require_service

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_lobby_socket_idle_for_seven_seconds_still_gets_the_next_push():
    require_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    ada, grace, linus = await sync_to_async(
        lambda: [Profile.objects.create(display_name=n) for n in ("Ada", "Grace", "Linus")]
    )()
    room = await sync_to_async(create_room)(ada)
    await sync_to_async(act)(room.code, grace, A.Join())
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", f"{settings.PLAYER_COOKIE_NAME}={cookie_for(grace)}".encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)
    assert (await socket.connect(timeout=5))[0]
    await socket.receive_from(timeout=5)  # the resync
    await asyncio.sleep(7)  # more than one blocking read of the channel layer
    await sync_to_async(act)(room.code, linus, A.Join())
    pushed = await socket.receive_from(timeout=10)
    assert "Linus" in pushed
    # Grace, not the host: the host's Start counts as the host's ready (issue 27), so only a
    # guest has an "I'm ready" to send.
    await socket.send_to(text_data=json.dumps({"action": "ready"}))
    assert "✓ Ready" in await socket.receive_from(timeout=10)
    await socket.disconnect()

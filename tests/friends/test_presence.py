"""The player's own socket (friends/consumers.py): only a signed-in session opens it; it says what
the page is; a friend's panel is pushed when what a player shows changes, and nothing is pushed
for a page view that changes nothing; what a client sends is ignored."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache

from config.asgi import application
from friends import presence
from friends.models import Presence
from tests.conftest import handshake
from tests.friends.people import befriend, member

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def socket(account_id, at: str, panel=True) -> WebsocketCommunicator:
    session = SessionStore()
    if account_id is not None:
        session["_auth_user_id"] = str(account_id)
    session.create()
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"origin", b"http://127.0.0.1:8000"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()),
    ]
    query = f"at={at}" + ("&panel=1" if panel else "")
    return WebsocketCommunicator(application, f"/ws/me/?{query}", headers=headers)


@sync_to_async
def friends_pair():
    cache.clear()
    ana, bo = member("Ana"), member("Bo")
    befriend(ana, bo)
    return ana, bo


async def test_a_socket_without_a_signed_in_session_is_closed():
    connected, code = await handshake(await socket(None, presence.token("online")))
    assert not connected and code == 4401


async def test_a_friend_arriving_in_a_room_is_pushed_to_my_panel_once():
    ana, bo = await friends_pair()
    mine = await socket(ana.account_id, presence.token("online"))
    assert (await mine.connect(timeout=5))[0]
    bell = await mine.receive_from(timeout=5)
    assert 'id="bell"' in bell and "bell-count" not in bell  # nothing unread
    empty = await mine.receive_from(timeout=5)
    assert "None of your friends is online now." in empty

    theirs = await socket(bo.account_id, presence.token("room", "ABC123"), panel=False)
    assert (await theirs.connect(timeout=5))[0]
    await theirs.receive_from(timeout=5)  # Bo's bell
    pushed = await mine.receive_from(timeout=5)
    assert "Bo" in pushed and "online" in pushed  # ABC123 is no room: shown as online
    # a second page of Bo's showing the same: nothing pushed to Ana
    again = await socket(bo.account_id, presence.token("online"), panel=False)
    assert (await again.connect(timeout=5))[0]
    await again.receive_from(timeout=5)
    assert await mine.receive_nothing(timeout=0.5)
    # a client's frames are ignored, whatever they are
    await mine.send_to(text_data="{not json")
    await mine.send_to(text_data='{"action": "follow", "account": 1}')
    assert await mine.receive_nothing(timeout=0.3)
    rows = await sync_to_async(lambda: sorted(Presence.objects.values_list("account_id", "what")))()
    assert rows == sorted([(ana.account_id, "online"), (bo.account_id, "online"), (bo.account_id, "room")])
    for s in (mine, theirs, again):
        await s.disconnect()
    assert await sync_to_async(Presence.objects.count)() == 0


async def test_a_forged_page_token_shows_only_online():
    assert presence.read_token("forged") == ("online", "")
    assert presence.read_token(presence.token("room", "ABC123")) == ("room", "ABC123")


def test_rows_of_a_dead_process_are_ignored_then_swept(settings):
    import datetime as dt

    from django.utils import timezone

    from friends.tasks import sweep_presence

    ana = member("Ana")
    old = timezone.now() - dt.timedelta(seconds=settings.PRESENCE_STALE_SECONDS + 1)
    Presence.objects.create(channel="dead", account=ana.account, what="room", where="ABC123", seen_at=old)
    assert presence.summaries([ana.account_id]) == {}  # offline for friends
    assert sweep_presence() == 1 and not Presence.objects.exists()
    assert "friends.tasks.sweep_presence" in {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "leagues.tasks.close_weeks" in {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()}


async def test_a_socket_of_a_deleted_account_is_closed_as_signed_out():
    """An account deleted in one browser leaves its sessions in the others: their pages' sockets
    wrote a presence row for an account no longer there, failed on its foreign key and closed
    with an error, which the page answered by reconnecting over and over. Closed as signed out
    now (for good), and no row is left."""
    ana, _bo = await friends_pair()
    mine = await socket(ana.account_id, presence.token("online"))
    await sync_to_async(ana.account.delete)()
    connected, code = await handshake(mine)
    assert not connected and code == 4401
    assert not await sync_to_async(Presence.objects.exists)()

"""End to end: a real Celery worker with beat, on Redis, expires an idle room, and the
player's open socket is told at once (worker -> channels-redis -> daphne consumer)."""

import datetime as dt
import os
import subprocess
import sys
import tempfile

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.asgi import application
from players.models import Profile
from rooms.api import create_room
from rooms.models import Room
from tests.conftest import cookie_for, database_url, require_service

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def idle_room():
    ada = Profile.objects.create(display_name="Ada")
    room = create_room(ada)
    Room.objects.filter(pk=room.pk).update(last_activity=timezone.now() - dt.timedelta(minutes=31))
    return room, ada


async def test_celery_beat_expires_a_room_seen_live_on_a_socket():
    require_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    room, ada = await idle_room()
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000"),
        (b"cookie", f"{settings.PLAYER_COOKIE_NAME}={cookie_for(ada)}".encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/r/{room.code}/", headers=headers)
    assert (await socket.connect(timeout=5))[0]
    await socket.receive_from(timeout=5)  # the resync push
    schedule = tempfile.mktemp(prefix="beat-")
    log = tempfile.NamedTemporaryFile("w+", prefix="worker-", suffix=".log")  # noqa: SIM115 - closed in the finally
    env = dict(
        os.environ, DATABASE_URL=database_url(connection.settings_dict), SWEEP_SECONDS="1", PUZZLE_BANK_TARGET="0"
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-B",
            "-s",
            schedule,
            "--concurrency",
            "1",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
        ],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        message = ""
        for _ in range(30):
            message = await socket.receive_from(timeout=40)
            if "This room has expired" in message:
                break
        log.seek(0)
        assert "idle for 30 minutes" in message, log.read()[-3000:]
        state = await sync_to_async(lambda: Room.objects.get(pk=room.pk).state)()
        assert state == "expired"
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        await socket.disconnect()
        log.close()
        for suffix in ("", "-shm", "-wal", ".db"):
            if os.path.exists(schedule + suffix):
                os.remove(schedule + suffix)

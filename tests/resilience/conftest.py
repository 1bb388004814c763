"""Shared by the resilience tests: real daphne processes on the test database."""

import os
import tempfile

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import database_url, require_service


@pytest.fixture
def services(transactional_db):
    """PostgreSQL and Redis (skipped locally without them, required in CI)."""
    require_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    require_service(bool(settings.REDIS_URL), "Redis (REDIS_URL)")
    return {"database_url": database_url(connection.settings_dict), "redis_url": settings.REDIS_URL}


@pytest.fixture
def log_dir():
    """The daphne logs of a test (kept for reading when RESILIENCE_KEEP_LOGS is set)."""
    if os.environ.get("RESILIENCE_KEEP_LOGS"):
        yield tempfile.mkdtemp(prefix="resilience-")
        return
    with tempfile.TemporaryDirectory(prefix="resilience-") as path:
        yield path


def short_config(**overrides):
    """A few rooms through short showdowns (14 empty cells), with every kind of move,
    reconnect and forfeit happening often enough to be seen in a short run."""
    from loadtest.scenario import Config

    values = dict(
        rooms=2,
        players=5,
        rate=2.0,
        p_hint=0.05,
        p_note=0.06,
        p_wrong=0.10,
        p_silly=0.03,
        p_reconnect=0.04,
        p_reload=0.02,
        p_drop=0.05,
        leave_fraction=0.25,
        watchers_every=1,
        presets=("standard", "hardcore", "friendly"),
        max_seconds=150,
    )
    values.update(overrides)
    return Config(**values)


def stock(count, seed=7, blanks=14):
    from loadtest.common import add_puzzles

    return add_puzzles(count, seed=seed, blanks=blanks)

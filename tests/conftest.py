import os

import pytest
from hypothesis import settings as hypothesis_settings

# Django imports stay inside functions: engine tests also run without Django (-p no:django).

# One hypothesis profile on every machine, CI's and a developer's: the same examples in the
# same order (derandomize: a property test fails everywhere or nowhere), no per-example
# deadline (a busy machine is not a bug), no example database carried between runs. Each test
# names its own example count; FUZZ_EXAMPLES runs the long fuzz (tests/resilience/test_fuzz.py).
hypothesis_settings.register_profile("showdown", deadline=None, derandomize=True, database=None, print_blob=True)
hypothesis_settings.load_profile("showdown")


def cookie_for(profile) -> str:
    from django.core import signing

    return signing.dumps(profile.token, salt="stats.player")


def client_for(profile):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie_for(profile)
    return client


@pytest.fixture
def player(db):
    from players.models import Profile

    return Profile.objects.create(display_name="Ada")


@pytest.fixture
def other_player(db):
    from players.models import Profile

    return Profile.objects.create(display_name="Grace")


@pytest.fixture
def player_client(player):
    return client_for(player)


# Rows only migrations and their post_migrate signal write (content types and permissions):
# a flush keeps them, so it need not send the signal that writes them again.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def _quick_flush():
    """A transactional test ends by emptying every table (Django's flush), some 1,000 times a
    run. Two costs of it went: PostgreSQL's TRUNCATE of the ~50 tables took half a second,
    nearly all of it waiting for new files to reach the disk, where a DELETE of the few rows a
    test made takes milliseconds (Django's foreign keys are DEFERRABLE INITIALLY DEFERRED and
    the flush is one transaction, so the order does not matter; a flush that resets sequences
    still truncates); and the post_migrate signal after it wrote the ~50 content types and
    ~200 permissions again, 120 ms of CPU each time, which the flush now leaves in place."""
    import sys

    if "django" not in sys.modules:  # engine tests without Django (-p no:django)
        yield
        return
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate, emit = DatabaseOperations.sql_flush, flush.emit_post_migrate_signal

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        tables = [table for table in tables if table not in KEPT_BY_FLUSH]
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    def kept_tables_need_no_signal(verbosity, interactive, db, **kwargs):
        from django.db import connections

        if connections[db].vendor != "postgresql":  # other databases' flush emptied them all
            emit(verbosity, interactive, db, **kwargs)

    DatabaseOperations.sql_flush = sql_flush
    flush.emit_post_migrate_signal = kept_tables_need_no_signal
    yield
    DatabaseOperations.sql_flush = truncate
    flush.emit_post_migrate_signal = emit


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request):
    """Every test starts with empty per-client counters (all tests share 127.0.0.1)."""
    import sys
    import uuid

    limits = sys.modules.get("games.common.limits")  # never import Django here: engine tests run without it
    if limits is not None:
        limits.prefix = f"limit-{uuid.uuid4().hex}"
    yield


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request with Accept-Language: nl leaves Dutch active in the test's thread (Django's
    LocaleMiddleware activates and never resets it): the next test rendering without a
    request read Dutch ('10 ptn'), depending on the random order. Each test ends in English."""
    yield
    import sys

    translation = sys.modules.get("django.utils.translation")  # never import Django here
    if translation is not None:
        translation.deactivate()


@pytest.fixture
def htmx_headers():
    return {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def empty_cache():
    """The test starts with an empty cache: no rate counter, pool turn or cached page of another
    test's (a module takes it with pytestmark = pytest.mark.usefixtures("empty_cache"))."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def no_restart(monkeypatch):
    """The server has been up since long before the run (tests move it when they need to)."""
    import datetime as dt

    from django.core.cache import cache

    from games.common import uptime

    monkeypatch.setattr(uptime, "STARTED", dt.datetime(2000, 1, 1, tzinfo=dt.UTC))
    monkeypatch.setattr(uptime, "LAST_ALIVE", None)
    cache.delete(uptime.HEARTBEAT_KEY)


def pytest_collection_modifyitems(config, items):
    # Everything under tests/browser/ is a browser test (run in its own process).
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EMPTY = [i for i, ch in enumerate(PUZZLE) if ch == "0"]


@pytest.fixture
def bank_puzzle(db):
    from games.models import Puzzle

    return Puzzle.objects.create(
        level="easy", givens=PUZZLE, solution=SOLUTION, clues=30, techniques=["naked single"], seed=1
    )


@pytest.fixture
def run(player, bank_puzzle):
    from games.sudoku.solo import start_run

    return start_run(player, "easy")


def require_service(available: bool, what: str):
    """Skip on a developer machine without the service; fail in CI (REQUIRE_SERVICES=1)."""
    if available:
        return
    if os.environ.get("REQUIRE_SERVICES"):
        pytest.fail(f"{what} is required here (REQUIRE_SERVICES=1) but not configured")
    pytest.skip(f"needs {what}; set DATABASE_URL / REDIS_URL (CI does)")


def database_url(settings_dict) -> str:
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict.get("USER") or "postgres"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture(autouse=True)
def _close_live_rooms():
    """Live room owners (rooms/hub.py) keep a move-log connection of their own: close it
    after each test, or the test database could not be dropped at the end."""
    yield
    import sys

    if "rooms.hub" in sys.modules:
        sys.modules["rooms.hub"].close_all()


async def handshake(communicator, timeout=5) -> tuple[bool, int | None]:
    """Open a socket: (open, close code). The room socket refuses by accepting and closing at
    once with its code (4401, 4404, 4429, 4503; a close before accept reaches a browser as
    HTTP 403), so a close as the first thing after the accept is a refusal too. Otherwise the
    first frame stays queued for the test to read."""
    connected, code = await communicator.connect(timeout=timeout)
    if not connected:
        return False, code
    first = await communicator.receive_output(timeout)
    if first["type"] == "websocket.close":
        return False, first.get("code")
    queue = communicator.output_queue
    rest = []
    while not queue.empty():
        rest.append(queue.get_nowait())
    for message in [first, *rest]:
        queue.put_nowait(message)
    return True, None


@pytest.fixture(autouse=True)
def _refusals_close_at_once(settings):
    """A 4429 refusal waits ROOM_REFUSAL_HOLD (5 s) before its close; tests that count refusals
    need them at once (tests/resilience/test_reconnect_flood.py keeps the wait)."""
    settings.ROOM_REFUSAL_HOLD = 0

"""Real-browser tests: Playwright's sync API driving Debian's Chromium headless shell (no download).

These run in their own pytest process (`pytest -m browser`): Playwright's sync API
leaves an event loop behind that breaks async tests running after it.
"""

import os
import signal
import sys
import threading
import uuid

import pytest
from playwright.sync_api import expect

# Assertions wait up to 15 s, not Playwright's 5: with four workers on two cores, a socket's
# connect, a push and its swap can together take longer than 5 s. A passing test waits no
# longer for it; only a failing one reports later.
expect.set_options(timeout=15_000)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
# Names this run's Chromium among the machine's processes, so that a hung one can be killed.
MARK = f"--showdown-tests={uuid.uuid4().hex}"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    MARK,
]
# Chromium now and then never answers the request to dispose of a browser context, and
# Playwright's BrowserContext.close has no timeout: a close still waiting after this long
# kills Chromium (the next test gets a new one). Seen in CI: one hang of 300 s in ~120 tests.
CLOSE_SECONDS = 30


def _kill_chromium() -> None:
    """SIGKILL this run's Chromium browser process (its children go with it)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if MARK.encode() in args and not any(a.startswith(b"--type=") for a in args):
            os.kill(int(pid), signal.SIGKILL)


class Chromium:
    """The session's one Chromium, launched again if a hung close had to kill it."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.current = None

    def browser(self):
        if self.current is None or not self.current.is_connected():
            self.current = self.playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        return self.current


def bounded_close(close):
    def bounded(context, *args, **kwargs):
        watchdog = threading.Timer(CLOSE_SECONDS, _kill_chromium)
        watchdog.start()
        try:
            close(context, *args, **kwargs)
        except Exception:
            if not watchdog.finished.is_set():
                raise
        finally:
            watchdog.cancel()
        if watchdog.finished.is_set() and not context.browser.is_connected():
            sys.stderr.write(f"Chromium did not close a context in {CLOSE_SECONDS} s: killed, launched again\n")

    return bounded


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import BrowserContext, sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still synchronous, so tell Django that is fine. Set only once a browser test runs, so
    # it never leaks into other tests (check --deploy refuses it).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/install-chromium.sh (make test does)")
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setattr(BrowserContext, "close", bounded_close(BrowserContext.close))
        chromium = Chromium(playwright)
        yield chromium
        if chromium.current is not None and chromium.current.is_connected():
            chromium.current.close()


# What a flush meets when a request or socket of the test's pages is still being answered.
STRAGGLER_RACES = ("deadlock detected", "violates foreign key constraint")


@pytest.fixture(scope="session", autouse=True)
def _flush_outlasts_a_straggling_request():
    """A test's end empties the database (its flush) while the live server may still answer a
    request the closed page had sent: PostgreSQL then found a deadlock and aborted the flush
    (one CI run: "Database test_showdown_gw3 couldn't be flushed"), or a socket's presence row
    written between the flush's delete of that table and of its account failed the flush's
    deferred foreign key check (another: "violates foreign key constraint
    friends_presence_account_id"). The request's transaction went on and ended; the flush,
    rolled back whole, is tried again then, up to three times."""
    import time

    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def teardown(self):
        for attempt in range(3):
            try:
                return original(self)
            except Exception as error:
                said = f"{error} {error.__cause__}"
                if attempt == 2 or not any(race in said for race in STRAGGLER_RACES):
                    raise
                time.sleep(0.5)
        return None

    TransactionTestCase._fixture_teardown = teardown
    yield
    TransactionTestCase._fixture_teardown = original


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.call_report = report  # the browser fixture reads it to describe a failed test's pages
    return report


def describe_pages(browser) -> str:
    """Every open page's address and what it shows: what each player saw when a test failed."""
    from playwright.sync_api import Error as PlaywrightError

    lines = []
    for context in browser.contexts:
        for page in context.pages:
            try:
                text = page.locator("main, body").first.inner_text(timeout=2000)
                status = page.locator("#flash, #socket-status").all_inner_texts()
            except PlaywrightError as error:  # a page that is gone or hung says so
                text, status = f"(unreadable: {error})", []
            lines.append(f"--- {page.url} (flash/socket: {status!r})\n{text[:1500]}")
    return "\n".join(lines)


@pytest.fixture
def browser(chromium, request):
    """Chromium, with every context a test opened closed when it ends, whether the test closed
    them itself or failed half way: a page left open keeps its sockets, timers and reconnect
    loop running through every later test. A failed test's pages are described first."""
    browser = chromium.browser()
    yield browser
    report = getattr(request.node, "call_report", None)
    if report is not None and report.failed:
        sys.stderr.write("pages at the failure:\n" + describe_pages(browser) + "\n")
    for context in browser.contexts:
        context.close()


# Count the room socket's pushes, so a test can wait for its first (full-state) push, which
# redraws the room: an element read or clicked before it may be detached under the test.
WATCH_SOCKET = """
window.__pushes = 0;
document.addEventListener('htmx:wsAfterMessage', () => { window.__pushes += 1; });
"""


def wait_for_first_push(page) -> None:
    """Wait until the room socket delivered its first push (the full state that redraws)."""
    page.wait_for_function("window.__pushes > 0")


def new_page(browser, base_url: str, profile=None, width=1100, height=900, csp=False, touch=False):
    from django.conf import settings

    from tests.conftest import cookie_for

    # Playwright evaluates wait_for_function strings with eval, which the site's policy
    # refuses; tests/browser/test_csp.py asks for the policy (csp=True) to check it.
    # touch: a phone's touch screen (pointer: coarse, hover: none) and its mobile viewport.
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=base_url,
        bypass_csp=not csp,
        has_touch=touch,
        is_mobile=touch,
    )
    if profile is not None:
        host = base_url.split("//", 1)[1].split(":")[0]
        context.add_cookies(
            [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie_for(profile), "domain": host, "path": "/"}]
        )
    context.add_init_script(WATCH_SOCKET)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.fixture
def page(browser, live_server, player):
    return new_page(browser, live_server.url, player)  # closed with the test's other contexts (browser)


def easy_in_bank(givens: str):
    from games.models import Puzzle
    from tests.conftest import SOLUTION

    clues = 81 - givens.count("0")
    return Puzzle.objects.create(
        level="easy", givens=givens, solution=SOLUTION, clues=clues, techniques=["naked single"], seed=1
    )


@pytest.fixture
def bank_puzzle(db):
    """tests.conftest's bank puzzle, with the browser tests' fewer blanks (tests/browser/puzzle.py)."""
    from tests.browser.puzzle import PUZZLE

    return easy_in_bank(PUZZLE)


@pytest.fixture
def full_bank_puzzle(db):
    """The unit tests' bank puzzle, all 51 blanks: for a test that reads the whole board's
    givens (the reader's row and column readings) or fills it through a unit test's helper."""
    from tests.conftest import PUZZLE

    return easy_in_bank(PUZZLE)


def forget_daphnes_limits() -> None:
    """A daphne process counts each client's connects, creations and misses in the cache
    under games.common.limits' prefix, "limit", the same in every test's daphne: with Redis they would
    add up from test to test (all of them from 127.0.0.1), and a test late in the run found
    its sockets refused "try later". Each daphne starts with none, as each test does
    (tests/conftest.py gives the test process a fresh prefix)."""
    import redis
    from django.conf import settings

    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter(match="*:limit:*"):  # games.common.limits.prefix as daphne has it
            client.delete(key)


class Daphne:
    """A real daphne process (HTTP + WebSockets) on the test database. A subprocess, not
    a fork: asgiref's executors do not survive fork."""

    def __init__(self, env: dict[str, str]):
        import http.client
        import socket
        import subprocess
        import sys
        import tempfile
        import time

        from django.conf import settings

        self.env = env
        # The listening socket is made here and handed to daphne (--fd): a port only picked here
        # and bound by daphne later could be taken in between by another worker's server, and the
        # test then talked to that one (CI saw ERR_INVALID_HTTP_RESPONSE).
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        # a file, not a pipe: nobody reads a pipe while the tests run, and a daphne that
        # filled one (64 KiB of log lines) would block mid-write and hang a test
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop, at the end of the worker)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "--fd", str(self.listener.fileno()), "config.asgi:application"],
            pass_fds=(self.listener.fileno(),),
            env=env,
            cwd=settings.BASE_DIR,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the socket listens at once: wait for daphne's answer
            try:
                ask = http.client.HTTPConnection("127.0.0.1", port, timeout=0.5)
                ask.request("GET", "/robots.txt")
                ask.getresponse().read()
                ask.close()
                break
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.log_since(0)[-2000:]) from None
                time.sleep(0.1)

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_size(self) -> int:
        return self.log.seek(0, 2)

    def log_since(self, offset: int) -> str:
        self.log.seek(offset)
        return self.log.read().decode(errors="replace")

    def stop(self) -> None:
        import subprocess

        self.listener.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def daphne_environment() -> dict[str, str]:
    """What a test's daphne runs with: this process's environment (a test may set a variable
    before it asks for daphne) and the test's settings that daphne must share."""
    from django.conf import settings
    from django.db import connection

    from tests.conftest import database_url

    environment = {name: value for name, value in os.environ.items() if name != "PYTEST_CURRENT_TEST"}
    return dict(
        environment,
        DATABASE_URL=database_url(connection.settings_dict),
        DJANGO_DEBUG="true",
        DJANGO_ALLOW_ASYNC_UNSAFE="",
        COUNTDOWN_SECONDS=str(settings.COUNTDOWN_SECONDS),
        # tests type a whole board at the machine's pace (a move every 30-40 ms), not a person's
        ROOM_SOCKET_RATE="1000",
        ROOM_SOCKET_BURST="1000",
    )


class WorkerDaphne:
    """The worker's daphne, shared by its tests: starting one costs a second and a half of CPU
    and every template compiled again, on a machine whose browser run is CPU-bound. It is
    started again when a test needs another environment (a setting passed by a variable),
    when it died, or for every test without Redis (daphne then counts its rate limits in its
    own memory, which no test can empty)."""

    def __init__(self):
        self.server: Daphne | None = None

    def for_test(self, env: dict[str, str], shared: bool) -> Daphne:
        if self.server is not None and (self.server.env != env or not self.server.alive() or not shared):
            self.stop()
        if self.server is None:
            self.server = Daphne(env)
        return self.server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@pytest.fixture(scope="session")
def _worker_daphne():
    daphne = WorkerDaphne()
    yield daphne
    daphne.stop()


@pytest.fixture
def daphne_server(transactional_db, _worker_daphne):
    """The URL of a real daphne process on the test database. Each test's database starts
    empty (the flush at the end of the one before); what daphne keeps beyond it is keyed by
    room code, profile token or arena id, all new in each test. Its rate counters are
    forgotten before each test."""
    import sys

    from django.conf import settings

    forget_daphnes_limits()
    server = _worker_daphne.for_test(daphne_environment(), shared=bool(settings.REDIS_URL))
    start = server.log_size()
    yield server.url
    # what daphne said during the test, in its captured output: pytest shows it when the test failed
    sys.stderr.write("daphne's log (tail):\n" + server.log_since(start)[-4000:])


def off_thread(fn, *args, **kwargs):
    """Call a room service from another thread: its pushes (on commit) use async_to_sync, which
    refuses to run in a test's thread, where Playwright's sync API keeps an event loop. Called
    there, the move was stored but its push was lost, and a page waited for it in vain. With no
    loop here (a view test using race_setup), it is called here, inside the test's transaction."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return fn(*args, **kwargs)

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def act(*args, **kwargs):
    """rooms.api.act for a browser test: the write path, with its pushes (off_thread).
    "The room moved on: try again" is tried again, as a page does: under load the test
    process's lease on a room can lapse while daphne's owner takes it over (rooms/owner.py
    Moved), and the move was then applied by nobody."""
    from rooms import api

    for attempt in range(3):
        try:
            return off_thread(api.act, *args, **kwargs)
        except api.RoomError as error:
            if "moved on" not in str(error) or attempt == 2:
                raise
    raise AssertionError("unreachable")

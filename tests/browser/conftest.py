"""Real-browser tests: Playwright's sync API driving Debian's Chromium (no download).

These run in their own pytest process (`pytest -m browser`): Playwright's sync API
leaves an event loop behind that breaks async tests running after it.
"""

import os

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still synchronous, so tell Django that is fine. Set only once a browser test runs, so
    # it never leaks into other tests (check --deploy refuses it).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/install-chromium.sh (make test does)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


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
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.fixture
def page(browser, live_server, player):
    page = new_page(browser, live_server.url, player)
    yield page
    page.context.close()


@pytest.fixture
def daphne_server(transactional_db):
    """A real daphne process (HTTP + WebSockets) on the test database. A subprocess, not
    a fork: asgiref's executors do not survive fork."""
    import socket
    import subprocess
    import sys
    import tempfile
    import time

    from django.conf import settings
    from django.db import connection

    from tests.conftest import database_url

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(
        os.environ,
        DATABASE_URL=database_url(connection.settings_dict),
        DJANGO_DEBUG="true",
        DJANGO_ALLOW_ASYNC_UNSAFE="",
        COUNTDOWN_SECONDS=str(settings.COUNTDOWN_SECONDS),
    )
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            env=env,
            cwd=settings.BASE_DIR,
            stdout=subprocess.DEVNULL,
            # a file, not a pipe: nobody reads a pipe while the test runs, and a daphne that
            # filled one (64 KiB of log lines) would block mid-write and hang the test
            stderr=log,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(log.read().decode()[-2000:]) from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


# A room socket takes 10 messages a second sustained after a burst of 20
# (rooms.consumers.RATE_PER_SECOND, BURST): a test solving a whole board at the machine's pace
# (a move every 30-40 ms on a quiet machine) is refused "Slow down" part way, a person never.
# Tests that type a whole board leave this gap between entries (8 a second at the most).
ENTRY_GAP_MS = 125

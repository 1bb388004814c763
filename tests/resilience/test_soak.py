"""The soak's fast variant: a few rooms of 5 real HTTP + WebSocket clients play complete
showdowns on a production-mode daphne over PostgreSQL + Redis, then every check of
loadtest/soak.py must pass (acknowledged moves logged exactly once, stored scores and
places equal a replay of the log, every update reached every client, each client shows
what the database holds, no 5xx, no tracebacks, no error closes)."""

import asyncio
from pathlib import Path

import pytest

from loadtest.checks import figures, verify
from loadtest.common import daphne_env, free_port, start_daphne, stop
from loadtest.scenario import run_clients

from .conftest import short_config, stock

pytestmark = pytest.mark.django_db(transaction=True)


def test_short_soak_passes_every_check(services, log_dir):
    config = short_config()
    solutions = stock(config.rooms + 1)
    port, log = free_port(), str(Path(log_dir) / "daphne.log")
    daphne = start_daphne(
        port,
        "config.asgi:application",
        daphne_env(services["database_url"], services["redis_url"], COUNTDOWN_SECONDS=1),
        log,
    )
    try:
        run = asyncio.run(run_clients(config, [port], solutions))
    finally:
        stop(daphne)
    report = figures(run, verify(run, logs=[log]))
    print(report.text())
    assert report.ok, report.text()
    moves = report.counts["moves"]
    assert moves.get("acknowledged", 0) > 50 and moves.get("refused (refused)", 0) > 0
    assert sum(report.counts["reconnects"].values()) > 0

"""Fast variants of loadtest/faults.py: a room of 5 real clients (plus a spectator) races
while daphne is killed with SIGKILL and restarted, while a private Redis is killed and
restarted, or with its players split across two daphne processes. The soak's checks
must all pass; closes and failed connects inside the fault's window are expected."""

import pytest

from loadtest.faults import run_fault

from .conftest import short_config, stock

pytestmark = pytest.mark.django_db(transaction=True)


def run(kind, services, log_dir, **config):
    config = short_config(rooms=1, rate=3.0, **config)
    _, report, _ = run_fault(kind, config, services["database_url"], services["redis_url"],
                             stock(config.rooms + 1, blanks=11), after=2.5, down=1.5, log_dir=log_dir)
    print(report.text())
    return report


def test_kill_9_daphne_mid_race_loses_nothing_acknowledged(services, log_dir):
    report = run("kill-daphne", services, log_dir)
    assert report.ok, report.text()
    assert "daphne killed" in report.figures["fault"]
    closes = report.counts["socket closes by code"]
    assert closes.get(1006, 0) >= 5  # every open socket died with the process...
    assert report.counts["showdowns finished"] == "1 of 1"  # ...and every player finished


def test_redis_restart_mid_race_loses_nothing(services, log_dir):
    report = run("restart-redis", services, log_dir)
    assert report.ok, report.text()
    assert "redis killed" in report.figures["fault"]
    # The HTTP side kept answering while Redis was down (a forfeit, a join, page loads).
    probes = report.figures["HTTP during the outage"]
    assert "leave/: 200" in probes and "join/: 409" in probes, probes


def test_two_daphne_processes_share_every_update(services, log_dir):
    report = run("two-daphne", services, log_dir)
    assert report.ok, report.text()
    # The check ran over the whole race (5 players x 11 cells, minus re-sent and refused moves).
    assert report.counts["update deliveries checked"] >= 30

"""Bad configuration fails at start, naming the variable that is wrong."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start(**env):
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG")}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "env, variable",
    [
        ({"DATABASE_URL": "mysql://root@localhost/x"}, "DATABASE_URL"),
        ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://localhost:6379"}, "REDIS_URL"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG"),
        ({"DJANGO_DEBUG": "false"}, "DJANGO_SECRET_KEY"),
        ({"PUZZLE_BANK_TARGET": "lots"}, "PUZZLE_BANK_TARGET"),
    ],
)
def test_bad_configuration_names_the_variable(env, variable):
    result = start(**env)
    last_line = result.stderr.strip().splitlines()[-1]
    assert result.returncode != 0
    assert "ImproperlyConfigured" in last_line and variable in last_line


def test_embedded_default_needs_no_services():
    result = start()
    assert result.returncode == 0, result.stderr

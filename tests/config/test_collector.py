"""A server process walks its startup objects no more and keeps the young generation large
(config/collector.py: full collections of ~1.2 million objects stopped the loop for 0.5-1 s
at 5,000 sockets)."""

import os
import subprocess
import sys
from pathlib import Path

from config.collector import YOUNG_THRESHOLD

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, weakref
import config.asgi
print(gc.get_threshold()[0], gc.get_freeze_count())
class Node: pass
a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the freeze is still collected
gone = weakref.ref(a)
del a, b
gc.collect()
print(gone() is None)
"""


def test_the_asgi_application_freezes_what_it_built_and_enlarges_the_young_generation():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    threshold, frozen, collected = run.stdout.split()
    assert int(threshold) == YOUNG_THRESHOLD
    assert int(frozen) > 50_000  # Django's, the apps' and the templates' objects
    assert collected == "True"

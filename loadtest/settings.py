"""Production settings for load runs: config.settings unchanged, except that collected
static files go to a directory of their own (LOADTEST_STATIC_ROOT), so a load run never
writes into the checkout's staticfiles/ while someone else serves from it."""

import os
from pathlib import Path

from config.settings import *  # noqa: F403

if os.environ.get("LOADTEST_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["LOADTEST_STATIC_ROOT"])

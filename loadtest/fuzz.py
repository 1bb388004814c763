"""The long hostile-input run: tests/resilience/test_fuzz.py with 10,000 examples each
for the socket messages and the POST endpoints (the suite runs a few dozen).

    .venv/bin/python loadtest/fuzz.py [--examples 10000]

Runs on the test database of DATABASE_URL (PostgreSQL finds what SQLite would not, such
as a NUL byte reaching a query); each test prints how many examples it ran.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=10000)
    args, rest = parser.parse_known_args()
    env = dict(os.environ, FUZZ_EXAMPLES=str(args.examples), LOG_LEVEL="ERROR")  # 4xx warnings: thousands
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/showdown_fuzz")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "tests/resilience/test_fuzz.py",
        "-q",
        "-p",
        "no:randomly",
        "-s",
        "-k",
        "never_crash or survives",
        *rest,
    ]
    print(f"FUZZ_EXAMPLES={args.examples} {' '.join(command)}", flush=True)
    sys.exit(subprocess.run(command, cwd=ROOT, env=env).returncode)


if __name__ == "__main__":
    main()

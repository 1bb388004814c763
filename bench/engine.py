"""Benchmark the pure-Python Sudoku engine.

Run from the repo root, either way:
    .venv/bin/python -m bench.engine [--n 30] [--data DIR] [--levels easy,hard]
    .venv/bin/python bench/engine.py

Prints the uniqueness-proof time (count_solutions(limit=2)) on the shared
top1465 / top95 sets and, per level, the median and p90 generation time over
N seeds with the clue and technique distribution. Wall-clock times; the CPU
time is printed too because shared machines add scheduling noise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # lets `python bench/engine.py` import the engine
    sys.path.insert(0, str(ROOT))

from games.engines import sudoku  # noqa: E402
from games.engines.sudoku import Level  # noqa: E402


def default_data_dir() -> Path:
    env = os.environ.get("SHARED_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def bench_uniqueness(path: Path) -> None:
    if not path.exists():
        print(f"{path.name}: missing ({path}); skipped")
        return
    puzzles = [sudoku.parse(line) for line in path.read_text().splitlines() if line.strip()]
    walls: list[float] = []
    cpu0 = time.process_time()
    for p in puzzles:
        t0 = time.perf_counter()
        n = sudoku.count_solutions(p, limit=2)
        walls.append(time.perf_counter() - t0)
        if n != 1:
            raise SystemExit(f"{path.name}: expected a unique solution, counted {n}")
    cpu = time.process_time() - cpu0
    print(
        f"uniqueness proof  {path.name:<12} {len(puzzles):5d} puzzles  "
        f"mean {1000 * statistics.fmean(walls):6.2f} ms  max {1000 * max(walls):7.2f} ms  "
        f"(cpu mean {1000 * cpu / len(puzzles):.2f} ms)"
    )


def bench_generation(level: Level, n: int) -> None:
    walls: list[float] = []
    cpus: list[float] = []
    clues: Counter[int] = Counter()
    grades: Counter[str] = Counter()
    techniques: Counter[str] = Counter()
    for seed in range(n):
        t0, c0 = time.perf_counter(), time.process_time()
        g = sudoku.generate(level, seed)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        # Verification is outside the timed part.
        lo, hi = level.clue_range
        if not (lo <= g.clues <= hi and g.grade.level is level and sudoku.count_solutions(g.puzzle) == 1):
            raise SystemExit(f"{level.value} seed {seed}: bad puzzle {sudoku.format_grid(g.puzzle)}")
        clues[g.clues] += 1
        grades[g.grade.level.value] += 1
        techniques.update(g.grade.techniques)
    print(
        f"generate {level.label:<7} n={n:<3} median {1000 * statistics.median(walls):6.1f} ms  "
        f"p90 {1000 * _pct(walls, 0.9):6.1f} ms  max {1000 * max(walls):6.1f} ms  "
        f"(cpu median {1000 * statistics.median(cpus):.1f} ms)"
    )
    print(f"    grades {dict(grades)}  clues {dict(sorted(clues.items()))}")
    print("    techniques " + ", ".join(f"{k} {v}" for k, v in techniques.most_common()))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "data",
        nargs="?",
        type=Path,
        default=None,
        help="folder with top1465.txt and top95.txt (default: $SHARED_DATA or ../shared/data)",
    )
    ap.add_argument("--data", dest="data_opt", type=Path, default=None, help="same as the positional argument")
    ap.add_argument("--n", type=int, default=30, help="seeds per level (default 30)")
    ap.add_argument("--levels", default="easy,medium,hard,expert", help="comma-separated levels")
    ap.add_argument("--skip-solver", action="store_true", help="only benchmark generation")
    args = ap.parse_args(argv)
    data = args.data_opt or args.data or default_data_dir()
    start = time.perf_counter()
    if not args.skip_solver:
        for name in ("top1465.txt", "top95.txt"):
            bench_uniqueness(data / name)
    for name in args.levels.split(","):
        if name.strip():
            bench_generation(Level.coerce(name), args.n)
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()

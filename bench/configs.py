"""Two configurations side by side: every application of the suite, fusion off and on, each run
in alternating processes under configuration A and B. A configuration is a set of environment
variables, e.g. Legate's (LEGATE_CONFIG) or the plugin's settings.

    python bench/configs.py --a "LEGATE_CONFIG='--cpus 1 --utility 1'" \
                            --b "LEGATE_CONFIG='--cpus 2 --utility 1'" [--repeats N]
                            [--apps black_scholes,stream] [--sizes small,large] [--modes on]
                            [--large black_scholes=10000000]
                            [--out DIR]

Prints, per application, size and mode, the median seconds per iteration under each
configuration (with its range) and the median of the A/B ratios of the runs taken in turn, and
writes results.json to the output folder. It is how the default configuration was chosen: the
one that measures faster for fused and unfused programs alike. LEGATE_CONFIG, when given, has
the suite's memory and logging settings added.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import FILL_CACHE, MODES, run_once
from run import APPS, SUITE

# Added to both configurations: the memory and logging settings every run of the suite has.
COMMON = "--sysmem 4000 --logging gpu=none"


def environment(assignments: str) -> dict[str, str]:
    """`VAR=value ...` (shell quoting) as variables; LEGATE_CONFIG with the common settings."""
    env = dict(word.split("=", 1) for word in shlex.split(assignments))
    if "LEGATE_CONFIG" in env:
        env.update(LEGATE_CONFIG=f"{env['LEGATE_CONFIG']} {COMMON}", LEGATE_AUTO_CONFIG="0")
    return env


def run_in(config: str, app_args: list[str], mode: str, fill: bool = False) -> float:
    env = environment(config)
    if fill:
        env.update(FILL_CACHE)
    seconds: float = run_once(app_args, mode, env)["seconds_per_iteration"]
    return seconds


def compare(a: str, b: str, app_args: list[str], repeats: int, modes: list[str]
            ) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for mode in modes:
        run_in(a, app_args, mode, fill=True)
        run_in(b, app_args, mode, fill=True)
        times: dict[str, list[float]] = {"a": [], "b": []}
        for _ in range(repeats):
            times["a"].append(run_in(a, app_args, mode))
            times["b"].append(run_in(b, app_args, mode))
        ratios = [ta / tb for ta, tb in zip(times["a"], times["b"], strict=True)]
        rows[mode] = {**times, "a_over_b": ratios}
    return rows


def describe(values: list[float], scale: float = 1.0) -> str:
    values = [v * scale for v in values]
    return f"{statistics.median(values):9.3f} [{min(values):.3f}-{max(values):.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="configuration A: VAR=value ...")
    parser.add_argument("--b", required=True, help="configuration B: VAR=value ...")
    parser.add_argument("--repeats", type=int, default=3, help="runs in turn per configuration")
    parser.add_argument("--apps", default=",".join(SUITE), help="comma-separated applications")
    parser.add_argument("--sizes", default="small,large", help="small, large or both")
    parser.add_argument("--modes", default=",".join(MODES), help="off, on or both")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "configs"))
    parser.add_argument("--large", action="append", default=[], metavar="APP=SIZE",
                        help="another large size for an application (repeatable), e.g. "
                             "black_scholes=10000000")
    args = parser.parse_args()
    large_sizes = {app: int(size) for app, size in (item.split("=", 1) for item in args.large)}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results: list[dict[str, Any]] = []
    print(f"A: {args.a}\nB: {args.b}\nms per iteration, median [range]; A/B > 1: B faster")
    for app in args.apps.split(","):
        small, large, small_iterations, large_iterations = SUITE[app]
        for size_name in args.sizes.split(","):
            size, iterations = ((small, small_iterations) if size_name == "small"
                                else (large_sizes.get(app, large), large_iterations))
            app_args = [str(APPS / f"{app}.py"), "--size", str(size),
                        "--iterations", str(iterations)]
            rows = compare(args.a, args.b, app_args, args.repeats, args.modes.split(","))
            results.append({"app": app, "size": size, **rows})
            for mode, row in rows.items():
                print(f"{app:16} {size:>9} {mode:3}  A {describe(row['a'], 1e3)}  "
                      f"B {describe(row['b'], 1e3)}  A/B {describe(row['a_over_b'])}",
                      flush=True)
            (out / "results.json").write_text(json.dumps(
                {"a": args.a, "b": args.b, "cpu": os.cpu_count(), "results": results}, indent=1))
    for mode in args.modes.split(","):
        ratios = [statistics.median(r[mode]["a_over_b"]) for r in results]
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of A/B, fusion {mode}: {geomean:.3f} over {len(ratios)} runs")


if __name__ == "__main__":
    main()

"""Interception overhead: a loop of small element-wise operations, fusion off vs on.

    python bench/overhead.py [--repeats N] [--size N] [--iterations N]

With nothing fused yet (pass-through), the ratio off/on shows what holding tasks in the window
costs per task: 1.0 means no overhead, below 1.0 a slowdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import compare, summary

APP = str(Path(__file__).resolve().parent / "apps" / "small_ops.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    app_args = [APP, "--size", str(args.size), "--iterations", str(args.iterations)]
    comparison = compare(app_args, args.repeats)
    per_task = {mode: [r["seconds_per_task"] * 1e6 for r in getattr(comparison, mode)]
                for mode in ("off", "on")}
    print(f"small element-wise ops, {args.size} elements, {args.iterations} iterations x 8 tasks,"
          f" {args.repeats} alternating off/on process pairs")
    print(f"  fusion off: us/task {summary(per_task['off'])}")
    print(f"  fusion on:  us/task {summary(per_task['on'])}")
    print(f"  off/on ratio        {summary(comparison.ratios())}")
    delta = statistics.median(per_task["on"]) - statistics.median(per_task["off"])
    print(f"  median overhead     {delta:+.2f} us/task")


if __name__ == "__main__":
    main()

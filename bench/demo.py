"""The demo: a real cuPyNumeric application, Black-Scholes, with fusion off and then on.

    python bench/demo.py [--size N] [--iterations N]

Prints the result of each run (the sum of all call and put prices over the iterations), the
time per iteration of each, the speedup, peak memory, and the fusion statistics of the fused
run. The kernel cache is filled by a short fused run first.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import FILL_CACHE, checksum_disagreement, run_once

from legate_fuse.counters import format_stats

APP = str(Path(__file__).resolve().parent / "apps" / "black_scholes.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1_000_000, help="number of options")
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    app_args = [APP, "--size", str(args.size), "--iterations", str(args.iterations)]

    print(f"Black-Scholes, {args.size:,} options, {args.iterations} timed iterations")
    # A first fused run fills the kernel cache, as any second run of a program finds it.
    run_once(app_args, "on", FILL_CACHE)
    off = run_once(app_args, "off")
    on = run_once(app_args, "on")
    for label, run in (("fusion off", off), ("fusion on ", on)):
        print(f"  {label}: sum of call+put prices = {run['checksum']:.10g}   "
              f"{run['seconds_per_iteration'] * 1e3:8.2f} ms/iteration")
    problem = checksum_disagreement([off["checksum"]], [on["checksum"]])
    same = "DIFFERENT" if problem else "identical"
    speedup = off["seconds_per_iteration"] / on["seconds_per_iteration"]
    print(f"  results: {same}; speedup (off/on): {speedup:.2f}x; peak memory "
          f"{off['peak_rss_mb']:.0f} MiB off, {on['peak_rss_mb']:.0f} MiB on")
    print(format_stats(on["fusion"]))
    if on["fusion"]["tasks_fused"] == 0:
        print("note: no task was fused in this run; the window only held and replayed tasks")
    if problem:
        sys.exit(1)


if __name__ == "__main__":
    main()

"""A program's first run with an empty kernel cache, fusion off and on, each way of compiling.

    python bench/first_run.py [--pairs N] [--only name,name] [--out DIR]

For each of cuPyNumeric's examples chosen (bench/examples.py's PROGRAMS; by default those with
element-wise chains), N rounds of: fusion off; fusion on with an empty kernel cache and
LEGATE_FUSE_COMPILE=background (the default); the same with LEGATE_FUSE_COMPILE=wait. Each fused
run gets a new cache folder, so every kernel, and every check of a vector form, is built in it;
after the run, the next waits (untimed) until the kernels the run handed over at its exit are
built, so that no run shares the cores with another's compiler. Reports the program's own time
and the process's wall time, median (min-max), and the ratio of each to the same round's run
with fusion off.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from examples import PROGRAMS, Program, Run, run_program
from run import machine

from legate_fuse.backend.finish_kernels import PREFIX

WAYS = ("off", "background", "wait")


def first_run(program: Program, way: str) -> Run:
    """One run as a new user's first: fusion off, or on with an empty cache compiling `way`."""
    if way == "off":
        return run_program(program, program.full, "off")
    cache = Path(tempfile.mkdtemp(prefix="legate-fuse-first-run-"))
    try:
        run = run_program(program, program.full, "on",
                          {**os.environ, "LEGATE_FUSE_CACHE_DIR": str(cache),
                           "LEGATE_FUSE_COMPILE": way})
        deadline = time.monotonic() + 600
        while any((cache / "kernels").glob(f"{PREFIX}*")) and time.monotonic() < deadline:
            time.sleep(0.2)
        return run
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def spread(values: list[float], digits: str) -> str:
    return (f"{statistics.median(values):{digits}} ({min(values):{digits}}-"
            f"{max(values):{digits}})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5, help="rounds of the three runs")
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--out", help="folder for README.md (default: print only)")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    programs = [p for p in PROGRAMS if (p.name in names if names else p.fusible)]
    lines = ["| program | way | ms (min-max) | ms / off | wall s | wall / off |",
             "|---|---|---|---|---|---|"]
    for program in programs:
        runs: dict[str, list[Run]] = {way: [] for way in WAYS}
        for _ in range(args.pairs):
            for way in WAYS:
                run = first_run(program, way)
                if run.returncode != 0:
                    sys.exit(f"{program.name} ({way}) failed:\n{run.error}")
                runs[way].append(run)
        for way in WAYS:
            own = [r.own_ms or 0.0 for r in runs[way]]
            wall = [r.wall_seconds for r in runs[way]]
            own_ratio = [r.own_ms / o.own_ms for r, o in zip(runs[way], runs["off"], strict=True)
                         if r.own_ms and o.own_ms]
            wall_ratio = [r.wall_seconds / o.wall_seconds
                          for r, o in zip(runs[way], runs["off"], strict=True)]
            lines.append(f"| {program.name} | {way} | {spread(own, '.0f')} "
                         f"| {spread(own_ratio, '.2f') if own_ratio else ''} "
                         f"| {spread(wall, '.2f')} | {spread(wall_ratio, '.2f')} |")
        print("\n".join(lines[-len(WAYS):]), flush=True)
    report = "\n".join(lines)
    header = (f"# First runs with an empty kernel cache\n\n{datetime.now(UTC):%Y-%m-%d %H:%M} "
              f"UTC. Machine: {machine()}. Command: `python bench/first_run.py "
              f"{' '.join(sys.argv[1:])}`. {args.pairs} rounds of off, background, wait; each "
              "fused run with a new cache folder. ms: the program's own printed time; wall: "
              "the process's; each ratio against the same round's run with fusion off "
              "(above 1: slower than fusion off).\n\n")
    print("\n" + report)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "README.md").write_text(header + report + "\n")


if __name__ == "__main__":
    main()

"""Whether each of the plugin's mechanisms pays for itself: an application with fusion on at the
default settings against the same with one mechanism turned off, in alternating processes.

    python bench/mechanisms.py [--pairs 6] [--out bench/results/DATE-mechanisms]

Per application and setting, the ratio of seconds per iteration, the mechanism off over the
default (pair by pair: median and range): above 1, the mechanism saves time. The mechanisms:
call sites built at once (LEGATE_FUSE_SITES), stepping aside (LEGATE_FUSE_STEP_ASIDE) and the
measurement of whether fusion pays (LEGATE_FUSE_PAYOFF), on the short programs where each was
meant to help.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import run_once

APPS = (
    ("bench/apps/mixed_ops.py", "--iterations", "100"),
    ("bench/apps/readback_ops.py",),
    ("bench/apps/opaque_ops.py",),
    ("bench/apps/kmeans.py", "--size", "10000", "--iterations", "30"),
)
MECHANISMS = {"LEGATE_FUSE_SITES": "0", "LEGATE_FUSE_STEP_ASIDE": "0", "LEGATE_FUSE_PAYOFF": "0"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--out", type=Path, help="folder for README.md")
    args = parser.parse_args()
    lines = ["| application | mechanism off | off / default (min-max) | default ms | off ms |",
             "|---|---|---|---|---|"]
    for app in APPS:
        for name, value in MECHANISMS.items():
            off, default = [], []
            for _ in range(args.pairs):
                off.append(run_once(list(app), "on", {name: value})["seconds_per_iteration"])
                default.append(run_once(list(app), "on")["seconds_per_iteration"])
            ratios = [a / b for a, b in zip(off, default, strict=True)]
            median_ms = (statistics.median(default) * 1e3, statistics.median(off) * 1e3)
            line = (f"| {Path(app[0]).stem} | {name}={value} | {statistics.median(ratios):.3f} "
                    f"({min(ratios):.2f}-{max(ratios):.2f}) | {median_ms[0]:.3f} "
                    f"| {median_ms[1]:.3f} |")
            print(line, flush=True)
            lines.append(line)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "README.md").write_text(
            f"# Whether each mechanism pays for itself\n\nCommand: `python bench/mechanisms.py "
            f"--pairs {args.pairs}`.\n\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

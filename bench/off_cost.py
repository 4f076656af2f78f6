"""What legate-fuse costs a program while fusion is off, against the plugin not installed.

    python bench/off_cost.py [--rounds 7] [--out bench/results/DATE-off-cost]

Each application runs, in every round, as:
- `absent`: legate-fuse not installed (bench/run_as.py under `python -S`: its start-up hook is
  never run, `legate_fuse` never imported);
- `unset`: LEGATE_FUSE unset, as most programs run;
- `zero`: LEGATE_FUSE=0;
- `killed`: LEGATE_FUSE=1 with a kill switch fired as Legate is imported (bench/run_as.py).
The order of the four rotates from round to round, after one warm-up run of each. Reported: the
seconds per iteration of each (median, range) and, per round, each one's time over `absent`'s
(median, range): 1.00 is no cost. The applications: the opaque stream (operations none of which
fuses: per-task overhead is all there is) and the CFD stencil loop (halo reads, slices and
element-wise work on a 2-D grid).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ab import run_result

BENCH = Path(__file__).resolve().parent
RUN_AS = str(BENCH / "run_as.py")
APPS = {
    "opaque stream": ["apps/opaque_ops.py", "--size", "1000", "--iterations", "200"],
    "cfd stencil loop": ["apps/cfd.py", "--size", "400", "--iterations", "20"],
}
CONDITIONS = ("absent", "unset", "zero", "killed")


def command(condition: str, app: list[str]) -> tuple[list[str], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    program = [str(BENCH / app[0]), *app[1:]]
    if condition == "absent":
        return [sys.executable, "-S", RUN_AS, "--plugin", "absent", *program], env
    if condition == "killed":
        return [sys.executable, RUN_AS, "--plugin", "killed", *program], {**env,
                                                                           "LEGATE_FUSE": "1"}
    if condition == "zero":
        env["LEGATE_FUSE"] = "0"
    return [sys.executable, *program], env


def measure(app: list[str], rounds: int) -> dict[str, list[float]]:
    for condition in CONDITIONS:  # warm-up
        run_result(*command(condition, app), condition)
    seconds: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    checksums = set()
    for round_index in range(rounds):
        shift = round_index % len(CONDITIONS)
        for condition in CONDITIONS[shift:] + CONDITIONS[:shift]:
            result = run_result(*command(condition, app), condition)
            seconds[condition].append(result["seconds_per_iteration"])
            checksums.add(result["checksum"])
    if len(checksums) != 1:
        raise RuntimeError(f"{' '.join(app)}: the conditions disagree: {sorted(checksums)}")
    return seconds


def spread(values: list[float], digits: int = 3) -> str:
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


def table(results: dict[str, dict[str, list[float]]]) -> str:
    lines = ["| application | " + " | ".join(f"{c} ms/iter" for c in CONDITIONS)
             + " | " + " | ".join(f"{c} / absent" for c in CONDITIONS[1:]) + " |",
             "|---" * (2 * len(CONDITIONS)) + "|"]
    for name, seconds in results.items():
        times = [spread([s * 1e3 for s in seconds[c]], 2) for c in CONDITIONS]
        ratios = [spread([x / a for x, a in zip(seconds[c], seconds["absent"], strict=True)])
                  for c in CONDITIONS[1:]]
        lines.append(f"| {name} | " + " | ".join(times + ratios) + " |")
    return "\n".join(lines)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, help="folder for README.md and results.json")
    parser.add_argument("--only", help="comma-separated application names")
    args = parser.parse_args()
    chosen = {n: a for n, a in APPS.items() if not args.only or n in args.only.split(",")}
    results = {name: measure(app, args.rounds) for name, app in chosen.items()}
    text = table(results)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=BENCH).stdout.strip()
        (args.out / "results.json").write_text(json.dumps(
            {"apps": {n: APPS[n] for n in results}, "seconds_per_iteration": results},
            indent=1))
        (args.out / "README.md").write_text(
            f"# Fusion off against legate-fuse not installed\n\n"
            f"`python bench/off_cost.py --rounds {args.rounds}` at {commit}, on a "
            f"{os.cpu_count()}-core {cpu_model()}, Legate's configuration as set up by "
            f"scripts/setup.sh. Milliseconds per iteration, median (min-max) over "
            f"{args.rounds} rounds; ratios per round over `absent`.\n\n{text}\n")


if __name__ == "__main__":
    main()

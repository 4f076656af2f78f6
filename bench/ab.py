"""Side-by-side comparison of an application with fusion off and on, in alternating processes.

    python bench/ab.py [--repeats N] -- bench/apps/small_ops.py --size 1000

Runs the application with LEGATE_FUSE=0 and LEGATE_FUSE=1 in turn (off, on, off, on, ...), after
one warm-up run of each, reads the `RESULT` line each run prints, and reports the median and
range of the seconds per iteration of each and of the off/on ratio of each pair.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

MODES = {"off": "0", "on": "1"}
# A warm-up run fills the kernel cache, each kernel compiled before its first launch: the timed
# runs then measure a program whose kernels are cached, as any run after the first
# (bench/first_run.py measures the first).
FILL_CACHE = {"LEGATE_FUSE_COMPILE": "wait"}


def run_once(app_args: list[str], mode: str, extra_env: dict[str, str] | None = None
             ) -> dict[str, Any]:
    env = dict(os.environ, LEGATE_FUSE=MODES[mode], **(extra_env or {}))
    return run_result([sys.executable, *app_args], env, mode)


def run_result(command: list[str], env: dict[str, str], label: str) -> dict[str, Any]:
    """Runs an application's command; returns the payload of the `RESULT {json}` line it
    printed last."""
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} ({label}) failed:\n{result.stderr[-3000:]}")
    lines = [ln for ln in result.stdout.splitlines() if ln.startswith("RESULT ")]
    if not lines:
        raise RuntimeError(f"{' '.join(command)} ({label}) printed no RESULT line")
    payload: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    return payload


@dataclass
class Comparison:
    off: list[dict[str, Any]] = field(default_factory=list)
    on: list[dict[str, Any]] = field(default_factory=list)

    def seconds(self, mode: str) -> list[float]:
        return [r["seconds_per_iteration"] for r in getattr(self, mode)]

    def peak_rss(self, mode: str) -> list[float]:
        return [r["peak_rss_mb"] for r in getattr(self, mode)]

    def ratios(self) -> list[float]:
        return [off / on for off, on in zip(self.seconds("off"), self.seconds("on"), strict=True)]


def compare(app_args: list[str], repeats: int, warmup: bool = True,
            extra_env: dict[str, str] | None = None) -> Comparison:
    if warmup:
        for mode in MODES:
            run_once(app_args, mode, {**(extra_env or {}), **FILL_CACHE})
    comparison = Comparison()
    for _ in range(repeats):
        for mode in MODES:
            getattr(comparison, mode).append(run_once(app_args, mode, extra_env))
    problem = checksum_disagreement([r["checksum"] for r in comparison.off],
                                    [r["checksum"] for r in comparison.on])
    if problem:
        raise RuntimeError(problem)
    return comparison


# LEGATE_FUSE_MATH=fast rounds its functions otherwise than the C library (within 4 ulp each):
# fused checksums then agree with fusion off's to this relative difference, not bit for bit.
FAST_MATH_RTOL = 1e-12


def checksum_disagreement(off: list[float], on: list[float]) -> str:
    """Why the checksums of runs with fusion off and on disagree, or ''. Every run gives the
    same bits, either way: a fused floating-point sum folds its elements in the order
    cuPyNumeric's task does, in one pass, whichever windows of a run fuse. In fast math mode
    (LEGATE_FUSE_MATH=fast in the environment), off and on agree within FAST_MATH_RTOL."""
    for way, values in (("off", off), ("on", on)):
        if len(set(values)) != 1:
            return f"the runs with fusion {way} disagree: checksums {sorted(set(values))}"
    if off[0] == on[0]:
        return ""
    if (os.environ.get("LEGATE_FUSE_MATH") == "fast"
            and abs(off[0] - on[0]) <= FAST_MATH_RTOL * abs(off[0])):
        return ""
    return f"fusion off and on disagree: checksums {off[0]!r} and {on[0]!r}"


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.6g} (min {min(values):.6g}, max {max(values):.6g})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="off/on pairs to time")
    parser.add_argument("app", nargs=argparse.REMAINDER, help="-- application and arguments")
    args = parser.parse_args()
    app_args = args.app[1:] if args.app[:1] == ["--"] else args.app
    comparison = compare(app_args, args.repeats)
    print(f"{' '.join(app_args)}: {args.repeats} pairs, alternating off/on")
    print(f"  off  s/iter   {summary(comparison.seconds('off'))}")
    print(f"  on   s/iter   {summary(comparison.seconds('on'))}")
    print(f"  off/on ratio  {summary(comparison.ratios())}")
    print(f"  peak RSS MiB  off {summary(comparison.peak_rss('off'))}")
    print(f"                on  {summary(comparison.peak_rss('on'))}")


if __name__ == "__main__":
    main()

"""A loop of small operations none of which can fuse, where per-task overhead dominates.

    python bench/apps/opaque_ops.py --size 1000 --iterations 200
Each iteration issues 8 tasks on arrays of `size` elements: clips (element-wise, but each alone
between two scans) and cumulative sums (scans); its result is the next iteration's input. With
fusion on, all of them run as cuPyNumeric built them: what the plugin costs a program it cannot
speed up.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import check_matches_numpy, parse_args, report, timed

TASKS_PER_ITERATION = 8


def step(xp: Any, a: Any) -> Any:
    for _ in range(TASKS_PER_ITERATION // 2):
        a = xp.cumsum(xp.clip(a, -0.001, 0.001))  # 2 tasks
    return a


def check() -> None:
    a0 = numpy.linspace(-1, 1, 500)
    check_matches_numpy("opaque_ops", lambda xp: step(xp, xp.array(a0)), rtol=1e-12)


def main() -> None:
    args = parse_args(__doc__ or "", size=1_000, iterations=200)
    if args.check:
        check()
        return
    import cupynumeric as np

    a = np.array(numpy.linspace(-1.0, 1.0, args.size))
    seconds, checksum = timed(lambda x: step(np, x), a, lambda c: float(c[0]),
                              args.iterations, args.warmup)
    report("opaque_ops", args.size, args.iterations, seconds, checksum,
           seconds_per_task=seconds / TASKS_PER_ITERATION)


if __name__ == "__main__":
    main()

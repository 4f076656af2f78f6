"""A loop of small element-wise operations, where per-task overhead dominates.

    python bench/apps/small_ops.py --size 1000 --iterations 200
Each iteration issues 8 element-wise tasks on arrays of `size` elements; its result is the
next iteration's input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import check_matches_numpy, parse_args, report, timed

TASKS_PER_ITERATION = 8


def step(xp: Any, a: Any, b: Any) -> Any:
    c = a * 2.0 + b       # 2 tasks
    c = c - a / 4.0       # 2 tasks
    c = xp.sqrt(c * c)    # 2 tasks
    return c * 0.5 + 1.0  # 2 tasks


def check() -> None:
    a0, b0 = numpy.linspace(0, 1, 500), numpy.linspace(1, 2, 500)
    check_matches_numpy("small_ops", lambda xp: step(xp, xp.array(a0), xp.array(b0)))



def main() -> None:
    args = parse_args(__doc__ or "", size=1_000, iterations=200)
    if args.check:
        check()
        return
    import cupynumeric as np

    a = np.array(numpy.linspace(0.0, 1.0, args.size))
    b = np.array(numpy.linspace(1.0, 2.0, args.size))
    seconds, checksum = timed(lambda x: step(np, x, b), a, lambda c: float(c[0]),
                              args.iterations, args.warmup)
    report("small_ops", args.size, args.iterations, seconds, checksum,
           seconds_per_task=seconds / TASKS_PER_ITERATION)


if __name__ == "__main__":
    main()

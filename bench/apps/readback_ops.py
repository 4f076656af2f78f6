"""A loop of a few small element-wise operations that reads one element back every iteration.

    python bench/apps/readback_ops.py --size 10000 --iterations 300
Each iteration fills a new array with zeros, issues 2 element-wise tasks and reads the first
element of the result (`float(c[0])`, one READ task), as a loop that checks a value every
iteration does. With fusion on, each window holds only the 2 element-wise tasks, flushed by the
read: the shape of work where holding, planning and launching a fused task is repaid least.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import check_matches_numpy, parse_args, report, timed

TASKS_PER_ITERATION = 3  # the 2 element-wise tasks and the read (the fill is not a task)


def step(xp: Any, x: Any, size: int) -> float:
    a = xp.zeros(size)
    b = a + x          # 1 task
    c = b * 2.0        # 1 task
    return float(c[0])  # 1 task (READ), and the wait for its value


def check() -> None:
    x0 = numpy.linspace(0, 1, 500)
    check_matches_numpy("readback_ops", lambda xp: numpy.array([
        step(xp, xp.array(x0), 500) for _ in range(3)]))


def main() -> None:
    args = parse_args(__doc__ or "", size=10_000, iterations=300)
    if args.check:
        check()
        return
    import cupynumeric as np

    x = np.array(numpy.linspace(1.0, 2.0, args.size))
    # The state: the sum of the values read so far (x stays the same).
    seconds, checksum = timed(lambda total: total + step(np, x, args.size), 0.0,
                              lambda total: total, args.iterations, args.warmup)
    report("readback_ops", args.size, args.iterations, seconds, checksum,
           seconds_per_task=seconds / TASKS_PER_ITERATION)


if __name__ == "__main__":
    main()

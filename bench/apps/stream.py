"""STREAM copy, scale, add and triad, written with cuPyNumeric arrays.

    python bench/apps/stream.py --size 10000000 --iterations 5
Each iteration moves 10 arrays' worth of float64 (copy 2, scale 2, add 3, triad 3).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import array_module, parse_args, report, timed

SCALAR = 3.0


def step(xp: Any, state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    a, b, c = state
    c[:] = a               # copy
    b[:] = SCALAR * c      # scale
    c[:] = a + b           # add
    a[:] = b + SCALAR * c  # triad
    return a, b, c


def check() -> None:
    import cupynumeric

    def run(xp: Any) -> numpy.ndarray:
        state = (xp.ones(1000), xp.full(1000, 2.0), xp.zeros(1000))
        for _ in range(3):
            state = step(xp, state)
        return numpy.asarray(state[0])

    numpy.testing.assert_array_equal(run(cupynumeric), run(numpy))
    print("stream: answer matches NumPy")


def main() -> None:
    args = parse_args(__doc__ or "", size=10_000_000, iterations=5)
    if args.check:
        check()
        return
    xp = array_module(args)
    n = args.size
    state = (xp.ones(n) * 1e-3, xp.full(n, 2e-3), xp.zeros(n))
    seconds, checksum = timed(lambda s: step(xp, s), state, lambda s: float(s[0][n // 2]),
                              args.iterations, args.warmup)
    report("stream", n, args.iterations, seconds, checksum, ideal_bytes=10 * 8 * n)


if __name__ == "__main__":
    main()

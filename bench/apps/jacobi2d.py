"""Jacobi relaxation of the 2-D Laplace equation on an n x n grid with fixed boundary values,
written with slices, with the residual norm read back every `--check-every` iterations.

    python bench/apps/jacobi2d.py --size 2000 --iterations 20
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import array_module, parse_args, report, timed

CHECK_EVERY = 5


def initial(xp: Any, n: int) -> tuple[Any, Any, int]:
    grid = xp.zeros((n + 2, n + 2))
    grid[0, :] = 1.0
    grid[:, 0] = 0.5
    return grid, grid.copy(), 0


def step(xp: Any, state: tuple[Any, Any, int]) -> tuple[Any, Any, int]:
    src, dst, count = state
    dst[1:-1, 1:-1] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])
    count += 1
    if count % CHECK_EVERY == 0:
        residual = float(xp.linalg.norm(dst[1:-1, 1:-1] - src[1:-1, 1:-1]))
        assert residual == residual  # read back to Python, as a convergence test would
    return dst, src, count


def check() -> None:
    import cupynumeric

    def run(xp: Any) -> numpy.ndarray:
        state = initial(xp, 40)
        for _ in range(12):
            state = step(xp, state)
        return numpy.asarray(state[0])

    numpy.testing.assert_array_equal(run(cupynumeric), run(numpy))
    print("jacobi2d: answer matches NumPy")


def main() -> None:
    args = parse_args(__doc__ or "", size=2000, iterations=20)
    if args.check:
        check()
        return
    xp = array_module(args)
    n = args.size
    seconds, checksum = timed(lambda s: step(xp, s), initial(xp, n),
                              lambda s: float(s[0][n // 2, n // 2]), args.iterations, args.warmup)
    # Ideally fused: read the source grid once, write the interior once.
    report("jacobi2d", n * n, args.iterations, seconds, checksum, ideal_bytes=2 * 8 * n * n)


if __name__ == "__main__":
    main()

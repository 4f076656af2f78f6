"""Jacobi relaxation of the 2-D Laplace equation on an n x n grid with fixed boundary values,
written with slices, with the residual norm read back every `--check-every` iterations.

    python bench/apps/jacobi2d.py --size 2000 --iterations 20
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

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


def main() -> None:
    # Ideally fused: read the source grid once, write the interior once.
    stepped_app("jacobi2d", __doc__ or "", initial, step, lambda s: s[0], size=2000,
                iterations=20, check_size=40, check_steps=12, volume=lambda n: n * n,
                ideal_bytes=lambda n: 2 * 8 * n * n,
                ideal_flops=lambda n: 4 * n * n)  # three sums and a product per point


if __name__ == "__main__":
    main()

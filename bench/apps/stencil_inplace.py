"""A 5-point stencil updated in place: each step averages the interior of a padded grid with its
four neighbours, through views of the one array, into named temporaries, and writes the result
back into the interior (which the next step reads around).

    python bench/apps/stencil_inplace.py --size 3000 --iterations 20
(an (n + 2) x (n + 2) grid of float64.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app


def initial(xp: Any, n: int) -> Any:
    grid = xp.zeros((n + 2, n + 2))
    grid[0, :] = 1.0
    grid[:, 0] = 0.5
    return grid


def step(xp: Any, grid: Any) -> Any:
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]
    average = center + north + east + west + south
    work = 0.2 * average
    center[:] = work
    return grid


def main() -> None:
    # Ideally: read the grid once and write its interior once per step.
    stepped_app("stencil_inplace", __doc__ or "", initial, step, lambda grid: grid, size=3000,
                iterations=20, check_size=40, check_steps=12, volume=lambda n: n * n,
                ideal_bytes=lambda n: 2 * 8 * n * n,
                ideal_flops=lambda n: 5 * n * n)  # four sums and a product per point


if __name__ == "__main__":
    main()

"""STREAM copy, scale, add and triad, written with cuPyNumeric arrays.

    python bench/apps/stream.py --size 10000000 --iterations 5
Each iteration moves 10 arrays' worth of float64 (copy 2, scale 2, add 3, triad 3).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

SCALAR = 3.0


def initial(xp: Any, n: int) -> tuple[Any, Any, Any]:
    return xp.ones(n) * 1e-3, xp.full(n, 2e-3), xp.zeros(n)


def step(xp: Any, state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    a, b, c = state
    c[:] = a               # copy
    b[:] = SCALAR * c      # scale
    c[:] = a + b           # add
    a[:] = b + SCALAR * c  # triad
    return a, b, c


def main() -> None:
    stepped_app("stream", __doc__ or "", initial, step, lambda s: s[0], size=10_000_000,
                iterations=5, check_size=1000, check_steps=3, ideal_bytes=lambda n: 10 * 8 * n,
                ideal_flops=lambda n: 4 * n)  # scale 1, add 1, triad 2


if __name__ == "__main__":
    main()

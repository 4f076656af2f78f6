"""A chain with two library calls: total + sin(c * s) * cos(c * s), a wave under a new
frequency each iteration (so that no two iterations compute the same values), summed.

    python bench/apps/sincos_chain.py --size 10000000 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MATH_FLOPS, stepped_app


def initial(xp: Any, n: int) -> tuple[Any, Any, int]:
    return xp.linspace(-20.0, 20.0, n), xp.zeros(n), 0


def step(xp: Any, state: tuple[Any, Any, int]) -> tuple[Any, Any, int]:
    s, total, k = state
    phase = (1.0 + 1e-6 * k) * s
    return s, total + xp.sin(phase) * xp.cos(phase), k + 1


if __name__ == "__main__":
    stepped_app("sincos_chain", __doc__ or "", initial, step, lambda state: state[1],
                size=10_000_000, iterations=10, check_size=1000, check_steps=3, rtol=1e-15,
                ideal_bytes=lambda n: 3 * 8 * n,
                # the phase, sin, cos, their product, the sum
                ideal_flops=lambda n: (3 + MATH_FLOPS["sin"] + MATH_FLOPS["cos"]) * n)

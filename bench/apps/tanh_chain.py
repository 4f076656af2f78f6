"""A chain with one library call: total + tanh(c * s), an activation (as an LSTM's) under a new
gain each iteration (so that no two iterations compute the same values), summed.

    python bench/apps/tanh_chain.py --size 10000000 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MATH_FLOPS, stepped_app


def initial(xp: Any, n: int) -> tuple[Any, Any, int]:
    return xp.linspace(-6.0, 6.0, n), xp.zeros(n), 0


def step(xp: Any, state: tuple[Any, Any, int]) -> tuple[Any, Any, int]:
    s, total, k = state
    return s, total + xp.tanh((0.5 + 1e-6 * k) * s), k + 1


if __name__ == "__main__":
    stepped_app("tanh_chain", __doc__ or "", initial, step, lambda state: state[1],
                size=10_000_000, iterations=10, check_size=1000, check_steps=3, rtol=1e-15,
                ideal_bytes=lambda n: 3 * 8 * n,
                # the product, tanh, the sum
                ideal_flops=lambda n: (2 + MATH_FLOPS["tanh"]) * n)

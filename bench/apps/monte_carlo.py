"""Monte Carlo integration: the share of random points of the unit square under the quarter
circle, an estimate of pi / 4, each iteration from new points of a seeded generator.

    python bench/apps/monte_carlo.py --size 10000000 --iterations 10

Each iteration draws two arrays and reduces a predicate of them: fused, the draws (cuPyNumeric's
own generator, the same numbers) and the work on them run as one task.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

SEED = 2024


def initial(xp: Any, n: int) -> tuple[Any, Any, int]:
    return xp.random.default_rng(SEED), xp.zeros(()), n


def step(xp: Any, state: tuple[Any, Any, int]) -> tuple[Any, Any, int]:
    rng, inside, n = state
    x, y = rng.random(n), rng.random(n)
    return rng, inside + xp.sum(x * x + y * y <= 1.0), n


def estimate(state: tuple[Any, Any, int]) -> Any:
    return state[1] / state[2]


if __name__ == "__main__":
    # NumPy's generator draws other numbers: `--check` compares the estimate of pi / 4 (within
    # its sampling error at the check's size), not the bits.
    stepped_app("monte_carlo", __doc__ or "", initial, step, estimate,
                size=10_000_000, iterations=10, check_size=1_000_000, check_steps=3,
                rtol=5e-3,
                # the two draws' numbers written to memory and read back: a fused task makes
                # cuPyNumeric's own draw before its kernel (the numbers are not drawn in registers)
                ideal_bytes=lambda n: 2 * 2 * 8 * n,
                # two draws of two 32-bit values each, two products, a sum, a comparison
                ideal_flops=lambda n: 4 * n)

"""Conjugate gradient for the 1-D Poisson problem (the tridiagonal [-1, 2, -1] Laplacian) with a
matrix-free stencil operator built from slices: dot products, axpy updates and a convergence
test read back to Python every iteration.

    python bench/apps/cg1d.py --size 10000000 --iterations 10
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cg import cg_step
from common import stepped_app


def apply_laplacian(p: Any) -> Any:
    """The 1-D Laplacian of the interior of `p`, which is padded with a zero at each end."""
    return 2.0 * p[1:-1] - p[:-2] - p[2:]


def initial(xp: Any, n: int) -> dict[str, Any]:
    rhs = xp.ones(n)
    p = xp.zeros(n + 2)
    p[1:-1] = rhs
    return {"x": xp.zeros(n), "r": rhs, "p": p, "rsold": xp.dot(rhs, rhs)}


def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
    return cg_step(xp, s, lambda p: p[1:-1], apply_laplacian, xp.dot)


def main() -> None:
    # Ideally fused: stencil + dot read p, write Ap; the updates read x, r, p, Ap and write x,
    # r; p's update reads r and p and writes p: about 11 vectors of float64 per iteration.
    stepped_app("cg1d", __doc__ or "", initial, step, lambda s: s["x"], size=10_000_000,
                iterations=10, check_size=200, check_steps=10, rtol=1e-10,
                ideal_bytes=lambda n: 11 * 8 * n,
                # the operator (3), two dot products and three updates (2 each) per point
                ideal_flops=lambda n: 13 * n)


if __name__ == "__main__":
    main()

"""Conjugate gradient for the 2-D Poisson problem with a matrix-free 5-point stencil operator:
dot products, axpy updates and a convergence test read back to Python every iteration.

    python bench/apps/cg.py --size 1000 --iterations 20
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

TOLERANCE = 1e-30  # never reached in the timed iterations: every iteration does its work


def apply_poisson(p: Any) -> Any:
    return 4.0 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]


def initial(xp: Any, m: int) -> dict[str, Any]:
    rhs = xp.ones((m, m))
    p = xp.zeros((m + 2, m + 2))
    p[1:-1, 1:-1] = rhs
    return {"x": xp.zeros((m, m)), "r": rhs, "p": p, "rsold": xp.sum(rhs * rhs)}


def cg_step(xp: Any, s: dict[str, Any], interior: Any, operator: Any, dot: Any
            ) -> dict[str, Any]:
    """One conjugate gradient iteration on the state `s`; `p` is padded with zeros, `interior`
    is its unpadded view and `operator(p)` the matrix applied to it (shared with cg1d.py)."""
    pv = interior(s["p"])
    ap = operator(s["p"])
    alpha = s["rsold"] / dot(pv, ap)
    s["x"] += alpha * pv
    s["r"] -= alpha * ap
    rsnew = xp.sum(s["r"] * s["r"])
    if float(xp.sqrt(rsnew)) < TOLERANCE:  # the convergence test: a read back to Python
        return s
    pv[:] = s["r"] + (rsnew / s["rsold"]) * pv
    s["rsold"] = rsnew
    return s


def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
    return cg_step(xp, s, lambda p: p[1:-1, 1:-1], apply_poisson, lambda a, b: xp.sum(a * b))


def main() -> None:
    # Ideally fused: stencil + dot read p, write Ap; the updates read x, r, p, Ap and write x,
    # r; p's update reads r and p and writes p: about 11 grids of float64 per iteration.
    stepped_app("cg", __doc__ or "", initial, step, lambda s: s["x"], size=1000,
                iterations=20, check_size=30, check_steps=10, rtol=1e-10,
                volume=lambda n: n * n, ideal_bytes=lambda n: 11 * 8 * n * n,
                # the operator (5), two dot products and three updates (2 each) per point
                ideal_flops=lambda n: 15 * n * n)


if __name__ == "__main__":
    main()

"""Jacobi iteration on a dense, diagonally dominant system: `x = (b - R @ x) / d`, where R is
the matrix without its diagonal and d the diagonal. A matrix-vector product followed by
element-wise work on its result, every iteration.

    python bench/apps/jacobi_dense.py --size 4000 --iterations 20
(an n x n matrix of float64.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app


def initial(xp: Any, n: int) -> dict[str, Any]:
    """A seeded random matrix made diagonally dominant (the iteration converges), split into
    its diagonal and the rest; the same values for NumPy and cuPyNumeric."""
    rng = numpy.random.default_rng(13)
    matrix = rng.random((n, n))
    diagonal = matrix.sum(axis=1) + 1.0
    numpy.fill_diagonal(matrix, 0.0)
    return {"r": xp.array(matrix), "d": xp.array(diagonal), "b": xp.array(rng.random(n)),
            "x": xp.zeros(n)}


def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
    s["x"] = (s["b"] - xp.dot(s["r"], s["x"])) / s["d"]
    return s


def main() -> None:
    # Ideally: read R once and the vectors once per iteration.
    stepped_app("jacobi_dense", __doc__ or "", initial, step, lambda s: s["x"], size=4000,
                iterations=20, check_size=300, check_steps=5, rtol=1e-12,
                volume=lambda n: n * n, ideal_bytes=lambda n: (n * n + 4 * n) * 8,
                # the product, then the difference and the quotient
                ideal_flops=lambda n: 2 * n * n + 2 * n)


if __name__ == "__main__":
    main()

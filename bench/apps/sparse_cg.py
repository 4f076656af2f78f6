"""Conjugate gradient on a sparse Poisson matrix stored in compressed rows (legate_csr; with
--numpy, scipy.sparse): a sparse matrix-vector product, two dot products and three vector
updates per iteration, and the residual's norm read back every iteration, as scipy's cg does.

    python bench/apps/sparse_cg.py --size 1000 --iterations 20 [--dims 3] [--jacobi]
(`size` grid points along each of `dims` dimensions: the 5-point (2-D) or 7-point (3-D)
Laplacian; --jacobi preconditions by the inverse of its diagonal.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import stepped_app

TOLERANCE = 1e-30  # never reached in the timed iterations: every iteration does its work


def poisson(n: int, dims: int) -> Any:
    """The scipy.sparse matrix of the Laplacian on an n^dims grid (Dirichlet boundary)."""
    import scipy.sparse as sp

    line = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    identity = sp.identity(n, format="csr")
    matrix = line
    for _ in range(dims - 1):
        size = matrix.shape[0]
        matrix = sp.kron(matrix, identity) + sp.kron(sp.identity(size, format="csr"), line)
    matrix = sp.csr_array(matrix)
    matrix.sort_indices()
    return matrix


def main() -> None:
    extra = argparse.ArgumentParser(add_help=False)
    extra.add_argument("--dims", type=int, choices=(2, 3), default=2)
    extra.add_argument("--jacobi", action="store_true")
    options, rest = extra.parse_known_args()
    sys.argv[1:] = rest
    dims, jacobi = options.dims, options.jacobi

    def initial(xp: Any, n: int) -> dict[str, Any]:
        matrix = poisson(n, dims)
        if xp is not numpy:
            import legate_csr

            matrix = legate_csr.csr_array(matrix)
        b = xp.ones(matrix.shape[0])
        inverse_diagonal = 1.0 / xp.asarray(matrix.diagonal()) if jacobi else None
        return {"A": matrix, "x": xp.zeros_like(b), "r": b.copy(), "p": None, "rho": None,
                "M": inverse_diagonal}

    def step(xp: Any, s: dict[str, Any]) -> dict[str, Any]:
        r = s["r"]
        z = r * s["M"] if s["M"] is not None else r
        rho = xp.dot(r, z)
        s["p"] = z.copy() if s["p"] is None else z + (rho / s["rho"]) * s["p"]
        q = s["A"] @ s["p"]
        alpha = rho / xp.dot(s["p"], q)
        s["x"] += alpha * s["p"]
        r -= alpha * q
        s["rho"] = rho
        if float(xp.linalg.norm(r)) < TOLERANCE:  # the convergence test, read back
            return s
        return s

    points = (lambda n: n * n) if dims == 2 else (lambda n: n * n * n)
    stencil = 2 * dims + 1
    stepped_app("sparse_cg", __doc__ or "", initial, step, lambda s: s["x"], size=1000,
                iterations=20, check_size=12, check_steps=10, rtol=1e-10, volume=points,
                # the matrix (values and columns: 16 bytes an element, row ranges) and x,
                # then p, q, x, r and z read or written once each
                ideal_bytes=lambda n: (16 * stencil + 16 + 8 * 7) * points(n),
                # the product (2 an element), two dot products, three updates
                ideal_flops=lambda n: (2 * stencil + 10) * points(n))


if __name__ == "__main__":
    main()

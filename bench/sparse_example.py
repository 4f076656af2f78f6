"""The sparse library's example: a 2-D Poisson problem solved by preconditioned conjugate
gradients with legate_csr, as a scipy.sparse program would solve it, checked against scipy.

    python bench/sparse_example.py [--size N]           # Legate alone
    LEGATE_FUSE=1 python bench/sparse_example.py        # with the plugin

Prints the iterations, the residual, the seconds the solve took, and whether its answer agrees
with scipy.sparse.linalg.cg's on the same matrix.
"""

from __future__ import annotations

import argparse
import time

import cupynumeric as np
import numpy

import legate_csr as sparse


def poisson(n: int) -> sparse.csr_array:
    """The 5-point Laplacian on an n x n grid, built from its five diagonals."""
    size = n * n
    off = numpy.ones(size - 1)
    off[numpy.arange(1, size) % n == 0] = 0.0  # no neighbour across a grid row's end
    return sparse.diags([-numpy.ones(size - n), -off, 4.0 * numpy.ones(size), -off,
                         -numpy.ones(size - n)], [-n, -1, 0, 1, n], shape=(size, size))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=300, help="grid points along each side")
    args = parser.parse_args()
    A = poisson(args.size)
    b = np.ones(A.shape[0])
    jacobi = sparse.diags(1.0 / A.diagonal())
    iterations = 0

    def count(_: object) -> None:
        nonlocal iterations
        iterations += 1

    start = time.perf_counter()
    x, info = sparse.linalg.cg(A, b, rtol=1e-8, M=jacobi, callback=count)
    residual = float(np.linalg.norm(b - A @ x))
    seconds = time.perf_counter() - start
    print(f"{A.shape[0]:,} unknowns, {A.nnz:,} stored elements: info {info}, {iterations} "
          f"iterations, residual {residual:.3e}, {seconds:.2f} s")
    try:
        import scipy.sparse.linalg
    except ImportError:
        return
    reference = A.to_scipy()
    want, _ = scipy.sparse.linalg.cg(reference, numpy.ones(A.shape[0]), rtol=1e-8,
                                      M=jacobi.to_scipy())
    agree = numpy.allclose(numpy.asarray(x), want, rtol=1e-7, atol=1e-9)
    print(f"scipy.sparse.linalg.cg agrees: {agree}")


if __name__ == "__main__":
    main()

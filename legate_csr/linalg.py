"""Iterative solvers over legate_csr matrices, with scipy.sparse.linalg's signatures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def cg(A: Any, b: Any, x0: Any = None, *, rtol: float = 1e-5, atol: float = 0.0,
       maxiter: int | None = None, M: Any = None,
       callback: Callable[[Any], None] | None = None) -> tuple[Any, int]:
    """Solves A x = b for a symmetric positive definite A by the conjugate gradient method,
    as scipy.sparse.linalg.cg does (the same steps in the same order): stops once the
    residual's norm is at most max(atol, rtol * |b|). `M`: a preconditioner approximating the
    inverse of A (a matrix, or a function of the residual). Returns (x, info): info 0 when it
    converged, else the number of iterations made (`maxiter`, default 10 * n)."""
    import cupynumeric as np
    import numpy

    b = np.asarray(b)
    n = b.shape[0]
    if A.shape != (n, n):
        raise ValueError(f"cg: A has shape {A.shape}, b has {n} entries")
    dtype = numpy.result_type(A.dtype, b.dtype)
    b = b.astype(dtype, copy=False)
    x = np.zeros(n, dtype=dtype) if x0 is None else np.array(x0, dtype=dtype)
    bnrm2 = float(np.linalg.norm(b))
    if bnrm2 == 0:
        return b, 0
    atol = max(float(atol), float(rtol) * bnrm2)
    if maxiter is None:
        maxiter = n * 10
    precondition = _preconditioner(M)
    r = b - A @ x if x0 is not None and bool(x.any()) else b.copy()
    rho_prev: Any = None
    p: Any = None
    for iteration in range(maxiter):
        if float(np.linalg.norm(r)) < atol:
            return x, 0
        z = precondition(r)
        rho_cur = np.dot(r, z)
        if iteration > 0:
            beta = rho_cur / rho_prev
            p *= beta
            p += z
        else:
            p = np.empty_like(r)
            p[:] = z[:]
        q = A @ p
        alpha = rho_cur / np.dot(p, q)
        x += alpha * p
        r -= alpha * q
        rho_prev = rho_cur
        if callback is not None:
            callback(x)
    return x, maxiter


def _preconditioner(M: Any) -> Callable[[Any], Any]:
    if M is None:
        return lambda r: r
    if callable(M):
        return M  # type: ignore[no-any-return]
    if hasattr(M, "matvec"):
        return M.matvec  # type: ignore[no-any-return]
    return lambda r: M @ r

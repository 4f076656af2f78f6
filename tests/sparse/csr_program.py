"""A program using legate_csr as a user would, run by test_csr_processes.py in a process of its
own (fusion off or on, one or two CPUs): it checks every product against scipy.sparse and prints
what it found as one JSON line."""

from __future__ import annotations

import json
import os

import cupynumeric as cn
import numpy
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import legate_csr

N = 300  # a 90,000-row matrix: Legate splits its rows among two CPUs

line = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(N, N))
reference = sp.csr_array(sp.kron(line, sp.identity(N)) + sp.kron(sp.identity(N), line))
reference.sort_indices()
matrix = legate_csr.csr_array(reference)
x = numpy.random.default_rng(3).normal(size=reference.shape[0])
found = {
    "product": bool(numpy.array_equal(numpy.asarray(matrix @ cn.array(x)), reference @ x)),
    "transposed": bool(numpy.allclose(numpy.asarray(matrix.T @ cn.array(x)), reference.T @ x,
                                      rtol=1e-13, atol=1e-13)),
    "diagonal": bool(numpy.array_equal(numpy.asarray(matrix.diagonal()), reference.diagonal())),
}
b = numpy.ones(reference.shape[0])
iterations = [0]


def count(_: object) -> None:
    iterations[0] += 1


solution, info = legate_csr.linalg.cg(matrix, cn.array(b), rtol=1e-8, maxiter=60, callback=count)
want, want_info = spla.cg(reference, b, rtol=1e-8, maxiter=60)
found["cg"] = bool(info == want_info and numpy.allclose(numpy.asarray(solution), want,
                                                        rtol=1e-9, atol=1e-9))
try:
    import legate_fuse

    stats = legate_fuse.stats()
    # With the plugin: the solver's vector work fused; with every window fused, products
    # among it (fewer ran unfused than were made: one per iteration, and one above; at the
    # default settings, the measurement of whether fusion pays may run them all unfused).
    # The library's other tasks run as built.
    products = 1 + iterations[0]
    unfused = stats.get("unfused", {}) if stats is not None else {}
    product_runs = unfused.get("legate_csr.SPMV", {"tasks": 0})
    every_window_fused = os.environ.get("LEGATE_FUSE_PAYOFF") == "0"
    found["fusion"] = (stats is not None and stats.get("tasks_fused", 0) > 0
                       and (product_runs["tasks"] < products or not every_window_fused)
                       and "legate_csr.SPMV_TRANSPOSE" in unfused)
except ImportError:
    found["fusion"] = False
print("FOUND " + json.dumps(found))

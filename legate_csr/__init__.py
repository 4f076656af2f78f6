"""legate_csr: compressed sparse row matrices on Legate, with scipy.sparse's array interface.

    import legate_csr as sparse            # in place of: import scipy.sparse as sparse
    A = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    x, info = sparse.linalg.cg(A, b)

Matrices are Legate stores partitioned by rows; their products with cuPyNumeric vectors run
as tasks of the Legate library "legate_csr" on every processor Legate was given. The library
works alone, as any Legate library; with legate-fuse, its tasks take part in the program's
task stream like cuPyNumeric's.
"""

from legate_csr import linalg
from legate_csr.construct import diags
from legate_csr.csr import csr_array, issparse

diags_array = diags

__all__ = ["csr_array", "diags", "diags_array", "issparse", "linalg"]

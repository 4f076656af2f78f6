"""What `csr_array` is given, as the compressed form it keeps (data, indices, indptr and the
shape), and the checks that refuse what does not describe a matrix."""

from __future__ import annotations

from typing import Any

import numpy


def compressed_form(arg1: Any, shape: tuple[int, int] | None) -> tuple[Any, Any, Any,
                                                                        tuple[int, int]]:
    """(data, indices, indptr, shape) of whatever csr_array was given."""
    if hasattr(arg1, "to_scipy"):  # this library's matrix, or its transpose
        arg1 = arg1.to_scipy()
    if hasattr(arg1, "tocsr"):  # a scipy.sparse matrix or array, of any format
        matrix = arg1.tocsr()
        return matrix.data, matrix.indices, matrix.indptr, _shape_of(matrix.shape, shape)
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(
            isinstance(n, (int, numpy.integer)) for n in arg1):
        rows, columns = int(arg1[0]), int(arg1[1])
        return (numpy.zeros(0), numpy.zeros(0, numpy.int64),
                numpy.zeros(rows + 1, numpy.int64), _shape_of((rows, columns), shape))
    if isinstance(arg1, tuple) and len(arg1) == 3:
        data, indices, indptr = (numpy.asarray(part) for part in arg1)
        if shape is None:
            rows = len(indptr) - 1
            columns = int(indices.max()) + 1 if len(indices) else 0
            shape = (rows, columns)
        return data, indices, indptr, _shape_of(shape, None)
    if isinstance(arg1, tuple):
        raise TypeError("legate_csr: csr_array((data, indices, indptr), shape=(M, N)) or "
                        "csr_array((M, N)); COO tuples (data, (row, col)) are not supported")
    dense = numpy.asarray(arg1)
    if dense.ndim != 2:
        raise ValueError(f"legate_csr: a dense matrix must have 2 dimensions, not {dense.ndim}")
    row, column = numpy.nonzero(dense)
    indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(row,
                                                                 minlength=dense.shape[0]))])
    return dense[row, column], column, indptr, _shape_of(dense.shape, shape)


def _shape_of(actual: tuple[int, ...], asked: tuple[int, int] | None) -> tuple[int, int]:
    if len(actual) != 2:
        raise ValueError(f"legate_csr: a matrix has 2 dimensions, not {len(actual)}")
    if asked is not None and tuple(asked) != tuple(actual):
        raise ValueError(f"legate_csr: shape {tuple(asked)} given for a {tuple(actual)} matrix")
    rows, columns = (int(n) for n in actual)
    if rows < 0 or columns < 0:
        raise ValueError(f"legate_csr: negative shape {(rows, columns)}")
    return rows, columns


def check(data: numpy.ndarray[Any, Any], indices: numpy.ndarray[Any, Any],
           indptr: numpy.ndarray[Any, Any], rows: int, columns: int) -> None:
    """Refuses a compressed form that does not describe a rows x columns matrix."""
    if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
        raise ValueError("legate_csr: data, indices and indptr must be 1-D")
    if indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
        raise TypeError("legate_csr: indices and indptr must be integers")
    if len(indptr) != rows + 1:
        raise ValueError(f"legate_csr: indptr has {len(indptr)} entries; a matrix of {rows} "
                         f"rows needs {rows + 1}")
    if len(data) != len(indices):
        raise ValueError(f"legate_csr: {len(data)} values for {len(indices)} indices")
    if indptr[0] != 0 or indptr[-1] != len(indices) or numpy.any(numpy.diff(indptr) < 0):
        raise ValueError("legate_csr: indptr must rise from 0 to the number of elements")
    if len(indices) and (indices.min() < 0 or indices.max() >= columns):
        raise ValueError(f"legate_csr: column indices must lie in [0, {columns})")

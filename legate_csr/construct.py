"""Building matrices: `diags`, as scipy.sparse.diags_array and scipy.sparse.diags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from legate_csr.csr import csr_array


def diags(diagonals: Any, offsets: int | Sequence[int] = 0,
          shape: tuple[int, int] | None = None, format: str | None = None,
          dtype: Any = None) -> csr_array:
    """The matrix with `diagonals[i]` on diagonal `offsets[i]` (0 the main one, k > 0 above
    it, k < 0 below), zero elsewhere; a scalar (or one value) fills its whole diagonal. Zeros
    are not stored, and each row's elements are in column order, as in scipy.sparse's
    `diags(...).tocsr()`."""
    if format not in (None, "csr"):
        raise NotImplementedError(f"legate_csr: only CSR matrices, not format {format!r}")
    if numpy.isscalar(offsets):
        # One diagonal, given alone or as a sequence of one.
        if numpy.ndim(diagonals) == 0 or (len(diagonals) and numpy.ndim(diagonals[0]) == 0):
            diagonals = [diagonals]
        offsets = [int(offsets)]  # type: ignore[arg-type]
    offsets = [int(k) for k in offsets]  # type: ignore[union-attr]
    values = [numpy.atleast_1d(numpy.asarray(d)) for d in diagonals]
    if len(values) != len(offsets):
        raise ValueError(f"legate_csr: {len(values)} diagonals for {len(offsets)} offsets")
    if len(set(offsets)) != len(offsets):
        raise ValueError("legate_csr: an offset is repeated")
    if shape is None:
        size = len(values[0]) + abs(offsets[0])
        shape = (size, size)
    rows, columns = int(shape[0]), int(shape[1])
    all_rows, all_columns, all_values = [], [], []
    for k, value in zip(offsets, values, strict=True):
        length = min(rows + min(k, 0), columns - max(k, 0))
        if length <= 0:
            raise ValueError(f"legate_csr: offset {k} lies outside a {rows} x {columns} matrix")
        if len(value) not in (1, length):
            raise ValueError(f"legate_csr: the diagonal at offset {k} needs {length} values, "
                             f"not {len(value)}")
        first_row = max(-k, 0)
        row = numpy.arange(first_row, first_row + length)
        all_rows.append(row)
        all_columns.append(row + k)
        all_values.append(numpy.broadcast_to(value, (length,)))
    row = numpy.concatenate(all_rows)
    column = numpy.concatenate(all_columns)
    value = numpy.concatenate(all_values)
    if dtype is not None:
        value = value.astype(dtype)
    kept = value != 0
    row, column, value = row[kept], column[kept], value[kept]
    order = numpy.lexsort((column, row))
    indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(row, minlength=rows))])
    return csr_array((value[order], column[order], indptr), shape=(rows, columns))

"""Moving data between NumPy, cuPyNumeric and Legate stores, as the matrix needs it."""

from __future__ import annotations

from typing import Any

import numpy

# The value types the tasks compute in.
VALUE_TYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
# The largest int32: indices as large as this or larger are kept as int64.
INT32_MAX = numpy.iinfo(numpy.int32).max


def value_type(dtype: Any) -> numpy.dtype[Any]:
    """`dtype` as a value type of the tasks; integers and booleans become float64 (as a
    product with them would), anything else is refused."""
    given: numpy.dtype[Any] = numpy.dtype(dtype)
    if given in VALUE_TYPES:
        return given
    if given.kind in "biu":
        return numpy.dtype(numpy.float64)
    raise TypeError(f"legate_csr matrices hold float32 or float64 values, not {given}")


def index_type(rows: int, columns: int, nnz: int) -> numpy.dtype[Any]:
    """The type of a matrix's `indices` and `indptr`: int32 where its shape and its number
    of elements allow, as scipy.sparse keeps them (a product then reads 4 bytes per element's
    column, not 8), else int64."""
    fits = max(rows, columns, nnz) <= INT32_MAX
    return numpy.dtype(numpy.int32 if fits else numpy.int64)


def store_of(array: Any) -> Any:
    """The Legate store of a cuPyNumeric array."""
    (logical_array,) = array.__legate_data_interface__["data"].values()
    return logical_array.data


def owned_array(host: numpy.ndarray[Any, Any]) -> Any:
    """A cuPyNumeric array of `host`'s values in memory Legate allocated. cuPyNumeric makes an
    array of NumPy data over a private copy it attaches, which Legate copies again into an
    instance of its own for every task that reads it (a product read the matrix twice)."""
    import cupynumeric

    return cupynumeric.array(host).copy()


def row_ranges(indptr: numpy.ndarray[Any, Any]) -> tuple[Any, numpy.ndarray[Any, Any]]:
    """A store of one Rect<1> per row ([first, last] of its elements, inclusive), made from
    `indptr`, and the buffer it is attached to, read-only (never written, and read by tasks in
    place), to be kept alive as long as the store."""
    from legate.core import get_legate_runtime, types

    rows = len(indptr) - 1
    ranges = numpy.empty((rows, 2), dtype=numpy.int64)
    ranges[:, 0] = indptr[:-1]
    ranges[:, 1] = indptr[1:] - 1
    store = get_legate_runtime().create_store_from_buffer(types.rect_type(1), (rows,), ranges,
                                                          True)
    return store, ranges

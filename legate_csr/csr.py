"""`csr_array`: a compressed sparse row matrix whose products run as Legate tasks, with the
array interface of scipy.sparse (`scipy.sparse.csr_array`), so that a program changes only its
import.

The matrix keeps its elements as scipy does (`data`, `indices`, `indptr`, here cuPyNumeric
arrays) and, for the tasks, each row's range of elements as a store of rectangles. Vectors in
and out are cuPyNumeric arrays; a product computes each row's sum in storage order from zero,
as scipy does, so that on one processor the result is scipy's bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy

from legate_csr import _library
from legate_csr._compressed import check, compressed_form
from legate_csr._stores import index_type, owned_array, row_ranges, store_of, value_type


def issparse(value: Any) -> bool:
    """Whether `value` is a sparse matrix of this library or of scipy.sparse."""
    return isinstance(value, (csr_array, _Transposed)) or hasattr(value, "tocsr")


class csr_array:
    """A sparse matrix in compressed sparse row form.

    csr_array(S)                          from a scipy.sparse matrix or array (any format), or
                                          another csr_array
    csr_array(D)                          from a dense 2-D array (NumPy or cuPyNumeric)
    csr_array((M, N), dtype=...)          an empty M x N matrix
    csr_array((data, indices, indptr), shape=(M, N))
                                          from the compressed form: row i's values are
                                          data[indptr[i]:indptr[i+1]], in the columns
                                          indices[indptr[i]:indptr[i+1]]
    """

    format = "csr"
    ndim = 2

    def __init__(self, arg1: Any, shape: tuple[int, int] | None = None, dtype: Any = None,
                 copy: bool = False) -> None:
        del copy  # the elements are always copied into Legate's memory
        data, indices, indptr, shape = compressed_form(arg1, shape)
        self._dtype = value_type(data.dtype if dtype is None else dtype)
        rows, columns = shape
        indices = numpy.asarray(indices)
        indptr = numpy.asarray(indptr)
        data = numpy.asarray(data)
        check(data, indices, indptr, rows, columns)
        self._shape = (rows, columns)
        self.data = owned_array(data.astype(self._dtype, copy=False))
        index = index_type(rows, columns, len(indices))
        self.indices = owned_array(indices.astype(index, copy=False))
        self.indptr = owned_array(indptr.astype(index, copy=False))
        self._pos, self._pos_buffer = row_ranges(indptr.astype(numpy.int64, copy=False))
        # Each row's least and greatest column: a product reads `x` through their image.
        self._bounds = _library.column_bounds(self._pos, store_of(self.indices))

    # -- what scipy's arrays tell -----------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self._shape

    @property
    def dtype(self) -> numpy.dtype[Any]:
        return self._dtype

    @property
    def nnz(self) -> int:
        return int(self.indices.shape[0])

    @property
    def size(self) -> int:
        return self.nnz

    def __repr__(self) -> str:
        return (f"<legate_csr.csr_array of dtype {self._dtype} with {self.nnz} stored elements "
                f"and shape {self._shape}>")

    # -- products ---------------------------------------------------------------------------
    def __matmul__(self, other: Any) -> Any:
        return self.dot(other)

    def dot(self, other: Any) -> Any:
        """A @ x for a vector x of length N (a vector of length M), or a dense N x K matrix
        (an M x K one, column by column)."""
        return _product(self, other, transposed=False)

    def __mul__(self, other: Any) -> Any:
        if numpy.isscalar(other):
            return self._with_data(self.data * other)
        raise TypeError("legate_csr: `*` multiplies by a scalar only; use @ for products")

    __rmul__ = __mul__

    def __neg__(self) -> csr_array:
        return self._with_data(-self.data)

    @property
    def T(self) -> _Transposed:
        return self.transpose()

    def transpose(self) -> _Transposed:
        """The transpose, for products (`A.T @ x`) and conversion back to compressed rows."""
        return _Transposed(self)

    def diagonal(self, k: int = 0) -> Any:
        """The main diagonal (k = 0), as a cuPyNumeric array of length min(M, N)."""
        import cupynumeric

        if k != 0:
            raise NotImplementedError("legate_csr: only the main diagonal (k=0)")
        rows, columns = self._shape
        length = min(rows, columns)
        if length == 0 or self.nnz == 0:
            return cupynumeric.zeros(length, dtype=self._dtype)
        out = cupynumeric.empty(rows, dtype=self._dtype)
        _library.diagonal(store_of(out), self._pos, store_of(self.indices), store_of(self.data))
        return out[:length]

    # -- conversions ------------------------------------------------------------------------
    def tocsr(self, copy: bool = False) -> csr_array:
        return self._with_data(self.data.copy()) if copy else self

    def astype(self, dtype: Any) -> csr_array:
        dtype = value_type(dtype)
        return self if dtype == self._dtype else self._with_data(self.data.astype(dtype))

    def to_scipy(self) -> Any:
        """The same matrix as a scipy.sparse.csr_array (elements in the same order)."""
        import scipy.sparse  # type: ignore[import-untyped]

        return scipy.sparse.csr_array(
            (numpy.asarray(self.data), numpy.asarray(self.indices), numpy.asarray(self.indptr)),
            shape=self._shape)

    def toarray(self) -> numpy.ndarray[Any, Any]:
        """The matrix as a dense NumPy array (duplicates summed)."""
        dense = numpy.zeros(self._shape, dtype=self._dtype)
        indptr = numpy.asarray(self.indptr)
        rows = numpy.repeat(numpy.arange(self._shape[0]), numpy.diff(indptr))
        numpy.add.at(dense, (rows, numpy.asarray(self.indices)), numpy.asarray(self.data))
        return dense

    def _with_data(self, data: Any) -> csr_array:
        """This matrix's sparsity with other values (shares its index arrays)."""
        other = object.__new__(csr_array)
        other._shape, other._dtype = self._shape, value_type(data.dtype)
        other.data, other.indices, other.indptr = data, self.indices, self.indptr
        other._pos, other._pos_buffer = self._pos, self._pos_buffer
        other._bounds = self._bounds
        return other


class _Transposed:
    """A.T: products with the transpose, without building it."""

    format = "csr"
    ndim = 2

    def __init__(self, matrix: csr_array) -> None:
        self._matrix = matrix

    @property
    def shape(self) -> tuple[int, int]:
        rows, columns = self._matrix.shape
        return columns, rows

    @property
    def dtype(self) -> numpy.dtype[Any]:
        return self._matrix.dtype

    @property
    def nnz(self) -> int:
        return self._matrix.nnz

    @property
    def T(self) -> csr_array:
        return self._matrix

    def transpose(self) -> csr_array:
        return self._matrix

    def __matmul__(self, other: Any) -> Any:
        return self.dot(other)

    def dot(self, other: Any) -> Any:
        return _product(self._matrix, other, transposed=True)

    def diagonal(self, k: int = 0) -> Any:
        return self._matrix.diagonal(-k) if k else self._matrix.diagonal()

    def tocsr(self, copy: bool = False) -> csr_array:
        """The transpose in compressed rows (built on the host)."""
        del copy
        return csr_array(self._matrix.to_scipy().T.tocsr())

    def to_scipy(self) -> Any:
        return self._matrix.to_scipy().T

    def toarray(self) -> numpy.ndarray[Any, Any]:
        return self._matrix.toarray().T


def _product(matrix: csr_array, other: Any, transposed: bool) -> Any:
    """matrix @ other (matrix.T @ other if `transposed`), for a vector or a dense matrix."""
    import cupynumeric

    if issparse(other):
        raise NotImplementedError("legate_csr: products of two sparse matrices")
    x = cupynumeric.asarray(other)
    rows, columns = matrix.shape
    inner, outer = (rows, columns) if transposed else (columns, rows)
    if x.ndim == 2:
        if x.shape[0] != inner:
            raise ValueError(f"dimension mismatch: {_shape_text(matrix, transposed)} @ "
                             f"{x.shape}")
        return cupynumeric.stack([_product(matrix, x[:, k], transposed)
                                  for k in range(x.shape[1])], axis=1)
    if x.ndim != 1 or x.shape[0] != inner:
        raise ValueError(f"dimension mismatch: {_shape_text(matrix, transposed)} @ {x.shape}")
    dtype = value_type(numpy.result_type(matrix.dtype, x.dtype))
    matrix = matrix.astype(dtype)
    x = x.astype(dtype, copy=False)
    if store_of(x).transformed:  # a view (a column, a strided slice): read through its image
        x = x.copy()  # only as a store of its own
    if matrix.nnz == 0 or inner == 0:
        return cupynumeric.zeros(outer, dtype=dtype)
    if transposed:
        y = cupynumeric.zeros(outer, dtype=dtype)
        _library.multiply_transposed(store_of(y), matrix._pos, store_of(matrix.indices),
                                     store_of(matrix.data), store_of(x))
    else:
        y = cupynumeric.empty(outer, dtype=dtype)
        _library.multiply(store_of(y), matrix._pos, store_of(matrix.indices),
                          store_of(matrix.data), store_of(x), matrix._bounds)
    return y


def _shape_text(matrix: csr_array, transposed: bool) -> str:
    rows, columns = matrix.shape
    return f"{(columns, rows) if transposed else (rows, columns)}"

"""legate_csr against scipy.sparse: every operation on matrices of each shape and type that
matter (rectangular, empty rows, 1 x 1, no stored element, duplicates, unsorted and explicit
zero elements), and the errors for what is not a matrix. In this process Legate has one CPU: a
product sums each row in scipy's order, so its results are scipy's bit for bit."""

from __future__ import annotations

from typing import Any

import cupynumeric as cn
import numpy
import pytest
import scipy.sparse as sp

import legate_csr

DTYPES = (numpy.float32, numpy.float64)


def random_matrix(rows: int, columns: int, density: float, dtype: Any, seed: int) -> Any:
    return sp.random_array((rows, columns), density=density, format="csr", dtype=dtype,
                           rng=numpy.random.default_rng(seed))


def matrices(dtype: Any) -> dict[str, Any]:
    """scipy matrices in compressed rows, each a case of its own."""
    with_duplicates = sp.csr_array(
        (numpy.array([1.0, 2.0, 3.0, 4.0, 5.0], dtype=dtype), numpy.array([0, 2, 0, 1, 1]),
         numpy.array([0, 3, 3, 5])), shape=(3, 4))  # row 0: column 0 (its diagonal) twice,
    # unsorted; row 1 empty; row 2: column 1 twice
    return {
        "random": random_matrix(40, 30, 0.2, dtype, 1),
        "tall": random_matrix(200, 7, 0.3, dtype, 2),
        "wide": random_matrix(5, 300, 0.1, dtype, 3),
        "empty rows": random_matrix(50, 50, 0.01, dtype, 4),
        "one by one": sp.csr_array(numpy.array([[3.0]], dtype=dtype)),
        "no elements": sp.csr_array((6, 4), dtype=dtype),
        "duplicates and unsorted": with_duplicates,
        "explicit zero": sp.csr_array((numpy.array([0.0, 2.0], dtype=dtype),
                                       numpy.array([1, 0]), numpy.array([0, 2])),
                                      shape=(1, 2)),
    }


def vector(length: int, dtype: Any, seed: int = 7) -> numpy.ndarray[Any, Any]:
    return numpy.random.default_rng(seed).normal(size=length).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_products_equal_scipys(dtype: Any) -> None:
    for name, reference in matrices(dtype).items():
        matrix = legate_csr.csr_array(reference)
        rows, columns = reference.shape
        x, xt = vector(columns, dtype), vector(rows, dtype, 8)
        got = numpy.asarray(matrix @ cn.array(x))
        assert got.dtype == dtype, name
        numpy.testing.assert_array_equal(got, reference @ x, err_msg=name)
        numpy.testing.assert_array_equal(numpy.asarray(matrix.dot(cn.array(x))), reference @ x,
                                         err_msg=name)
        numpy.testing.assert_array_equal(numpy.asarray(matrix.T @ cn.array(xt)),
                                         reference.T @ xt, err_msg=name)
        block = numpy.stack([x, 2 * x, -x], axis=1)
        numpy.testing.assert_array_equal(numpy.asarray(matrix @ cn.array(block)),
                                         reference @ block, err_msg=name)


@pytest.mark.parametrize("dtype", DTYPES)
def test_what_the_matrix_tells_equals_scipy(dtype: Any) -> None:
    for name, reference in matrices(dtype).items():
        matrix = legate_csr.csr_array(reference)
        assert matrix.shape == reference.shape and matrix.nnz == reference.nnz, name
        assert matrix.dtype == dtype and matrix.T.shape == reference.T.shape, name
        numpy.testing.assert_array_equal(numpy.asarray(matrix.diagonal()),
                                         reference.diagonal(), err_msg=name)
        numpy.testing.assert_array_equal(matrix.toarray(), reference.toarray(), err_msg=name)
        back = matrix.to_scipy()
        for part in ("data", "indices", "indptr"):
            numpy.testing.assert_array_equal(getattr(back, part), getattr(reference, part),
                                             err_msg=f"{name}: {part}")
        # Indices as scipy keeps them: 4 bytes where they fit (a product reads fewer bytes).
        assert matrix.indices.dtype == matrix.indptr.dtype == numpy.int32, name
        numpy.testing.assert_array_equal(matrix.T.tocsr().toarray(), reference.T.toarray(),
                                         err_msg=name)


def test_a_product_with_a_vector_of_another_type_computes_in_the_wider() -> None:
    reference = random_matrix(20, 10, 0.5, numpy.float32, 5)
    x = vector(10, numpy.float64)
    got = numpy.asarray(legate_csr.csr_array(reference) @ cn.array(x))
    assert got.dtype == numpy.float64
    numpy.testing.assert_array_equal(got, reference.astype(numpy.float64) @ x)


def test_constructors() -> None:
    dense = numpy.array([[0.0, 1.5, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -1.0]])
    reference = sp.csr_array(dense)
    for made in (legate_csr.csr_array(dense), legate_csr.csr_array(cn.array(dense)),
                 legate_csr.csr_array(sp.coo_array(dense)),
                 legate_csr.csr_array(sp.csc_array(dense)),
                 legate_csr.csr_array((reference.data, reference.indices, reference.indptr),
                                      shape=(3, 3)),
                 legate_csr.csr_array(legate_csr.csr_array(dense))):
        numpy.testing.assert_array_equal(made.toarray(), dense)
        assert made.shape == (3, 3) and made.nnz == 3
    empty = legate_csr.csr_array((4, 5), dtype=numpy.float32)
    assert empty.shape == (4, 5) and empty.nnz == 0 and empty.dtype == numpy.float32
    numpy.testing.assert_array_equal(numpy.asarray(empty @ cn.ones(5, dtype=numpy.float32)),
                                     numpy.zeros(4, dtype=numpy.float32))
    integers = legate_csr.csr_array(numpy.array([[1, 0], [0, 2]]))
    assert integers.dtype == numpy.float64  # values become float64, as a product's would


def test_columns_beyond_int32_are_kept_as_int64() -> None:
    """A matrix with more columns than int32 holds keeps int64 indices, and its tasks read
    them as such."""
    columns = 2**31 + 10
    matrix = legate_csr.csr_array((numpy.array([1.0, 2.0, 3.0]),
                                   numpy.array([0, 2**31 + 5, 2]), numpy.array([0, 2, 2, 3])),
                                  shape=(3, columns))
    assert matrix.indices.dtype == matrix.indptr.dtype == numpy.int64
    numpy.testing.assert_array_equal(numpy.asarray(matrix.diagonal()), [1.0, 0.0, 3.0])
    numpy.testing.assert_array_equal(numpy.asarray(matrix.to_scipy().indices),
                                     [0, 2**31 + 5, 2])


def test_diags_equals_scipys() -> None:
    cases = [
        (([-1.0, 2.0, -1.0], [-1, 0, 1]), {"shape": (7, 7)}),
        (([1.0, 2.0], [0, 3]), {"shape": (4, 6)}),
        (([numpy.arange(1.0, 5.0)], [0]), {}),
        ((numpy.arange(1.0, 4.0), 1), {}),
        (([3.0, 0.0], [0, -2]), {"shape": (5, 5)}),  # a diagonal of zeros: nothing stored
    ]
    for args, kwargs in cases:
        reference = sp.diags(*args, **kwargs).tocsr()
        made = legate_csr.diags(*args, **kwargs)
        assert made.shape == reference.shape, args
        for part in ("data", "indices", "indptr"):
            numpy.testing.assert_array_equal(numpy.asarray(getattr(made, part)),
                                             getattr(reference, part), err_msg=f"{args}")


@pytest.mark.parametrize(("make", "error"), [
    (lambda: legate_csr.csr_array(([1.0], [0], [0, 1, 1]), shape=(1, 2)), ValueError),
    (lambda: legate_csr.csr_array(([1.0, 2.0], [0, 1], [0, 2, 1]), shape=(2, 2)), ValueError),
    (lambda: legate_csr.csr_array(([1.0], [3], [0, 1]), shape=(1, 3)), ValueError),
    (lambda: legate_csr.csr_array(([1.0], [-1], [0, 1]), shape=(1, 3)), ValueError),
    (lambda: legate_csr.csr_array(([1.0, 2.0], [0], [0, 1]), shape=(1, 3)), ValueError),
    (lambda: legate_csr.csr_array(numpy.eye(2, dtype=numpy.complex128)), TypeError),
    (lambda: legate_csr.csr_array(numpy.ones(3)), ValueError),
    (lambda: legate_csr.csr_array(numpy.eye(3), shape=(3, 4)), ValueError),
    (lambda: legate_csr.csr_array(([1.0], ([0], [0])), shape=(1, 1)), TypeError),
    (lambda: legate_csr.csr_array(numpy.eye(3)) @ cn.ones(4), ValueError),
    (lambda: legate_csr.csr_array(numpy.eye(3)).T @ cn.ones(2), ValueError),
    (lambda: legate_csr.csr_array(numpy.eye(3)) @ cn.ones((3, 3, 3)), ValueError),
    (lambda: legate_csr.csr_array(numpy.eye(3)) @ legate_csr.csr_array(numpy.eye(3)),
     NotImplementedError),
    (lambda: legate_csr.diags([1.0, 2.0], [0, 0], shape=(3, 3)), ValueError),
    (lambda: legate_csr.diags([[1.0, 2.0]], [0], shape=(3, 3)), ValueError),
    (lambda: legate_csr.diags([1.0], [5], shape=(3, 3)), ValueError),
])
def test_what_is_not_a_matrix_is_refused_clearly(make: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match=r"legate_csr|dimension mismatch"):
        make()


def poisson(n: int, dims: int) -> Any:
    line = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    matrix = line
    for _ in range(dims - 1):
        size = matrix.shape[0]
        matrix = (sp.kron(matrix, sp.identity(n)) + sp.kron(sp.identity(size), line))
    return sp.csr_array(matrix)


@pytest.mark.parametrize(("dims", "jacobi"), [(2, False), (3, False), (2, True), (3, True)])
def test_cg_follows_scipys(dims: int, jacobi: bool) -> None:
    import scipy.sparse.linalg as spla

    reference = poisson(12 if dims == 2 else 6, dims)
    b = vector(reference.shape[0], numpy.float64, 11)
    matrix = legate_csr.csr_array(reference)
    steps: dict[str, int] = {"ours": 0, "scipy": 0}

    def counting(which: str) -> Any:
        def count(_: Any) -> None:
            steps[which] += 1
        return count

    if jacobi:
        ours_m = legate_csr.diags(1.0 / numpy.asarray(matrix.diagonal()), 0,
                                  shape=reference.shape)
        scipy_m = sp.diags(1.0 / reference.diagonal(), 0)
    else:
        ours_m = scipy_m = None
    x, info = legate_csr.linalg.cg(matrix, cn.array(b), rtol=1e-10, M=ours_m,
                                   callback=counting("ours"))
    want, want_info = spla.cg(reference, b, rtol=1e-10, M=scipy_m, callback=counting("scipy"))
    assert info == want_info == 0
    assert steps["ours"] == steps["scipy"] > 3
    numpy.testing.assert_allclose(numpy.asarray(x), want, rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(reference @ numpy.asarray(x), b, atol=1e-8)


def test_cg_stops_at_maxiter_and_accepts_a_start() -> None:
    reference = poisson(10, 2)
    b = numpy.ones(reference.shape[0])
    matrix = legate_csr.csr_array(reference)
    _, info = legate_csr.linalg.cg(matrix, cn.array(b), maxiter=2, rtol=1e-12)
    assert info == 2
    x, info = legate_csr.linalg.cg(matrix, cn.array(b), x0=cn.ones(reference.shape[0]),
                                   rtol=1e-10)
    assert info == 0
    numpy.testing.assert_allclose(reference @ numpy.asarray(x), b, atol=1e-8)
    with pytest.raises(ValueError, match="cg"):
        legate_csr.linalg.cg(matrix, cn.ones(3))

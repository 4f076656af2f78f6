"""One-element results held in Futures. Legate packs the Futures a fused task returns into one,
and a fill whose value is any but the first of them reads the first: the runtime proxy fills
with their values instead (see legate_fuse/capture/packed_futures.py)."""

from __future__ import annotations

import cupynumeric as num
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session


def test_a_fill_from_the_second_reduction_of_a_window(session: Session) -> None:
    a = num.array(numpy.array([1.0, 2.0, 4.0])) * 1.0
    total = num.sum(a)
    product = num.prod(a)
    target = num.zeros((1,))
    target[()] = product  # a fill whose value is the Future of `product`
    assert numpy.asarray(target)[0] == 8.0
    assert float(total) == 7.0


def test_a_fill_from_a_packed_bool_future(session: Session) -> None:
    # Legate's Scalar refuses NumPy's bool scalar: the proxy fills with the value as a 0-d
    # array (found by the fuzzer through matmul, whose operand copies no longer take this path).
    flags = num.array(numpy.array([True, False, True]))
    legate_fuse.flush()
    launches = session.stats.fused_launches
    some = num.any(flags)
    every = num.all(flags)  # fused with `some`: one task returning both, packed
    target = num.zeros((1,), dtype=bool)
    target[()] = every  # a fill whose value is the second of them
    assert session.stats.fused_launches > launches
    assert not numpy.asarray(target)[0]
    assert bool(some)


def test_one_element_arithmetic_copied_into_an_array(session: Session) -> None:
    ends = num.sort(num.array(numpy.array([1, 2])))
    low = ends.take(0, 0).reshape((1,))
    high = ends.take(1, 0).reshape((1,))
    left = 0.5 * low
    right = 0.25 * high
    target = num.zeros((1,))
    target[()] = left + right
    assert numpy.asarray(target)[0] == 1.0
    assert float(left[0]) == 0.5 and float(right[0]) == 0.5


@pytest.mark.parametrize("shape", [(2,), (1, 2), (2, 3), (3, 1, 2)])
def test_median_along_each_axis(session: Session, shape: tuple[int, ...]) -> None:
    values = numpy.arange(1, numpy.prod(shape) + 1).reshape(shape)
    array = num.array(values)
    for axis in range(len(shape)):
        for keepdims in (False, True):
            numpy.testing.assert_array_equal(
                numpy.asarray(num.median(array, axis=axis, keepdims=keepdims)),
                numpy.median(values, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_a_one_element_result_of_every_dtype_copied(session: Session, dtype: str) -> None:
    # Found by the fuzzer: matmul copies its one-element operand (a fill from the Future a
    # fused task returned with another); Legate's Scalar refused NumPy's bool scalar.
    a = num.array(numpy.array([1, 0], dtype=dtype))
    b = num.absolute(a[:1])
    c = num.absolute(a[1:])  # a fused task with two one-element outputs
    product = b.reshape(1, 1) @ c.reshape(1, 1)
    want = numpy.array([[1]], dtype=dtype) @ numpy.array([[0]], dtype=dtype)
    numpy.testing.assert_array_equal(numpy.asarray(product), want)


def test_a_value_read_through_two_views_in_one_group(session: Session,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # The Python scalar 2 is one cached Future, read as a 0-d value by its conversion to
    # float64 and promoted to the array's shape by `|=`: the analysis takes every view of a
    # Future as one store, and so must the kernel's arguments (the group fell back, warning).
    warnings: list[str] = []
    monkeypatch.setattr(session.fuser(), "warn", warnings.append)
    values = numpy.linspace(-3.0, 3.0, 256)
    floats = num.array(values) * 1.0
    ints = num.array(numpy.arange(256, dtype=numpy.int64)) * 1
    legate_fuse.flush()
    launches = session.stats.fused_launches
    halves = floats // 2
    ints |= 2
    legate_fuse.flush()
    assert warnings == []
    assert session.stats.fused_launches > launches
    numpy.testing.assert_array_equal(numpy.asarray(halves), values // 2)
    numpy.testing.assert_array_equal(numpy.asarray(ints), numpy.arange(256) | 2)

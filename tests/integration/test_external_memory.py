"""Results written into memory the program owns (NumPy arrays passed as `out=`, NumPy arrays
shared with `asarray`) are there when cuPyNumeric returns: NumPy then reads its own memory
without calling anyone, so no task writing it may still be held."""

from __future__ import annotations

import cupynumeric as num
import numpy

import legate_fuse
from legate_fuse.session import Session
from legate_fuse.window.liveness import root_key


def owned(values: numpy.ndarray) -> num.ndarray:
    """A cuPyNumeric array computed by a task from `values` (Legate's own memory)."""
    return num.array(values) * 1


def test_a_ufunc_into_a_numpy_out(session: Session) -> None:
    a = owned(numpy.arange(1, 21, dtype=numpy.uint32).reshape(4, 5))
    out = numpy.ones((4, 5))
    num.add(a, 1.0, out=out)
    assert out.sum() == 230.0


def test_a_chain_ending_in_a_numpy_out(session: Session) -> None:
    a = owned(numpy.linspace(0.0, 1.0, 300))
    out = numpy.zeros(300)
    num.multiply(a * 2.0 + 1.0, 3.0, out=out)
    numpy.testing.assert_array_equal(out, (numpy.linspace(0.0, 1.0, 300) * 2.0 + 1.0) * 3.0)


def test_round_into_a_numpy_out(session: Session) -> None:
    x = owned(numpy.linspace(-3.0, 3.0, 50))
    out = numpy.zeros(50)
    num.round(x * 1.37, 1, out=out)
    numpy.testing.assert_array_equal(out, numpy.round(numpy.linspace(-3.0, 3.0, 50) * 1.37, 1))


def test_numpy_in_place_operator_with_a_cupynumeric_operand(session: Session) -> None:
    host = numpy.arange(10.0)
    host *= owned(numpy.full(10, 2.0))  # NumPy forwards to cuPyNumeric with out=host
    numpy.testing.assert_array_equal(host, numpy.arange(10.0) * 2.0)


def test_writes_through_a_slice_of_a_shared_array(session: Session) -> None:
    host = numpy.arange(12.0)
    shared = num.asarray(host)
    shared[2:5] = 7.0
    numpy.testing.assert_array_equal(host[2:5], [7.0, 7.0, 7.0])
    shared[6:9] = owned(numpy.full(3, 0.5)) * 4.0
    numpy.testing.assert_array_equal(host[6:9], [2.0, 2.0, 2.0])


def test_a_reduction_into_a_numpy_out(session: Session) -> None:
    a = owned(numpy.arange(20.0).reshape(4, 5))
    out = numpy.zeros(5)
    num.sum(a * 2.0, axis=0, out=out)
    numpy.testing.assert_array_equal(out, (numpy.arange(20.0).reshape(4, 5) * 2.0).sum(axis=0))


def test_a_write_to_numpy_memory_flushes(session: Session) -> None:
    a = owned(numpy.arange(8.0))
    before = session.stats.flushes["external_write"]
    num.add(a, 1.0, out=numpy.zeros(8))
    assert session.stats.flushes["external_write"] == before + 1
    b = a + 1.0  # into Legate's own memory: held
    assert len(session.window) > 0
    del b


def test_writes_into_a_private_copy_of_numpy_data_are_held(session: Session) -> None:
    host = numpy.arange(8.0)
    x = num.array(host)  # cuPyNumeric attaches a copy that NumPy never sees
    x += 1.0
    assert len(session.window) > 0
    numpy.testing.assert_array_equal(numpy.asarray(x), host + 1.0)
    numpy.testing.assert_array_equal(host, numpy.arange(8.0))


def test_a_numpy_view_of_an_array_sees_later_writes(session: Session) -> None:
    x = owned(numpy.arange(6.0))
    view = numpy.asarray(x)  # NumPy's view of the store's own allocation
    x += 1.0
    x[0] = 10.0
    numpy.testing.assert_array_equal(view, [10.0, 2.0, 3.0, 4.0, 5.0, 6.0])


def test_a_flat_iterator_sees_a_later_element_write(session: Session) -> None:
    a = owned(numpy.arange(6).reshape(2, 3))
    iterators = num.broadcast(a, owned(numpy.arange(3))).iters
    a[0, 0] = 7
    assert iterators[0][0] == 7


def test_writes_to_an_array_exported_through_dlpack_run_at_once(session: Session) -> None:
    a = owned(numpy.arange(64.0))
    consumer = numpy.from_dlpack(a)  # sees the store's memory; cannot be watched
    before = session.stats.flushes["external_write"]
    a += 1.0
    assert session.stats.flushes["external_write"] == before + 1
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(64.0) + 1.0)
    del consumer


def test_a_dead_exported_array_does_not_make_later_arrays_flush(session: Session) -> None:
    a = owned(numpy.arange(64.0))
    numpy.from_dlpack(a).copy()
    del a
    for _ in range(3):  # later arrays of the same shape may reuse its storage
        b = owned(numpy.zeros(64))
        b += 2.0
        assert len(session.window) > 0
        legate_fuse.flush()


def test_arrays_made_over_the_field_of_a_numpy_out_are_held(session: Session) -> None:
    """cuPyNumeric lets go of the store over a NumPy `out=` array when the call returns, and
    Legate gives its field to a later store of the shape: an array made there has memory of
    its own, so the tasks writing it are held while the NumPy array lives."""
    # Of a length no other test uses: no field of that shape freed before is ahead of the NumPy
    # array's in Legate's queue, nor a store of it kept by the plugin (how many there were
    # depended on the tests run before in the process).
    n = 83
    a = owned(numpy.arange(float(n)))
    host = numpy.zeros(n)
    num.add(a, 1.0, out=host)
    noted = set(session.external._buffers)
    flushes = session.stats.flushes["external_write"]
    # Each kept, so that no field the loop frees comes before it either.
    made = []
    for i in range(8):
        made.append(a * 2.0)
        made.append(made[-1] + i)
        assert len(session.window) > 0
        if any(root_key(b._thunk.base) in noted for b in made[-2:]):
            break
    else:
        raise AssertionError("no array was given the NumPy array's field: nothing tested")
    assert session.stats.flushes["external_write"] == flushes
    for i in range(len(made) // 2):
        numpy.testing.assert_array_equal(numpy.asarray(made[2 * i]), numpy.arange(float(n)) * 2.0)
        numpy.testing.assert_array_equal(numpy.asarray(made[2 * i + 1]),
                                         numpy.arange(float(n)) * 2.0 + i)
    numpy.testing.assert_array_equal(host, numpy.arange(float(n)) + 1.0)

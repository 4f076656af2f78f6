"""Result comparison shared by the integration tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy

import legate_fuse

# Fused reductions accumulate in another order than cuPyNumeric's own kernels (which may call
# BLAS): float64 reduction results agree to this relative tolerance, float32 ones to
# FLOAT32_REDUCTION_RTOL. Everything element-wise must agree bit for bit.
REDUCTION_RTOL = 1e-12
FLOAT32_REDUCTION_RTOL = 1e-5


# Names of results (`<program>.<name>`) whose elements are reductions along an axis of floats:
# each is summed in the order of its point task's block, and with several processors the fused
# task may be partitioned unlike cuPyNumeric's own, so they agree within REDUCTION_RTOL.
AXIS_REDUCED_SUFFIX = "_reduced"


def assert_identical(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Bitwise equality (same dtype, same bits, NaNs in the same places) of element-wise
    results; reduction results (0-d floating-point arrays, Python floats and arrays named
    ...AXIS_REDUCED_SUFFIX) within REDUCTION_RTOL."""
    assert got.keys() == want.keys()
    for name, value in want.items():
        if isinstance(value, numpy.ndarray):
            assert got[name].dtype == value.dtype, name
            assert got[name].shape == value.shape, name
            reduced = value.ndim == 0 or name.endswith(AXIS_REDUCED_SUFFIX)
            if reduced and value.dtype.kind == "f":
                rtol = FLOAT32_REDUCTION_RTOL if value.dtype == numpy.float32 else REDUCTION_RTOL
                numpy.testing.assert_allclose(got[name], value, rtol=rtol, err_msg=name)
            else:
                assert got[name].tobytes() == value.tobytes(), name
        elif isinstance(value, float):
            assert abs(got[name] - value) <= REDUCTION_RTOL * abs(value), name
        else:
            assert got[name] == value, name


def assert_close(got: dict[str, Any], want: dict[str, Any], rtol: float = 1e-12) -> None:
    """Equal to NumPy up to the reassociation of floating-point reductions."""
    assert got.keys() == want.keys()
    for name, value in want.items():
        if isinstance(value, numpy.ndarray) and value.dtype.kind in "fc":
            numpy.testing.assert_allclose(got[name], value, rtol=rtol, atol=0, err_msg=name)
        elif isinstance(value, numpy.ndarray):
            numpy.testing.assert_array_equal(got[name], value, err_msg=name)
        elif isinstance(value, float):
            assert abs(got[name] - value) <= rtol * abs(value), name
        else:
            assert got[name] == value, name


def fused_launches() -> int:
    """Fused tasks launched in this process so far."""
    return int(legate_fuse.stats()["fused_launches"])


@contextmanager
def expect_fusion(expected: bool = True) -> Iterator[None]:
    """Around the fused run of a comparison of fusion on against off: asserts that it launched
    a fused task (what it still holds at the end runs first). Equal results prove nothing if
    nothing was fused: a kill switch firing by mistake turns fusion off and every comparison
    still passes. `expected=False` only for a program with nothing to fuse, saying why."""
    before = fused_launches()
    yield
    legate_fuse.flush()
    if expected:
        assert fused_launches() > before, "nothing was fused: the comparison proves nothing"


def run_both(program: Callable[[], list[Any]], fuses: bool = True) -> list[numpy.ndarray]:
    """The program's values with fusion on, checked bit for bit (dtype, shape and bits) against
    fusion off, and that the fused run launched a fused task (`fuses=False` only for a program
    with nothing to fuse)."""
    legate_fuse.flush()
    with expect_fusion(fuses):
        fused = [numpy.asarray(v).copy() for v in program()]
    legate_fuse.disable()
    try:
        unfused = [numpy.asarray(v).copy() for v in program()]
    finally:
        legate_fuse.enable()
    for a, b in zip(fused, unfused, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
    return fused

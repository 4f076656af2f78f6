"""Result comparison shared by the integration tests."""

from __future__ import annotations

from typing import Any

import numpy


def assert_identical(got: dict[str, Any], want: dict[str, Any]) -> None:
    """Bitwise equality (same dtype, same bits, NaNs in the same places)."""
    assert got.keys() == want.keys()
    for name, value in want.items():
        if isinstance(value, numpy.ndarray):
            assert got[name].dtype == value.dtype, name
            assert got[name].shape == value.shape, name
            assert got[name].tobytes() == value.tobytes(), name
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

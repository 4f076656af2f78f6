"""Every NumPy function the plugin fuses, fused (followed by an addition, so that it joins a
group) against unfused, bit for bit, on 20,000 values in float32 and float64: a generated kernel
must compute each function the way cuPyNumeric's task does (found by the fuzzer: cuPyNumeric
raises float32 to a power in double precision, a kernel calling powf differed in 7 values)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session

UNARY = ["exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "sinh", "cosh", "arcsin", "arccos",
         "arctan", "arcsinh", "arctanh", "expm1", "log1p", "log2", "log10", "exp2", "cbrt",
         "floor", "ceil", "rint", "trunc", "absolute", "square", "reciprocal", "sign"]
BINARY = ["power", "float_power", "arctan2", "hypot", "copysign", "fmod", "remainder",
          "floor_divide", "true_divide", "maximum", "minimum", "fmax", "fmin"]


def computed(function: Callable[[Any, Any], Any], dtype: str) -> numpy.ndarray:
    rng = numpy.random.default_rng(0)
    x = cn.array((rng.random(20_000) * 4 - 2).astype(dtype))
    y = cn.array((rng.random(20_000) * 4 - 2).astype(dtype))
    legate_fuse.flush()
    result = function(x, y) + cn.asarray(numpy.zeros((), dtype=dtype))
    return numpy.asarray(result).copy()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", UNARY + BINARY)
def test_function_fused_equals_unfused(session: Session, name: str, dtype: str) -> None:
    fn = getattr(cn, name)
    function = (lambda x, y: fn(x)) if name in UNARY else (lambda x, y: fn(x, y))
    launches = legate_fuse.stats()["fused_launches"]
    fused = computed(function, dtype)
    assert legate_fuse.stats()["fused_launches"] > launches  # it did fuse
    legate_fuse.disable()
    try:
        unfused = computed(function, dtype)
    finally:
        legate_fuse.enable()
    assert fused.dtype == unfused.dtype
    assert fused.tobytes() == unfused.tobytes()

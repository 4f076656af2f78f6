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


def assert_fused_function_equals_unfused(fn: Callable[..., Any], *hosts: numpy.ndarray) -> None:
    """`fn(x, ...) * 1 + 0` of the values `hosts` fused (a group, so that its kernel runs) and
    unfused: the same dtype and bits."""
    host = hosts[0]
    one = numpy.ones((), dtype=host.dtype)

    def computed() -> numpy.ndarray:
        arrays = [cn.array(h) for h in hosts]
        legate_fuse.flush()
        return numpy.asarray(fn(*arrays) * one + 0 * one).copy()

    launches = legate_fuse.stats()["fused_launches"]
    fused = computed()
    assert legate_fuse.stats()["fused_launches"] > launches
    legate_fuse.disable()
    try:
        unfused = computed()
    finally:
        legate_fuse.enable()
    assert fused.dtype == host.dtype
    assert fused.tobytes() == unfused.tobytes()


def every_kind_of_value(dtype: str, size: int) -> numpy.ndarray:
    """Values on every path of the C library's exp and log: random bit patterns (NaNs of both
    signs, infinities, subnormals, negatives), every exponent, values near 1 on both sides of
    log's bounds, and the edges themselves, shuffled so that most tiles of a staged loop hold
    a value off the vector forms' common path and some hold none."""
    rng = numpy.random.default_rng(7)
    info = numpy.finfo(dtype)
    unsigned = numpy.uint64 if dtype == "float64" else numpy.uint32
    low, high = numpy.log(info.smallest_subnormal) - 1, numpy.log(info.max) + 1
    edges = ["0x1.ep-1", "0x1.dffffffffffffp-1", "0x1.109p0", "0x1.108ffffffffffp0"]
    parts = [
        rng.integers(0, numpy.iinfo(unsigned).max, size // 4, dtype=unsigned).view(dtype),
        numpy.exp(rng.uniform(low, high, size // 4)).astype(dtype),
        rng.uniform(0.9, 1.1, size // 4).astype(dtype),
        (1.0 + rng.uniform(-1e-6, 1e-6, size // 8)).astype(dtype),
        numpy.array([0.0, -0.0, 1.0, -1.0, info.smallest_subnormal, info.tiny, numpy.inf,
                     -numpy.inf, numpy.nan, -numpy.nan, 88.0, -88.0, 87.9, -103.9, 709.78,
                     -745.13, info.max, *(float.fromhex(h) for h in edges)]).astype(dtype),
    ]
    values = numpy.concatenate(parts)
    ordered = rng.uniform(0.5, 3.0, size - values.size).astype(dtype)  # tiles of common values
    return numpy.concatenate([values[rng.permutation(values.size)], ordered])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["exp", "log"])
def test_vector_forms_equal_the_unfused_tasks_on_every_kind_of_value(
    session: Session, name: str, dtype: str
) -> None:
    """exp and log, whose kernels use the vector forms that round as the C library
    (codegen/c_vector_math.h) where this machine's check passed, and the library's function on
    the rest: bit for bit cuPyNumeric's, NaN signs included (its float64 log of a negative
    number is a positive NaN)."""
    host = every_kind_of_value(dtype, 40_000)
    assert_fused_function_equals_unfused(getattr(cn, name), host)


def values_for_fdlibm_forms(size: int) -> numpy.ndarray:
    """Values on every path of glibc's float64 expm1, tanh and log1p: each argument reduction
    of expm1 (|x| below ln2 / 2, to 3 ln2 / 2, beyond) and each of its formulas (k up to 19,
    from 20, far below zero), tanh's two formulas and its bounds (2^-55, 1, 22), log1p's
    (x itself, 1 + x below and above sqrt(2), 1 + x a power of two times nearly 1, from 2^53
    on, near -1), random bit patterns (NaNs, infinities, subnormals), shuffled so that most
    tiles hold a value off the vector forms' common path and some hold none."""
    rng = numpy.random.default_rng(11)
    edges = [0.0, -0.0, 1.0, -1.0, 0.25, -0.25, 22.0, -22.0, 38.8, -38.8, 709.78, -709.78,
             numpy.inf, -numpy.inf, numpy.nan, 2.0 ** -54, -(2.0 ** -55), 5e-324,
             float.fromhex("0x1.62e42fefa39efp-2"), float.fromhex("0x1.0a2b23f3bab73p0"),
             float.fromhex("0x1.5ffffffffffffp4"), float.fromhex("0x1.fffffffffffffp-1")]
    parts = [
        rng.integers(0, numpy.iinfo(numpy.uint64).max, size // 8, dtype=numpy.uint64)
        .view(numpy.float64),
        rng.uniform(-45.0, 45.0, size // 8), rng.uniform(-2.2, 2.2, size // 8),
        rng.uniform(-0.4, 0.4, size // 8), rng.uniform(-1e-9, 1e-9, size // 16),
        rng.uniform(-700.0, 700.0, size // 16), numpy.array(edges),
        rng.uniform(-1.0, 5.0, size // 16), -1.0 + rng.uniform(0.0, 1e-9, size // 64),
        numpy.ldexp(1.0 + rng.uniform(-1e-7, 1e-7, size // 32), rng.integers(-30, 60, size // 32))
        - 1.0,
        numpy.exp(rng.uniform(30.0, 700.0, size // 64)),
    ]
    values = numpy.concatenate(parts)
    ordered = rng.uniform(-3.0, 3.0, size - values.size)  # tiles of common values
    return numpy.concatenate([values[rng.permutation(values.size)], ordered])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["expm1", "tanh", "log1p"])
def test_fdlibm_forms_equal_the_unfused_tasks_on_every_kind_of_value(
    session: Session, name: str, dtype: str
) -> None:
    """expm1, tanh and log1p, whose kernels use their vector forms where this machine's
    check passed (codegen/vector_expm1.h, vector_log1p.h, vector_fdlibm_float32.h): bit for
    bit cuPyNumeric's on every path."""
    assert_fused_function_equals_unfused(getattr(cn, name),
                                         values_for_fdlibm_forms(40_000).astype(dtype))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sin_and_cos_equal_the_unfused_tasks_on_every_kind_of_value(
    session: Session, name: str, dtype: str
) -> None:
    """sin and cos, whose kernels use their vector forms where this machine's check passed
    (codegen/vector_sincos.h): bit for bit cuPyNumeric's below 0.126, to 0.855, to 2.426, over
    many quadrants, past the bound of the reduction (the library's function there) and on
    random bit patterns; in float32 below 2^-12, to pi/4, to 120 and beyond."""
    rng = numpy.random.default_rng(13)
    parts = [rng.uniform(-0.2, 0.2, 5000), rng.uniform(-3.0, 3.0, 10_000),
             rng.uniform(-1e4, 1e4, 10_000), rng.uniform(-2e8, 2e8, 5000),
             rng.integers(0, numpy.iinfo(numpy.uint64).max, 5000, dtype=numpy.uint64)
             .view(numpy.float64),
             numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 2.0 ** -30, 0.126,
                          0.855469, 2.426265, numpy.pi / 2, 105414350.0, 1e300])]
    if dtype == "float32":
        parts += [rng.uniform(-130.0, 130.0, 10_000), numpy.array([2.0 ** -12, 119.9, 120.0])]
    host = numpy.concatenate(parts).astype(dtype)
    host = host[rng.permutation(host.size)]
    assert_fused_function_equals_unfused(getattr(cn, name), host)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_pow_equals_the_unfused_tasks_on_every_kind_of_value(session: Session, dtype: str) -> None:
    """x ** y, whose kernels use pow's vector form where this machine's check passed
    (codegen/vector_pow.h; float32 values widened to double, as cuPyNumeric computes them):
    bit for bit cuPyNumeric's on common values, integral exponents, results that overflow or
    underflow, x near 1 with large exponents, negative and zero x, NaN and infinities."""
    rng = numpy.random.default_rng(17)
    x = numpy.concatenate([rng.uniform(0.0, 10.0, 8000), numpy.exp(rng.uniform(-700, 700, 2000)),
                           1.0 + rng.uniform(-1e-6, 1e-6, 2000), rng.uniform(-4.0, 4.0, 2000),
                           [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, 5e-324]])
    y = numpy.concatenate([rng.uniform(-20.0, 20.0, 8000), rng.uniform(-2.0, 2.0, 2000),
                           rng.uniform(-1e6, 1e6, 2000), numpy.round(rng.uniform(-6, 6, 2000)),
                           [2.0, -1.0, 0.5, numpy.nan, numpy.inf, 1e-30, 3.0]])
    order = rng.permutation(x.size)
    assert_fused_function_equals_unfused(cn.power, x[order].astype(dtype),
                                         y[order].astype(dtype))

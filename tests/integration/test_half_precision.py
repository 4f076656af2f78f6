"""float16 fused, against cuPyNumeric's own kernels bit for bit: every unary operation over all
65,536 halves, binary operations over every half against another, conversions into and out of
float16 from every dtype at the values where rounding decides, and the one-byte integers whose
float functions cuPyNumeric computes through float16 (NumPy's type rules)."""

from __future__ import annotations

from typing import Any

import cupynumeric as cn
import numpy
import pytest

from legate_fuse.session import Session

from .test_fused_ops import BINARY_FLOAT, INTS, UNARY_FLOAT, assert_same_bits, fused_and_unfused

ALL_HALVES = numpy.arange(2**16, dtype=numpy.uint16).view(numpy.float16)
UNARY_HALF = [op for op in UNARY_FLOAT if op != "logical_not"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("op", UNARY_HALF)
def test_unary_op_over_every_half(session: Session, op: str) -> None:
    fn = getattr(cn, op)

    def program(a: Any) -> Any:
        c = fn(a)
        return c * 1 if c.dtype == a.dtype else cn.logical_not(c)  # a fused consumer

    fused, unfused, _ = fused_and_unfused(session, program, ALL_HALVES)
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("op", BINARY_FLOAT)
def test_binary_op_over_every_half(session: Session, op: str) -> None:
    fn = getattr(cn, op)
    others = numpy.random.default_rng(7).permutation(ALL_HALVES)

    def program(a: Any, b: Any) -> Any:
        return fn(a * 1, b)  # a fused producer

    fused, unfused, _ = fused_and_unfused(session, program, ALL_HALVES, others)
    assert_same_bits(fused, unfused)


def test_where_keeps_the_bits_it_selects(session: Session) -> None:
    payloads = numpy.array([0x7C01, 0xFE00, 0x7E55, 0x3C00, 0xBC00, 0x0001] * 50,
                           dtype=numpy.uint16).view(numpy.float16)

    def program(a: Any, b: Any) -> Any:
        return cn.where(a > b, a, b)

    fused, unfused, _ = fused_and_unfused(session, program, payloads, numpy.roll(payloads, 1))
    assert_same_bits(fused, unfused)


def rounding_cases(dtype: str) -> numpy.ndarray:
    """Values of `dtype` where converting to float16 decides: each half's neighbourhood, the
    midpoints and the values either side of them, the overflow boundary, and for float64 the
    values between a midpoint and the float nearest to it (rounded once, not twice)."""
    finite = numpy.unique(ALL_HALVES[numpy.isfinite(ALL_HALVES)].astype(numpy.float64))
    if numpy.dtype(dtype).kind in "iu":
        info = numpy.iinfo(dtype)
        ints = numpy.concatenate([numpy.arange(-70000, 70000, 7), [info.min, info.max, 65519,
                                                                  65520, 2049, 2051, 4097]])
        return ints[(ints >= info.min) & (ints <= info.max)].astype(dtype)
    midpoints = (finite[:-1] + finite[1:]) / 2
    values = numpy.concatenate([finite, midpoints, [65519.99, 65520.0, 1e30, numpy.inf,
                                                    -numpy.inf, numpy.nan, 2.0**-25]])
    values = values.astype(dtype)
    around = [values, numpy.nextafter(values, numpy.inf, dtype=dtype),
              numpy.nextafter(values, -numpy.inf, dtype=dtype)]
    if dtype == "float64":
        around.append(midpoints + numpy.abs(midpoints) * 2.0**-40)
    return numpy.concatenate(around).astype(dtype)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("source", ["float64", "float32", *INTS, "bool"])
def test_conversion_into_float16(session: Session, source: str) -> None:
    values = (rounding_cases(source) if source != "bool"
              else numpy.array([True, False] * 8))

    def program(a: Any) -> Any:
        return a.astype(cn.float16) * 1  # with a fused consumer

    fused, unfused, _ = fused_and_unfused(session, program, values)
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("target", ["float64", "float32", *INTS, "bool"])
def test_conversion_out_of_float16(session: Session, target: str) -> None:
    def program(a: Any) -> Any:
        return (a * 1).astype(target)  # with a fused producer

    fused, unfused, _ = fused_and_unfused(session, program, ALL_HALVES)
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["int8", "uint8"])
@pytest.mark.parametrize("op", ["isnan", "isinf", "isfinite", "sqrt", "exp"])
def test_one_byte_integers_through_float16_fuse(session: Session, dtype: str, op: str) -> None:
    """NumPy computes float functions of one-byte integers in float16 (sqrt of an int8 array is
    float16): cuPyNumeric converts, then applies the function; both fuse."""
    values = numpy.arange(-128, 128).astype(dtype)
    fn = getattr(cn, op)

    def program(a: Any) -> Any:
        return fn(a + a)

    fused, unfused, launches = fused_and_unfused(session, program, values)
    assert launches >= 1
    assert_same_bits(fused, unfused)

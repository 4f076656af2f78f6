"""complex64 and complex128 fused, against cuPyNumeric's own kernels bit for bit: arithmetic over
every pair of a grid of parts where the formulas branch (zeros of both signs, infinities, NaNs,
the extremes where products overflow or underflow), comparisons, negation and conversions;
quotients, also of random parts of every magnitude. NaN parts of both signs tell apart which
NaN operand an operation keeps."""

from __future__ import annotations

import itertools
from typing import Any

import cupynumeric as cn
import numpy
import pytest

from legate_fuse.session import Session

from .test_fused_ops import INTS, assert_same_bits, fused_and_unfused

COMPLEX = ("complex128", "complex64")


def parts(dtype: str) -> list[float]:
    info = numpy.finfo(numpy.dtype(dtype).char.lower() if dtype == "complex64" else "float64")
    if dtype == "complex64":
        info = numpy.finfo(numpy.float32)
    return [0.0, -0.0, 1.0, -2.5, 3.0, 0.1, numpy.inf, -numpy.inf, numpy.nan, -numpy.nan,
            float(info.max), float(-info.max), float(info.tiny), float(info.tiny) / 8,
            float(info.max) / 3, 1e-20]


def values(dtype: str) -> numpy.ndarray:
    grid = [complex(re, im) for re, im in itertools.product(parts(dtype), repeat=2)]
    return numpy.array(grid, dtype=dtype)


def every_pair(dtype: str) -> tuple[numpy.ndarray, numpy.ndarray]:
    v = values(dtype)
    a, b = numpy.meshgrid(v, v)
    return a.ravel().copy(), b.ravel().copy()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "equal", "not_equal"])
def test_binary_op_over_every_pair(session: Session, op: str, dtype: str) -> None:
    fn = getattr(cn, op)

    def program(a: Any, b: Any) -> Any:
        return fn(a * 1, b)  # a fused producer

    fused, unfused, _ = fused_and_unfused(session, program, *every_pair(dtype))
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
def test_a_chain_of_complex_arithmetic(session: Session, dtype: str) -> None:
    def program(a: Any, b: Any) -> Any:
        return (a * b + a) * (b - 2) + a

    fused, unfused, _ = fused_and_unfused(session, program, *every_pair(dtype))
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
def test_quotients_of_random_parts_of_every_magnitude(session: Session, dtype: str) -> None:
    """Ordinary quotients round as cuPyNumeric's do: its compiled division contracts products
    and sums into fused multiply-adds, which moves the last bit of about one quotient in six
    (found without them)."""
    rng = numpy.random.default_rng(11)
    wide = 120 if dtype == "complex128" else 30
    raw = rng.normal(size=(4, 100_000)) * numpy.exp(rng.uniform(-wide, wide, size=(4, 100_000)))
    a = (raw[0] + 1j * raw[1]).astype(dtype)
    b = (raw[2] + 1j * raw[3]).astype(dtype)

    def program(x: Any, y: Any) -> Any:
        return (x * 1) / y  # a fused producer

    fused, unfused, _ = fused_and_unfused(session, program, a, b)
    assert_same_bits(fused, unfused)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", COMPLEX)
def test_sums_and_products_of_random_parts_with_nans_in_some_tiles(session: Session,
                                                                   dtype: str) -> None:
    """Where no complex value of a tile is NaN, the kernel computes it with inline forms the
    compiler vectorises: still cuPyNumeric's bits, for parts of every magnitude (products that
    overflow or underflow) and in place. A tile with a NaN part of either sign is computed
    again as cuPyNumeric's functions choose their NaNs."""
    rng = numpy.random.default_rng(17)
    n = 5000
    wide = 110 if dtype == "complex128" else 14
    raw = rng.normal(size=(4, n)) * 10.0 ** rng.uniform(-wide, wide, size=(4, n))
    with numpy.errstate(over="ignore"):
        a = (raw[0] + 1j * raw[1]).astype(dtype)
        b = (raw[2] + 1j * raw[3]).astype(dtype)
    a[700] = complex(numpy.nan, 1.0)
    b[2100] = complex(1.0, -numpy.nan)
    a[3000] = complex(numpy.inf, 0.0)

    def program(x: Any, y: Any) -> Any:
        x = x * 1
        x *= y
        x += y
        return (x - 0.5 * y) * y

    fused, unfused, _ = fused_and_unfused(session, program, a, b)
    assert numpy.isfinite(fused).mean() > 0.9
    assert_same_bits(fused, unfused)


SOURCES = [*COMPLEX, "float64", "float32", *INTS, "bool"]
TARGETS = [*COMPLEX, "float64", "float32", "int64", "int32", "uint8", "bool"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("source", "target"), [
    (s, t) for s in SOURCES for t in TARGETS if s != t and (s in COMPLEX or t in COMPLEX)])
def test_conversions_to_and_from_complex(session: Session, source: str, target: str) -> None:
    if source in COMPLEX:
        data = values(source)
        if target not in COMPLEX and numpy.dtype(target).kind in "iub":
            data = data[numpy.isfinite(data.real) & (numpy.abs(data.real) < 100)]
    else:
        data = (numpy.arange(-50, 50) * 3).astype(source) if source != "bool" else \
            numpy.array([True, False] * 20)

    def program(a: Any) -> Any:
        return (a if a.dtype == bool else -a).astype(target) == 0  # fused around it

    fused, unfused, _ = fused_and_unfused(session, program, data)
    assert_same_bits(fused, unfused)

    def values_out(a: Any) -> Any:
        return (a if a.dtype == bool else -a).astype(target)

    fused, unfused, _ = fused_and_unfused(session, values_out, data,
                                          fuses=source != "bool")
    assert_same_bits(fused, unfused)


def test_where_and_copies_of_complex(session: Session) -> None:
    a, b = every_pair("complex128")

    def program(x: Any, y: Any) -> Any:
        return cn.where(x == y, x, y + x)

    fused, unfused, _ = fused_and_unfused(session, program, a, b)
    assert_same_bits(fused, unfused)


@pytest.mark.parametrize("size", [1, 1000])
def test_a_product_narrowed_to_complex64_and_widened_again(session: Session, size: int) -> None:
    """x *= k (int32) computes in complex128 and rounds into x's complex64; x + k widens it
    again: the rounding stays (GCC 12's straight-line vectoriser dropped it)."""
    rng = numpy.random.default_rng(3)
    x0 = (rng.uniform(-1, 1, size) + 1j * rng.uniform(-1, 1, size)).astype("complex64")
    k = numpy.array(-3, dtype="int32")

    def program(x: Any, k: Any) -> Any:
        x = x * 1
        x *= k
        return x + k

    fused, unfused, _ = fused_and_unfused(session, program, x0, k)
    assert fused.dtype == numpy.complex128
    assert_same_bits(fused, unfused)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("reduction", ["any", "all"])
def test_any_and_all_of_complex_values_are_left_to_cupynumeric(
        session: Session, dtype: str, reduction: str) -> None:
    """Not lifted: the kernels have no truth test for complex values, and cuPyNumeric 26.06's own
    any() is not NumPy's (any([1j]) is False); its answer stays, the producer before still
    fuses, and nothing is warned."""
    a, b = every_pair(dtype)

    def program(x: Any, y: Any) -> Any:
        return getattr(cn, reduction)(x * y - y)

    before = session.stats.unfused.copy()
    fused, unfused, _ = fused_and_unfused(session, program, a, b)
    assert fused.tobytes() == unfused.tobytes()
    # Failures of this program's windows (earlier tests inject some on purpose).
    failed = [key for key, count in session.stats.unfused.items()
              if ("could not be built" in key[2] or "failed" in key[2]) and count > before[key]]
    assert not failed, failed

"""float16 in the C kernels (src/cpp/codegen/half_float.h): values rounded to the nearest half,
ties to even, as CUDA's `__half` rounds on the host; a computed NaN is the one NaN 0x7FFF;
selections keep the bits they select. NumPy's own float16 conversions round the same way
(they keep NaN payloads instead), so they are the reference here; the integration tests check
the same kernels against cuPyNumeric itself."""

from __future__ import annotations

import numpy
import pytest

from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, KernelSpec

from .c_kernels import IN, OUT, run
from .test_codegen_c import binary_spec, unary_spec

ALL_HALVES = numpy.arange(2**16, dtype=numpy.uint16).view(numpy.float16)
CANONICAL_NAN = 0x7FFF


def half_bits(values: numpy.ndarray) -> numpy.ndarray:
    """NumPy's float16 rounding of `values`, with cuPyNumeric's one NaN."""
    with numpy.errstate(over="ignore"):
        bits = values.astype(numpy.float16).view(numpy.uint16).copy()
    bits[numpy.isnan(values)] = CANONICAL_NAN
    return bits


def around_every_half(dtype: str) -> numpy.ndarray:
    """Every finite half, the midpoints between neighbours and the values just either side of
    them (where rounding decides), in `dtype`; then the overflow boundary, the smallest
    subnormals' halves, infinities and NaNs of both signs."""
    finite = numpy.sort(ALL_HALVES[numpy.isfinite(ALL_HALVES)].astype(numpy.float64))
    finite = numpy.unique(finite)
    midpoints = ((finite[:-1] + finite[1:]) / 2).astype(dtype)
    values = [finite.astype(dtype), midpoints,
              numpy.nextafter(midpoints, numpy.inf, dtype=dtype),
              numpy.nextafter(midpoints, -numpy.inf, dtype=dtype),
              numpy.array([65519.99, 65520.0, 65536.0, 1e30, 2.0**-25, 2.0**-26, 3 * 2.0**-26,
                           numpy.inf, -numpy.inf, numpy.nan, -numpy.nan], dtype=dtype)]
    return numpy.concatenate(values).astype(dtype)


@pytest.mark.parametrize("source", ["float32", "float64"])
def test_conversion_into_float16_rounds_once_to_the_nearest_even(compiler: KernelCompiler,
                                                                  source: str) -> None:
    values = around_every_half(source)
    if source == "float64":  # between a half's midpoint and the float nearest to it
        ones = numpy.array([1 + 2.0**-11 + 2.0**-40, -(1 + 2.0**-11 + 2.0**-40),
                            2.0**-25 + 2.0**-60], dtype=numpy.float64)
        values = numpy.concatenate([values, ones])
    out = numpy.zeros(values.shape, dtype=numpy.float16)
    run(compiler, unary_spec("CONVERT.NOOP", source, "float16"), [values, out], values.shape)
    expected = half_bits(values)
    different = numpy.flatnonzero(out.view(numpy.uint16) != expected)
    assert different.size == 0, (values[different[:5]], out.view(numpy.uint16)[different[:5]],
                                 expected[different[:5]])


def test_every_half_widens_exactly_and_every_nan_to_one(compiler: KernelCompiler) -> None:
    """`__half` widens each value exactly, and every NaN (of either sign, any payload) to the
    positive NaN 0x7FFFFFFF: what conversions, signbit and copysign see."""
    out = numpy.zeros(ALL_HALVES.shape, dtype=numpy.float32)
    run(compiler, unary_spec("CONVERT.NOOP", "float16", "float32"), [ALL_HALVES, out],
        ALL_HALVES.shape)
    numbers = ~numpy.isnan(ALL_HALVES)
    assert out[numbers].tobytes() == ALL_HALVES[numbers].astype(numpy.float32).tobytes()
    assert set(out[~numbers].view(numpy.uint32).tolist()) == {0x7FFFFFFF}
    signs = numpy.zeros(ALL_HALVES.shape, dtype=bool)
    run(compiler, unary_spec("UNARY_OP.SIGNBIT", "float16", "bool"), [ALL_HALVES, signs],
        ALL_HALVES.shape)
    assert signs.tolist() == (numpy.signbit(ALL_HALVES) & numbers).tolist()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("rounding", ["compiler", "bits"])
@pytest.mark.parametrize(("op", "numpy_op"), [("SQRT", numpy.sqrt), ("NEGATIVE", numpy.negative),
                                              ("SQUARE", numpy.square)])
def test_each_operation_rounds_its_single_precision_result(compiler: KernelCompiler, op: str,
                                                           numpy_op: numpy.ufunc,
                                                           rounding: str) -> None:
    """Over every half: the single-precision result (exact for these), rounded to float16; a
    NaN result (sqrt of a negative, any NaN input) is 0x7FFF whatever the input's bits. Both
    ways of rounding: the compiler's _Float16 and the kernels' own bit arithmetic."""
    out = numpy.zeros(ALL_HALVES.shape, dtype=numpy.float16)
    prefix = "#define LF_SOFT_HALF 1\n" if rounding == "bits" else ""
    run(compiler, unary_spec(f"UNARY_OP.{op}", "float16"), [ALL_HALVES, out], ALL_HALVES.shape,
        prefix=prefix)
    with numpy.errstate(all="ignore"):
        expected = half_bits(numpy_op(ALL_HALVES.astype(numpy.float32)))
    assert (out.view(numpy.uint16) == expected).all()


def test_a_product_rounds_at_every_rounding_boundary(compiler: KernelCompiler) -> None:
    """Products of finite halves (exact in single precision, then rounded to float16), both
    ways of rounding, against NumPy's rounding: ties, subnormals, overflow to infinity."""
    x = ALL_HALVES[numpy.isfinite(ALL_HALVES)]
    y = numpy.roll(x, 7)
    for prefix in ("", "#define LF_SOFT_HALF 1\n"):
        out = numpy.zeros(x.shape, dtype=numpy.float16)
        run(compiler, binary_spec("BINARY_OP.MULTIPLY", "float16"), [x, y, out], x.shape,
            prefix=prefix)
        with numpy.errstate(all="ignore"):
            expected = half_bits(x.astype(numpy.float32) * y.astype(numpy.float32))
        assert (out.view(numpy.uint16) == expected).all(), prefix


def test_selections_keep_the_bits_they_select(compiler: KernelCompiler) -> None:
    """maximum, minimum, copies and where select an operand: NaN payloads and signs stay."""
    payloads = numpy.array([0x7C01, 0xFE00, 0x7E55, 0x3C00, 0xBC00, 0x0001], dtype=numpy.uint16)
    a = payloads.view(numpy.float16)
    b = numpy.roll(a, 1)
    for op in ("BINARY_OP.MAXIMUM", "BINARY_OP.MINIMUM"):
        out = numpy.zeros_like(a)
        run(compiler, binary_spec(op, "float16"), [a, b, out], a.shape)
        picked = numpy.where(a < b, b, a) if op.endswith("MAXIMUM") else numpy.where(b < a, b, a)
        assert out.view(numpy.uint16).tolist() == picked.view(numpy.uint16).tolist()
    out = numpy.zeros_like(a)
    run(compiler, unary_spec("UNARY_OP.COPY", "float16"), [a, out], a.shape)
    assert out.view(numpy.uint16).tolist() == payloads.tolist()
    mask = numpy.array([True, False] * 3)
    spec = KernelSpec(args=((IN, "bool", False), (IN, "float16", False), (IN, "float16", False),
                            (OUT, "float16", False)), scalar_types=(),
                      nodes=(("WHERE", "float16", ((ARG, 0), (ARG, 1), (ARG, 2))),),
                      stores=((3, 0),), reductions=())
    out = numpy.zeros_like(a)
    run(compiler, spec, [mask, a, b, out], a.shape)
    assert out.view(numpy.uint16).tolist() == numpy.where(mask, a, b).view(numpy.uint16).tolist()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("target", ["int8", "uint8", "int32", "uint32", "int64", "bool"])
def test_float16_converts_out_as_a_double_with_nan_as_zero(compiler: KernelCompiler,
                                                           target: str) -> None:
    values = numpy.array([1.5, -2.5, 300.0, -300.0, 65504.0, numpy.inf, numpy.nan],
                         dtype=numpy.float16)
    out = numpy.zeros(values.shape, dtype=target)
    run(compiler, unary_spec("CONVERT.NOOP", "float16", target), [values, out], values.shape)
    # cuPyNumeric's results (fusion off), measured: a NaN gives 0 in every integer type.
    expected = {
        "int8": [1, -2, 44, -44, -32, 0, 0], "uint8": [1, 254, 44, 212, 224, 0, 0],
        "int32": [1, -2, 300, -300, 65504, -2**31, 0],
        "uint32": [1, 2**32 - 2, 300, 2**32 - 300, 65504, 0, 0],
        "int64": [1, -2, 300, -300, 65504, -2**63, 0],
        "bool": [True] * 7}
    assert out.tolist() == expected[target]


def test_no_reductions_and_no_gpu_rendering_for_float16() -> None:
    from legate_fuse import _core

    assert not _core.c_supports_reduction("SUM", "float16")
    assert not _core.c_supports("UNARY_OP.CLIP", "float16", ["float16"])
    with pytest.raises(ValueError, match="float16"):
        unary_spec("UNARY_OP.SQRT", "float16").render_cuda()

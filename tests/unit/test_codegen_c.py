"""Generated C kernels, compiled and run on NumPy buffers through cffi, without Legate."""

from __future__ import annotations

import math
from pathlib import Path

import numpy
import pytest

from legate_fuse import _core
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, INDEX, NO_OPERAND, REGISTER, SCALAR, KernelSpec

from .c_kernels import IN, OUT, RED, run


def unary_spec(op: str, dtype: str, out_dtype: str | None = None) -> KernelSpec:
    out_dtype = out_dtype or dtype
    return KernelSpec(args=((IN, dtype, False), (OUT, out_dtype, False)), scalar_types=(),
                      nodes=((op, out_dtype, ((ARG, 0),)),), stores=((1, 0),), reductions=())


def binary_spec(op: str, dtype: str, out_dtype: str | None = None) -> KernelSpec:
    out_dtype = out_dtype or dtype
    return KernelSpec(args=((IN, dtype, False), (IN, dtype, False), (OUT, out_dtype, False)),
                      scalar_types=(), nodes=((op, out_dtype, ((ARG, 0), (ARG, 1))),),
                      stores=((2, 0),), reductions=())


def ordinary(dtype: str, n: int = 257, positive: bool = False) -> numpy.ndarray:
    rng = numpy.random.default_rng(3)
    values = rng.uniform(0.1 if positive else -4, 4, n)
    return values.astype(dtype)


EXACT_UNARY = {"NEGATIVE": numpy.negative, "ABSOLUTE": numpy.absolute, "SQRT": numpy.sqrt,
               "FLOOR": numpy.floor, "CEIL": numpy.ceil, "TRUNC": numpy.trunc,
               "RINT": numpy.rint, "SQUARE": numpy.square, "COPY": numpy.copy}
LIBM_UNARY = {"EXP": numpy.exp, "LOG": numpy.log, "SIN": numpy.sin, "COS": numpy.cos,
              "TANH": numpy.tanh, "EXPM1": numpy.expm1, "LOG1P": numpy.log1p,
              "ARCTAN": numpy.arctan, "CBRT": numpy.cbrt}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(EXACT_UNARY))
def test_exact_unary_ops_equal_numpy_bitwise(compiler: KernelCompiler, op: str,
                                             dtype: str) -> None:
    x = ordinary(dtype, positive=op == "SQRT")
    out = numpy.zeros_like(x)
    run(compiler, unary_spec(f"UNARY_OP.{op}", dtype), [x, out], x.shape)
    assert out.tobytes() == EXACT_UNARY[op](x).tobytes()


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(LIBM_UNARY))
def test_libm_unary_ops_equal_numpy_within_ulps(compiler: KernelCompiler, op: str,
                                                dtype: str) -> None:
    # NumPy has its own vectorised implementations; the kernels call the C library, as
    # cuPyNumeric's do. Both are within a few units in the last place of the exact value.
    x = ordinary(dtype, positive=op in ("LOG", "LOG1P"))
    out = numpy.zeros_like(x)
    run(compiler, unary_spec(f"UNARY_OP.{op}", dtype), [x, out], x.shape)
    numpy.testing.assert_array_max_ulp(out, LIBM_UNARY[op](x), maxulp=4)


EXACT_BINARY = {"ADD": numpy.add, "SUBTRACT": numpy.subtract, "MULTIPLY": numpy.multiply,
                "DIVIDE": numpy.divide, "MAXIMUM": numpy.maximum, "MINIMUM": numpy.minimum,
                "COPYSIGN": numpy.copysign, "FMOD": numpy.fmod, "MOD": numpy.remainder}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op", sorted(EXACT_BINARY))
def test_exact_binary_ops_equal_numpy_bitwise(compiler: KernelCompiler, op: str,
                                              dtype: str) -> None:
    x, y = ordinary(dtype), numpy.roll(ordinary(dtype), 7)
    out = numpy.zeros_like(x)
    run(compiler, binary_spec(f"BINARY_OP.{op}", dtype), [x, y, out], x.shape)
    assert out.tobytes() == EXACT_BINARY[op](x, y).tobytes()


@pytest.mark.parametrize("op", ["EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER",
                                "GREATER_EQUAL", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR"])
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_comparisons_give_bools(compiler: KernelCompiler, op: str, dtype: str) -> None:
    x = numpy.array([0, 1, 2, 3, -1, 2, 0, 5], dtype=dtype)
    y = numpy.array([0, 2, 2, 1, -1, 0, 1, 5], dtype=dtype)
    out = numpy.zeros(x.shape, dtype=bool)
    run(compiler, binary_spec(f"BINARY_OP.{op}", dtype, "bool"), [x, y, out], x.shape)
    numpy.testing.assert_array_equal(out, getattr(numpy, op.lower())(x, y))


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint8", "uint64"])
@pytest.mark.parametrize("op", ["ADD", "SUBTRACT", "MULTIPLY"])
def test_integer_arithmetic_wraps_around_as_numpy(compiler: KernelCompiler, op: str,
                                                  dtype: str) -> None:
    info = numpy.iinfo(dtype)
    x = numpy.array([info.max, info.min, info.max, 7, 0], dtype=dtype)
    y = numpy.array([1, 1, info.max, 3, 1], dtype=dtype)
    out = numpy.zeros_like(x)
    run(compiler, binary_spec(f"BINARY_OP.{op}", dtype), [x, y, out], x.shape)
    with numpy.errstate(over="ignore"):
        numpy.testing.assert_array_equal(out, getattr(numpy, op.lower())(x, y))


def test_chain_with_strided_broadcast_and_value_arguments(compiler: KernelCompiler) -> None:
    # out = (grid_view * row) + scalar over a 2-D strided view: three loads, two registers.
    spec = KernelSpec(
        args=((IN, "float64", False), (IN, "float64", False), (IN, "float64", True),
              (OUT, "float64", False)),
        scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 1))),
               ("BINARY_OP.ADD", "float64", ((REGISTER, 0), (ARG, 2)))),
        stores=((3, 1),), reductions=())
    grid = numpy.arange(60.0).reshape(6, 10)
    view = grid[1:5, 2:9:2]  # non-contiguous rows and columns
    row = numpy.broadcast_to(numpy.array([1.0, -1.0, 2.0, 0.5]), view.shape)  # stride 0
    scalar = numpy.array(100.0)
    out = numpy.zeros((4, 4))
    run(compiler, spec, [view, row, scalar, out], view.shape)
    assert out.tobytes() == (view * row + 100.0).tobytes()


@pytest.mark.parametrize(("op", "identity"), [("SUM", 0.0), ("PROD", 1.0), ("MAX", -numpy.inf),
                                              ("MIN", numpy.inf)])
def test_reduction_folds_into_the_instance(compiler: KernelCompiler, op: str,
                                           identity: float) -> None:
    spec = KernelSpec(
        args=((IN, "float64", False), (IN, "bool", False), (RED, "float64", True)),
        scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 0))),),
        stores=(), reductions=((2, op, (REGISTER, 0), NO_OPERAND),))
    x = numpy.linspace(0.5, 1.5, 101)
    mask = numpy.ones(101, dtype=bool)
    target = numpy.array(identity)  # the reduction instance starts at the identity
    run(compiler, spec, [x, mask, target], x.shape)
    reduce = {"SUM": numpy.sum, "PROD": numpy.prod, "MAX": numpy.max, "MIN": numpy.min}[op]
    numpy.testing.assert_allclose(target, reduce(x * x), rtol=1e-12)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("op", ["SUM", "MAX"])
def test_axis_reduction_folds_each_element_into_its_target(compiler: KernelCompiler, op: str,
                                                          axis: int) -> None:
    # An axis reduction: the target is the reduced array promoted along the axis (stride 0),
    # each element folded into its own target element, row by row as NumPy's add.reduce.
    spec = KernelSpec(
        args=((IN, "float64", False), (RED, "float64", False)),
        scalar_types=(),
        nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 0))),),
        stores=(), reductions=((1, op, (REGISTER, 0), NO_OPERAND),))
    x = numpy.linspace(-3.0, 3.0, 7 * 9).reshape(7, 9)
    reduce = {"SUM": numpy.add, "MAX": numpy.maximum}[op]
    target = numpy.full(x.shape[1 - axis], 0.0 if op == "SUM" else -numpy.inf)
    want = target.copy()
    promoted = numpy.expand_dims(target, axis)
    run(compiler, spec, [x, numpy.broadcast_to(promoted, x.shape)], x.shape)
    for index in numpy.ndindex(*x.shape):  # the fold order of a sequential loop
        want[index[1 - axis]] = reduce(want[index[1 - axis]], x[index] * x[index])
    assert target.tobytes() == want.tobytes()


def test_masked_reduction_skips_masked_elements(compiler: KernelCompiler) -> None:
    spec = KernelSpec(
        args=((IN, "float64", False), (IN, "bool", False), (RED, "float64", True)),
        scalar_types=(), nodes=(), stores=(),
        reductions=((2, "SUM", (ARG, 0), (ARG, 1)),))
    x = numpy.arange(10.0)
    mask = x % 3 == 0
    target = numpy.array(0.0)
    run(compiler, spec, [x, mask, target], x.shape)
    assert float(target) == float(x[mask].sum())


def test_zero_dimensional_launch(compiler: KernelCompiler) -> None:
    x, out = numpy.array(3.0), numpy.array(0.0)
    run(compiler, unary_spec("UNARY_OP.SQRT", "float64"), [x, out], ())
    assert float(out) == numpy.sqrt(3.0)


def test_unsupported_operation_is_reported() -> None:
    with pytest.raises(_core.UnsupportedError,
                       match=r"no rendering for UNARY_OP.SQRT -> complex64 \(complex64\)"):
        unary_spec("UNARY_OP.SQRT", "complex64").render_c()
    assert not _core.c_supports("BINARY_OP.LEFT_SHIFT", "int64", ["int64", "int64"])


def test_source_is_cached_on_disk_and_in_memory(tmp_path: Path) -> None:
    compiler = KernelCompiler(tmp_path)
    source = unary_spec("UNARY_OP.NEGATIVE", "float64").render_c()
    first = compiler.build(source)
    assert compiler.compiled == 1 and first.exists()
    again = KernelCompiler(tmp_path)  # a new process: found on disk
    assert again.build(source) == first and again.compiled == 0 and again.cache_hits == 1




def test_a_full_cache_folder_is_a_compile_error(tmp_path: Path) -> None:
    import errno

    from legate_fuse.backend.compiler import CompileError, KernelCache

    def full_disk(source: str, output: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    cache = KernelCache(tmp_path, ".so", lambda: {"compiler": "test"}, full_disk)
    with pytest.raises(CompileError, match="No space left on device"):
        cache.build("int x;")
    assert not list(tmp_path.glob("*.so")) and not list(tmp_path.glob(".build-*"))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint16", "int64"])
def test_clip_reads_its_bounds_from_the_scalar_slots(compiler: KernelCompiler, dtype: str
                                                     ) -> None:
    spec = KernelSpec(args=((IN, dtype, False), (OUT, dtype, False)),
                      scalar_types=(dtype, dtype),
                      nodes=(("UNARY_OP.CLIP", dtype, ((ARG, 0), (SCALAR, 0), (SCALAR, 1))),),
                      stores=((1, 0),), reductions=())
    x = numpy.arange(-20, 40).astype(dtype)
    for low, high in ((3, 17), (17, 3), (0, 0)):
        out = numpy.zeros_like(x)
        run(compiler, spec, [x, out], x.shape, (numpy.dtype(dtype).type(low),
                                                 numpy.dtype(dtype).type(high)))
        expected = numpy.where(x < low, low, numpy.where(x > high, high, x)).astype(dtype)
        assert out.tobytes() == expected.tobytes()


def x86_integer(value: float, dtype: str) -> int:
    """`value` converted to `dtype` as generic x86-64 code converts a double: through a signed
    32-bit conversion up to int32, a signed 64-bit one for int64 and uint32 (an out-of-range
    value gives the signed minimum), uint64 in two halves; then wrapped to the type."""
    bits = numpy.iinfo(dtype).bits

    def signed(v: float, width: int) -> int:
        return int(v) if -(2.0 ** (width - 1)) <= v < 2.0 ** (width - 1) else -(2 ** (width - 1))

    if dtype == "uint64":
        raw = signed(value, 64) if value < 2.0**63 else signed(value - 2.0**63, 64) ^ -(2**63)
    else:
        raw = signed(value, 32 if bits < 32 or dtype == "int32" else 64)
    wrapped = raw % 2**bits
    negative = numpy.iinfo(dtype).min < 0 and wrapped >= 2 ** (bits - 1)
    return wrapped - 2**bits if negative else wrapped


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_integer_power_goes_through_double(compiler: KernelCompiler, dtype: str) -> None:
    """As cuPyNumeric's kernel: pow() of the operands as doubles, rounded half away from zero
    (2 ** -1 is 1) and converted back: exact while the result fits, converted as x86-64
    converts beyond."""
    info = numpy.iinfo(dtype)
    pairs = [(3, 5), (2, 7), (7, 0), (0, 0), (1, 9), (5, 3), (info.max, 2), (2, 70), (3, 20),
             (3, 39), (10, 19)]
    if info.min < 0:
        pairs += [(2, -1), (-2, -1), (2, -2), (4, -1), (-3, 21), (-1, -3)]
    base = numpy.array([b for b, _ in pairs], dtype=dtype)
    exponent = numpy.array([e for _, e in pairs], dtype=dtype)
    out = numpy.zeros_like(base)
    run(compiler, binary_spec("BINARY_OP.POWER", dtype), [base, exponent, out], base.shape)
    rounded = [math.copysign(math.floor(abs(v) + 0.5), v)
               for v in (float(b) ** float(e) for b, e in zip(base, exponent, strict=True))]
    assert out.tolist() == [x86_integer(v, dtype) for v in rounded]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8"])
def test_arange_counts_from_the_blocks_origin(compiler: KernelCompiler, dtype: str) -> None:
    """A point task's block starts at its origin in the launch: arange computes element k of
    the block from index origin + k."""
    spec = KernelSpec(args=((OUT, dtype, False),), scalar_types=(dtype, dtype),
                      nodes=(("ARANGE", dtype, ((INDEX, 0), (SCALAR, 0), (SCALAR, 1))),),
                      stores=((0, 0),), reductions=())
    out = numpy.zeros(50, dtype=dtype)
    kind = numpy.dtype(dtype).type
    run(compiler, spec, [out], out.shape, (kind(2), kind(3)), origin=(70,))
    expected = (numpy.arange(70, 120) * 3 + 2).astype(dtype)
    assert out.tolist() == expected.tolist()


def value_output_spec() -> KernelSpec:
    """alpha = rho / pq, 0-d values the program keeps, and out = x + alpha * p over arrays."""
    return KernelSpec(
        args=((IN, "float64", True), (IN, "float64", True), (IN, "float64", False),
              (IN, "float64", False), (OUT, "float64", True), (OUT, "float64", False)),
        scalar_types=(),
        nodes=(("BINARY_OP.DIVIDE", "float64", ((ARG, 0), (ARG, 1))),
               ("BINARY_OP.MULTIPLY", "float64", ((REGISTER, 0), (ARG, 2))),
               ("BINARY_OP.ADD", "float64", ((ARG, 3), (REGISTER, 1)))),
        stores=((4, 0), (5, 2)), reductions=())


def test_a_value_output_is_written_once_after_the_loop(compiler: KernelCompiler) -> None:
    source = value_output_spec().render_c()
    # One pass over the block (never split into parts), whose rows stay contiguous: the value
    # is no array, written after the loop.
    assert "legate_fuse_kernel_split =" not in source
    assert "st4 ==" not in source
    p, x = ordinary("float64"), ordinary("float64", positive=True)
    rho, pq, alpha = numpy.array(3.0), numpy.array(7.0), numpy.array(-1.0)
    out = numpy.zeros_like(x)
    run(compiler, value_output_spec(), [rho, pq, p, x, alpha, out], p.shape)
    assert alpha.tobytes() == (numpy.float64(3.0) / numpy.float64(7.0)).tobytes()
    assert out.tobytes() == (x + alpha * p).tobytes()

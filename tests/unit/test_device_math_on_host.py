"""The CUDA kernels compute with the device's own math functions, without a GPU: libdevice (what
NVRTC links into our kernels and cuPyNumeric's GPU kernels call) is built for the host
(device_math_on_host.py) and the generated CUDA source is run on the host against it
(cuda_on_host.py). Each function the kernels call, in float64 and float32, gives what one
libdevice call per element gives, as cuPyNumeric's unfused GPU kernels compute it, with the
arithmetic around it rounded operation by operation."""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from pathlib import Path

import numpy
import pytest

from legate_fuse import _core
from legate_fuse.backend.compiler import KernelCache
from legate_fuse.lift.cupynumeric import BINARY_OPS, UNARY_OPS
from legate_fuse.plan.kernel_spec import ARG, REGISTER, KernelSpec

from . import cuda_on_host, device_math_on_host
from .c_kernels import IN, OUT
from .device_math_on_host import DeviceMath

BLOCK = _core.CUDA_BLOCK_SIZE
FLOATS = ("float64", "float32")
# cuPyNumeric's operations on floats by the C function their kernels call.
UNARY = {"EXP": "exp", "EXP2": "exp2", "EXPM1": "expm1", "LOG": "log", "LOG2": "log2",
         "LOG10": "log10", "LOG1P": "log1p", "SIN": "sin", "COS": "cos", "TAN": "tan",
         "ARCSIN": "asin", "ARCCOS": "acos", "ARCTAN": "atan", "SINH": "sinh", "COSH": "cosh",
         "TANH": "tanh", "ARCSINH": "asinh", "ARCCOSH": "acosh", "ARCTANH": "atanh",
         "CBRT": "cbrt", "SQRT": "sqrt", "FLOOR": "floor", "CEIL": "ceil", "TRUNC": "trunc",
         "RINT": "rint", "ABSOLUTE": "fabs"}
BINARY = {"POWER": "pow", "ARCTAN2": "atan2", "HYPOT": "hypot", "COPYSIGN": "copysign",
          "FMOD": "fmod"}
# The CUDA C Programming Guide's maximum errors in ulps (float64, float32), or 0 where exact.
DOCUMENTED_ULPS = {
    "exp": (1, 2), "exp2": (1, 2), "expm1": (1, 1), "log": (1, 1), "log2": (1, 1),
    "log10": (1, 2), "log1p": (1, 1), "sin": (2, 2), "cos": (2, 2), "tan": (2, 4),
    "asin": (2, 2), "acos": (2, 2), "atan": (2, 2), "sinh": (2, 3), "cosh": (1, 2),
    "tanh": (1, 2), "asinh": (3, 3), "acosh": (3, 4), "atanh": (2, 3), "cbrt": (1, 1),
    "sqrt": (0, 0), "floor": (0, 0), "ceil": (0, 0), "trunc": (0, 0), "rint": (0, 0),
    "fabs": (0, 0), "pow": (2, 4), "atan2": (2, 3), "hypot": (2, 3), "copysign": (0, 0),
    "fmod": (0, 0)}


@pytest.fixture(scope="module")
def device_math(tmp_path_factory: pytest.TempPathFactory) -> DeviceMath:
    pytest.importorskip("llvmlite")
    bitcode = device_math_on_host.find_libdevice()
    if bitcode is None:
        pytest.skip("libdevice is not installed (the nvidia-nvvm wheel)")
    return device_math_on_host.build(bitcode, tmp_path_factory.mktemp("libdevice"))


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory, device_math: DeviceMath) -> KernelCache:
    return cuda_on_host.host_compiler(tmp_path_factory.mktemp("cuda-device-math"), device_math)


def device_function(device_math: DeviceMath, name: str, dtype: str, arity: int
                    ) -> Callable[..., numpy.ndarray]:
    """libdevice's `name` for `dtype`, applied element by element."""
    c_type = ctypes.c_float if dtype == "float32" else ctypes.c_double
    function = getattr(ctypes.CDLL(str(device_math.library)),
                       f"__nv_{name}{'f' if dtype == 'float32' else ''}")
    function.restype, function.argtypes = c_type, [c_type] * arity
    return lambda *arrays: numpy.array(
        [function(*values) for values in zip(*(a.tolist() for a in arrays), strict=True)],
        dtype)


def inputs(dtype: str, count: int, seed: int) -> numpy.ndarray:
    """Values on every path of the functions: near zero, moderate, large (the trigonometric
    functions' slow argument reduction), subnormal, and the special values."""
    rng = numpy.random.default_rng(seed)
    info = numpy.finfo(dtype)
    kinds = [rng.standard_normal(count) * 8, rng.uniform(-1, 1, count),
             numpy.exp(rng.uniform(0, numpy.log(float(info.max)) * 0.9, count))
             * rng.choice([-1, 1], count),
             rng.uniform(-4, 4, count) * float(info.smallest_subnormal) * 64]
    out = numpy.choose(rng.integers(0, len(kinds), count), kinds).astype(dtype)
    specials = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5], dtype)
    out[rng.integers(0, count, count // 10)] = rng.choice(specials, count // 10)
    return out


def functions_spec(dtype: str) -> tuple[KernelSpec, list[tuple[str, str]]]:
    """One kernel applying every function to its inputs, each result stored, and `exp(x) * y +
    x` (rounded operation by operation) last; with the (operation, C name) of each output."""
    nodes: list[tuple[str, str, tuple[tuple[int, int], ...]]] = []
    outputs = []
    for op, name in UNARY.items():
        assert op in UNARY_OPS and _core.c_supports(f"UNARY_OP.{op}", dtype, [dtype]), op
        nodes.append((f"UNARY_OP.{op}", dtype, ((ARG, 0),)))
        outputs.append((op, name))
    for op, name in BINARY.items():
        assert op in BINARY_OPS and _core.c_supports(f"BINARY_OP.{op}", dtype, [dtype, dtype])
        nodes.append((f"BINARY_OP.{op}", dtype, ((ARG, 0), (ARG, 1))))
        outputs.append((op, name))
    exp = list(UNARY).index("EXP")
    nodes += [("BINARY_OP.MULTIPLY", dtype, ((REGISTER, exp), (ARG, 1))),
              ("BINARY_OP.ADD", dtype, ((REGISTER, len(nodes)), (ARG, 0)))]
    stored = [*range(len(outputs)), len(nodes) - 1]
    outputs.append(("CHAIN", "exp"))
    args = [(IN, dtype, False), (IN, dtype, False)] + [(OUT, dtype, False) for _ in stored]
    spec = KernelSpec(tuple(args), (), tuple(nodes), tuple((2 + i, node) for i, node in
                                                           enumerate(stored)), ())
    return spec, outputs


def expected(device_math: DeviceMath, op: str, name: str, dtype: str, x: numpy.ndarray,
             y: numpy.ndarray) -> numpy.ndarray:
    """What cuPyNumeric's GPU kernels compute, one operation at a time."""
    if op == "CHAIN":
        with numpy.errstate(all="ignore"):
            return device_function(device_math, name, dtype, 1)(x) * y + x
    if op == "POWER" and dtype == "float32":  # in double precision, as the C kernels
        wide = device_function(device_math, name, "float64", 2)
        with numpy.errstate(all="ignore"):
            return wide(x.astype("float64"), y.astype("float64")).astype(dtype)
    operands = (x, y) if op in BINARY else (x,)
    with numpy.errstate(all="ignore"):
        return device_function(device_math, name, dtype, len(operands))(*operands)


def same_values(a: numpy.ndarray, b: numpy.ndarray) -> bool:
    """Bit for bit, NaN for NaN (the device's NaN payloads are not the host's concern)."""
    nan = numpy.isnan(a)
    return bool((nan == numpy.isnan(b)).all() and a[~nan].tobytes() == b[~nan].tobytes())


@pytest.mark.parametrize("dtype", FLOATS)
def test_every_function_computes_what_one_libdevice_call_per_element_computes(
        device_math: DeviceMath, host: KernelCache, dtype: str) -> None:
    spec, outputs = functions_spec(dtype)
    count = 3 * BLOCK + 17
    x, y = inputs(dtype, count, 1), inputs(dtype, count, 2)
    results = [numpy.zeros(count, dtype) for _ in outputs]
    cuda_on_host.run(host, spec, [x, y, *results], (count,))
    differs_from_host = []
    for (op, name), result in zip(outputs, results, strict=True):
        want = expected(device_math, op, name, dtype, x, y)
        assert same_values(result, want), f"{op} ({name}) in {dtype}"
        if op in UNARY:
            host_value = getattr(numpy, {"fabs": "abs", "asin": "arcsin", "acos": "arccos",
                                         "atan": "arctan", "asinh": "arcsinh",
                                         "acosh": "arccosh", "atanh": "arctanh"}.get(name, name))
            with numpy.errstate(all="ignore"):
                if not same_values(result, host_value(x)):
                    differs_from_host.append(name)
    # What is compared is the device's math: it rounds otherwise than the host's in places.
    assert {"exp", "sin", "tanh"} <= set(differs_from_host), differs_from_host


def ulps_apart(a: numpy.ndarray, b: numpy.ndarray) -> int:
    """The largest distance in units in the last place between finite values of one type."""
    signed = "int32" if a.dtype == numpy.float32 else "int64"
    low = -(1 << (a.itemsize * 8 - 1))

    def ordered(values: numpy.ndarray) -> list[int]:  # floats' order, -0 and +0 alike
        return [v if v >= 0 else low - v for v in values.view(signed).tolist()]

    return max((abs(p - q) for p, q in zip(ordered(a), ordered(b), strict=True)), default=0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_the_emulated_device_functions_are_within_their_documented_errors(
        device_math: DeviceMath, dtype: str) -> None:
    """The emulated instructions keep each function within the error CUDA documents for it:
    measured against the host C library's value in double precision (for float32) or in
    double-double (mpmath, for float64) on moderate inputs."""
    mpmath = pytest.importorskip("mpmath")
    count = 400
    rng = numpy.random.default_rng(3)
    x = (rng.standard_normal(count) * 4).astype(dtype)
    x[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, -3.5]  # ties, for the roundings
    y = rng.uniform(0.1, 3, count).astype(dtype)
    domain: dict[str, Callable[[numpy.ndarray], numpy.ndarray]] = {
        "log": abs, "log2": abs, "log10": abs, "sqrt": abs, "acosh": lambda v: 1 + abs(v),
              "log1p": lambda v: abs(v) - 0.5, "asin": numpy.tanh, "acos": numpy.tanh,
              "atanh": numpy.tanh, "pow": abs}
    exact = {"exp": mpmath.exp, "exp2": lambda v: mpmath.power(2, v), "expm1": mpmath.expm1,
             "log": mpmath.log, "log2": lambda v: mpmath.log(v, 2),
             "log10": mpmath.log10, "log1p": mpmath.log1p, "sin": mpmath.sin,
             "cos": mpmath.cos, "tan": mpmath.tan, "asin": mpmath.asin, "acos": mpmath.acos,
             "atan": mpmath.atan, "sinh": mpmath.sinh, "cosh": mpmath.cosh,
             "tanh": mpmath.tanh, "asinh": mpmath.asinh, "acosh": mpmath.acosh,
             "atanh": mpmath.atanh, "cbrt": lambda v: mpmath.sign(v) * mpmath.cbrt(abs(v)),
             "sqrt": mpmath.sqrt,
             "floor": mpmath.floor, "ceil": mpmath.ceil, "trunc": lambda v: int(v),
             "rint": mpmath.nint, "fabs": abs, "pow": mpmath.power, "atan2": mpmath.atan2,
             "hypot": mpmath.hypot, "copysign": lambda v, w: abs(v) * mpmath.sign(w),
             "fmod": lambda v, w: math.fmod(float(v), float(w))}  # exact in binary
    column = 0 if dtype == "float64" else 1
    mpmath.mp.prec = 120
    for name, reference in exact.items():
        arity = 2 if name in BINARY.values() else 1
        arguments = [numpy.asarray(domain.get(name, lambda v: v)(x)).astype(dtype), y][:arity]
        got = device_function(device_math, name, dtype, arity)(*arguments)
        want = numpy.array([float(reference(*(mpmath.mpf(float(v)) for v in values)))
                            for values in zip(*arguments, strict=True)]).astype(dtype)
        finite = numpy.isfinite(want) & numpy.isfinite(got)
        assert finite.mean() > 0.9, name
        worst = ulps_apart(got[finite], want[finite])
        # The reference is rounded once more to the type: half an ulp of slack.
        assert worst <= DOCUMENTED_ULPS[name][column] + 1, f"{name} {dtype}: {worst} ulps"


def test_the_functions_that_use_approximate_device_instructions_are_known(
        device_math: DeviceMath) -> None:
    """Which functions reach an approximate instruction (emulated by its exact value, so that
    the host may differ from a GPU in rare last bits): none of exp, expm1, sin, cos in float64,
    the vector forms' most used functions; log, log1p, tanh and pow do."""
    for exact_everywhere in ("__nv_exp", "__nv_expm1", "__nv_sin", "__nv_cos", "__nv_sqrt",
                             "__nv_sinf", "__nv_cosf", "__nv_logf", "__nv_log1pf",
                             "__nv_expm1f"):
        assert not device_math.approximate_instructions(exact_everywhere), exact_everywhere
    assert device_math.approximate_instructions("__nv_log") == {"rcp.approx.ftz.d"}
    assert "ex2.approx.ftz.f32" in device_math.approximate_instructions("__nv_expf")


def test_libdevice_is_nvrtc_s_own_release() -> None:
    """The libdevice tested is the one of the NVRTC release the plugin compiles with."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        nvvm, nvrtc = version("nvidia-nvvm"), version("nvidia-cuda-nvrtc")
    except PackageNotFoundError:
        pytest.skip("nvidia-nvvm or NVRTC is not installed")
    assert nvvm.split(".")[:2] == nvrtc.split(".")[:2], (nvvm, nvrtc)
    assert Path(str(device_math_on_host.find_libdevice())).is_file()

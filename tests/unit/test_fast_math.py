"""LEGATE_FUSE_MATH=fast (backend/fast_math.py): kernels call the C library's vector math, and
each function stays within the stated bound of 4 ulp of the exact value, measured against
mpmath at 200 bits on sampled inputs, for float64 and float32. Without a vector math library
the tests are skipped, with the reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import mpmath
import numpy
import pytest

from legate_fuse.backend import fast_math
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, KernelSpec

from . import c_kernels
from .c_kernels import IN, OUT

STATED_ULP = 4.0  # glibc's documented bound for libmvec, and this mode's (docs/SETTINGS.md)

pytestmark = pytest.mark.skipif(not fast_math.available(),
                                reason="no vector math library (libmvec) on this machine")

# Operation, its C name, mpmath's function, the inputs' range (uniform, or log-uniform where
# the range is given as powers of ten, with a sign).
Case = tuple[str, str, Callable[..., object], tuple[float, float], bool]
CASES: list[Case] = [
    ("UNARY_OP.EXP", "exp", mpmath.exp, (-80.0, 80.0), False),
    ("UNARY_OP.EXP2", "exp2", lambda x: mpmath.power(2, x), (-100.0, 100.0), False),
    ("UNARY_OP.EXPM1", "expm1", mpmath.expm1, (-20.0, 20.0), False),
    ("UNARY_OP.LOG", "log", mpmath.log, (-30.0, 30.0), True),
    ("UNARY_OP.LOG2", "log2", lambda x: mpmath.log(x, 2), (-30.0, 30.0), True),
    ("UNARY_OP.LOG10", "log10", mpmath.log10, (-30.0, 30.0), True),
    ("UNARY_OP.LOG1P", "log1p", mpmath.log1p, (-0.99, 100.0), False),
    ("UNARY_OP.SIN", "sin", mpmath.sin, (-1000.0, 1000.0), False),
    ("UNARY_OP.COS", "cos", mpmath.cos, (-1000.0, 1000.0), False),
    ("UNARY_OP.TAN", "tan", mpmath.tan, (-1.5, 1.5), False),
    ("UNARY_OP.ARCSIN", "asin", mpmath.asin, (-1.0, 1.0), False),
    ("UNARY_OP.ARCCOS", "acos", mpmath.acos, (-1.0, 1.0), False),
    ("UNARY_OP.ARCTAN", "atan", mpmath.atan, (-100.0, 100.0), False),
    ("UNARY_OP.SINH", "sinh", mpmath.sinh, (-80.0, 80.0), False),
    ("UNARY_OP.COSH", "cosh", mpmath.cosh, (-80.0, 80.0), False),
    ("UNARY_OP.TANH", "tanh", mpmath.tanh, (-20.0, 20.0), False),
    ("UNARY_OP.ARCSINH", "asinh", mpmath.asinh, (-1000.0, 1000.0), False),
    ("UNARY_OP.ARCCOSH", "acosh", mpmath.acosh, (1.0, 1000.0), False),
    ("UNARY_OP.ARCTANH", "atanh", mpmath.atanh, (-0.999, 0.999), False),
    # mpmath's cube root of a negative number is the complex principal one.
    ("UNARY_OP.CBRT", "cbrt", lambda x: mpmath.sign(x) * mpmath.cbrt(abs(x)), (-1000.0, 1000.0),
     False),
]
SAMPLES = 3000


def inputs(low: float, high: float, logarithmic: bool, dtype: str, seed: int) -> numpy.ndarray:
    rng = numpy.random.default_rng(seed)
    drawn = rng.uniform(low, high, SAMPLES)
    if logarithmic:
        drawn = 10.0 ** drawn
    return drawn.astype(dtype)


def ulp_errors(got: numpy.ndarray, x: numpy.ndarray, reference: Callable[..., object]
               ) -> numpy.ndarray:
    """|got - f(x)| in units of the last place of f(x) in got's precision (f(x) exact to 200
    bits)."""
    errors = numpy.empty(len(got))
    with mpmath.workprec(200):
        for i, (value, argument) in enumerate(zip(got.tolist(), x.tolist(), strict=True)):
            exact = reference(mpmath.mpf(argument))
            rounded = numpy.array(float(exact)).astype(got.dtype)  # type: ignore[arg-type]
            spacing = float(numpy.spacing(numpy.abs(rounded)))
            errors[i] = float(abs(mpmath.mpf(value) - exact)) / spacing  # type: ignore[operator]
    return errors


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> object:
    return KernelCompiler(tmp_path_factory.mktemp("fast-kernels"), math="fast")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_function_is_vectorised_and_within_the_stated_ulps(fast: object, dtype: str
                                                                 ) -> None:
    count = len(CASES)
    spec = KernelSpec(tuple([(IN, dtype, False)] * count + [(OUT, dtype, False)] * count), (),
                      tuple((op, dtype, ((ARG, k),)) for k, (op, *_) in enumerate(CASES)),
                      tuple((count + k, k) for k in range(count)), ())
    arrays = [inputs(low, high, log, dtype, k)
              for k, (_, _, _, (low, high), log) in enumerate(CASES)]
    arrays += [numpy.zeros(SAMPLES, dtype) for _ in CASES]
    c_kernels.run(fast, spec, arrays, (SAMPLES,))  # type: ignore[arg-type]
    library = Path(fast.build(spec.render_c())).read_bytes()  # type: ignore[attr-defined]
    suffix = "f" if dtype == "float32" else ""
    worst = {}
    for k, (_, name, reference, _, _) in enumerate(CASES):
        if f"{name}{suffix}" in fast_math.vector_functions():
            assert f"_{name}{suffix}".encode() in library and b"_ZGV" in library, name
        worst[name] = float(ulp_errors(arrays[count + k], arrays[k], reference).max())
    assert max(worst.values()) <= STATED_ULP, worst


def test_pow_is_within_the_stated_ulps(fast: object) -> None:
    spec = KernelSpec(((IN, "float64", False), (IN, "float64", False), (OUT, "float64", False)),
                      (), (("BINARY_OP.POWER", "float64", ((ARG, 0), (ARG, 1))),), ((2, 0),),
                      ())
    base = inputs(-3.0, 3.0, True, "float64", 1)
    exponent = inputs(-20.0, 20.0, False, "float64", 2)
    out = numpy.zeros(SAMPLES)
    c_kernels.run(fast, spec, [base, exponent, out], (SAMPLES,))  # type: ignore[arg-type]
    errors = numpy.empty(SAMPLES)
    with mpmath.workprec(200):
        for i in range(SAMPLES):
            exact = mpmath.power(mpmath.mpf(float(base[i])), mpmath.mpf(float(exponent[i])))
            errors[i] = float(abs(mpmath.mpf(float(out[i])) - exact)) / float(
                numpy.spacing(abs(float(exact))))
    assert errors.max() <= STATED_ULP


def test_exact_mode_is_the_c_library_bit_for_bit(compiler: KernelCompiler,
                                                 fast: object) -> None:
    """The same kernel in exact mode gives the C library's values (NumPy calls the same
    functions here); in fast mode some differ: the mode changes what is computed."""
    spec = KernelSpec(((IN, "float64", False), (OUT, "float64", False)), (),
                      (("UNARY_OP.SIN", "float64", ((ARG, 0),)),), ((1, 0),), ())
    x = inputs(-1000.0, 1000.0, False, "float64", 3)
    exact, quick = numpy.zeros(SAMPLES), numpy.zeros(SAMPLES)
    c_kernels.run(compiler, spec, [x, exact], (SAMPLES,))
    c_kernels.run(fast, spec, [x, quick], (SAMPLES,))  # type: ignore[arg-type]
    assert exact.tobytes() == numpy.sin(x).tobytes()
    assert quick.tobytes() != exact.tobytes()

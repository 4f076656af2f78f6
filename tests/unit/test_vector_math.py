"""The vector forms of float64 exp and log (codegen/c_vector_math.h) and the checks that guard
them."""

from __future__ import annotations

import ctypes
import ctypes.util
import re
from pathlib import Path

import numpy
import pytest

from legate_fuse import _core
from legate_fuse.backend import libm_tables, vector_math
from legate_fuse.backend.compiler import KernelCache
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.plan.kernel_spec import ARG, REGISTER, KernelSpec

from .c_kernels import IN, OUT, run
from .repository_scripts import load_script
from .test_staged_loops import STAGED, inputs, strided_copy


def generator() -> object:
    return load_script("gen_exp_table")


def test_the_table_in_the_kernels_is_2_to_the_i_over_128() -> None:
    table = re.search(r"lf_exp_table\[256\] = \{([^}]*)\}", _core.vector_math_check_program("exp"))
    assert table is not None
    words = [int(w, 16) for w in re.findall(r"0x([0-9a-f]{16})ULL", table.group(1))]
    assert words == generator().exp_table()  # type: ignore[attr-defined]
    # Spot check: entry 64 is 2^(1/2) = sqrt(2), its bits minus 64 << 45.
    assert words[129] + (64 << 45) == numpy.float64(numpy.sqrt(2.0)).view(numpy.uint64)


def verdict_of(source: str, tmp_path: Path) -> str:
    cache = KernelCache(tmp_path, ".verdict", lambda: {}, vector_math.check_producer("cc"))
    return cache.build(source).read_text()


def test_the_check_finds_a_vector_form_that_rounds_differently(tmp_path: Path) -> None:
    # The last step unfused, as the C library's build for CPUs without FMA computes it: most
    # results still agree, some do not, and the check must say so.
    source = _core.vector_math_check_program("exp")
    assert "return fma(scale, tmp, scale);" in source
    broken = source.replace("return fma(scale, tmp, scale);", "return scale + scale * tmp;")
    verdict = verdict_of(broken, tmp_path)
    assert verdict.startswith("different") and "C library" in verdict


def test_a_check_that_cannot_be_compiled_means_no_vector_form(tmp_path: Path) -> None:
    vector_math._verdicts.clear()
    try:
        assert not vector_math.vector_form_available("exp", tmp_path, "false")
        source = STAGED.render_c()
        assert vector_math.kernel_prelude(source, tmp_path, "false") == (
            "#define LF_VECTOR_EXP 0\n#define LF_VECTOR_LOG 0\n")
    finally:
        vector_math._verdicts.clear()


def test_a_check_that_cannot_be_compiled_is_a_verdict_kept_in_the_cache(tmp_path: Path) -> None:
    """Kernels built in the background look verdicts up without running checks: a check that
    does not compile is kept as a failing verdict, found by later lookups, so that those
    kernels are built with the C library's function instead of waiting for it forever."""
    vector_math._verdicts.clear()
    try:
        for function in ("exp", "log"):
            assert vector_math.vector_form_available(function, tmp_path, "false") is False
        vector_math._verdicts.clear()
        assert vector_math.vector_form_available("exp", tmp_path, "false",
                                                 may_check=False) is False
        assert vector_math.kernel_prelude(STAGED.render_c(), tmp_path, "false",
                                          may_check=False) == (
            "#define LF_VECTOR_EXP 0\n#define LF_VECTOR_LOG 0\n")
    finally:
        vector_math._verdicts.clear()


def test_a_kernel_without_vector_calls_runs_no_check(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the functions a kernel calls in vector form are checked, when it is first built:
    a kernel of arithmetic alone is compiled as it is (a program's first kernel does not wait
    for every check)."""
    asked: list[str] = []
    monkeypatch.setattr(vector_math, "vector_form_available",
                        lambda function, *_: asked.append(function) or True)
    plain = KernelSpec(args=((IN, "float64", False), (OUT, "float64", False)), scalar_types=(),
                       nodes=(("BINARY_OP.MULTIPLY", "float64", ((ARG, 0), (ARG, 0))),),
                       stores=((1, 0),), reductions=())
    assert vector_math.kernel_prelude(plain.render_c(), tmp_path, "cc") == ""
    assert asked == []
    prelude = vector_math.kernel_prelude(STAGED.render_c(), tmp_path, "cc")
    assert asked == ["exp", "log"]
    assert "#define LF_VECTOR_LOG 1" in prelude and "lf_log_data" in prelude


def glibc_with_fma() -> bool:
    """Whether this process runs glibc's libm on a CPU with FMA: where the vector forms were
    written from, so their checks must pass."""
    libraries = vector_math.c_math_libraries()
    with open("/proc/cpuinfo") as cpuinfo:
        fma = " fma " in cpuinfo.read()
    return fma and len(libraries) == 1 and "libm.so.6" in libraries[0]


@pytest.mark.parametrize("function", vector_math.FUNCTIONS)
def test_the_vector_forms_round_as_this_machines_c_library(tmp_path: Path, function: str) -> None:
    """On the machines the tests run on (glibc, FMA), each form rounds as the library (used or
    not: only where it is also faster here): a vector form that stopped agreeing with the
    library (a changed operation, bound or table entry) fails its check."""
    if not glibc_with_fma():
        pytest.skip("not glibc's libm on a CPU with FMA")
    assert rounds_as_the_library(function, tmp_path)


def rounds_as_the_library(function: str, tmp_path: Path) -> bool:
    return verdict_of(vector_math.check_source(function), tmp_path).startswith(vector_math.PASSED)


def test_a_vector_form_slower_than_the_library_here_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check times the form as kernels call it against the library, on this machine: one
    made slower (three more library calls per value in its timed loop) rounds as before but
    is not used (without AVX-512, the expm1 and tanh forms are slower than glibc's)."""
    source = vector_math.check_source("exp")
    timed = "out[i] = lf_exp_common(x[i]);"
    assert timed in source
    slowed = source.replace(timed, "out[i] = lf_exp_common(x[i]) + 0.0 * (exp(x[i] + 1.0) + "
                                   "exp(x[i] + 2.0) + exp(x[i] + 3.0));", 1)
    assert verdict_of(slowed, tmp_path / "alone").startswith(vector_math.SLOWER)
    monkeypatch.setattr(vector_math, "check_source", lambda function: slowed)
    vector_math._verdicts.clear()
    try:
        assert vector_math.vector_form_available("exp", tmp_path, "cc") is False
        assert "#define LF_VECTOR_EXP 0" in vector_math.kernel_prelude(STAGED.render_c(),
                                                                       tmp_path, "cc")
    finally:
        vector_math._verdicts.clear()


def test_the_log_table_is_found_in_a_library_and_nowhere_else() -> None:
    library = vector_math.c_math_libraries()[0]
    if not glibc_with_fma():
        pytest.skip("not glibc's libm")
    words = libm_tables.data("log", library)
    assert words is not None and len(words) == libm_tables.LOG_DATA_WORDS
    table = numpy.array(words, dtype=numpy.uint64).view(numpy.float64)
    invc, logc = table[18::2], table[19::2]
    # 1/c and log(c) of the same c, c across [0x1.6p-1, 0x1.6p0): each log(c) within an ulp of
    # NumPy's log of 1/invc (c is not exactly 1/invc, but nearly so).
    assert numpy.allclose(logc, -numpy.log(invc), rtol=0, atol=1e-15)
    assert 1 / invc.max() > 0.68 and 1 / invc.min() < 1.38
    # Bytes without the struct, or with its marker and a wrong poly1[0]: nothing.
    assert libm_tables.find_log_data(bytes(4096)) is None
    lookalike = numpy.ones(libm_tables.LOG_DATA_WORDS)
    lookalike[:2] = libm_tables.LN2_HI, libm_tables.LN2_LO
    assert libm_tables.find_log_data(lookalike.tobytes()) is None  # poly1[0] is not -0.5
    lookalike[libm_tables.POLY1_FIRST_INDEX] = -0.5
    assert libm_tables.find_log_data(lookalike.tobytes()) == tuple(
        lookalike.view(numpy.uint64).tolist())


def test_the_float32_tables_are_found_in_a_library_and_nowhere_else() -> None:
    if not glibc_with_fma():
        pytest.skip("not glibc's libm")
    library = vector_math.c_math_libraries()[0]
    expf = libm_tables.data("expf", library)
    assert expf is not None and expf[:32] == libm_tables.expf_table()
    constants = numpy.array(expf[32:], dtype=numpy.uint64).view(numpy.float64)
    assert float.fromhex("0x1.8p52") in constants  # the rounding shift the algorithm adds
    assert numpy.isclose(constants, 32 / numpy.log(2.0), rtol=1e-15).any()  # 1/ln2 * 32
    logf = libm_tables.data("logf", library)
    assert logf is not None and len(logf) == libm_tables.LOGF_DATA_WORDS
    table = numpy.array(logf, dtype=numpy.uint64).view(numpy.float64)
    assert table[32] == numpy.log(2.0)
    assert numpy.allclose(table[1:32:2], -numpy.log(table[0:32:2]), rtol=0, atol=1e-7)
    # Bytes without the structs: nothing; 16 pairs that are not (1/c, log c): nothing.
    assert libm_tables.find_expf_data(bytes(4096)) is None
    assert libm_tables.find_logf_data(bytes(4096)) is None
    lookalike = table.copy()
    lookalike[3] += 0.5  # a logc that is not the logarithm of its 1/invc
    assert libm_tables.find_logf_data(lookalike.tobytes()) is None
    assert libm_tables.find_logf_data(table.tobytes()) == logf


@pytest.mark.parametrize("function", ["expf", "logf"])
def test_the_check_finds_a_float32_form_that_rounds_differently(tmp_path: Path,
                                                                function: str) -> None:
    """Two of the polynomial's coefficients swapped: each check finds differences."""
    if vector_math.table(function) is None:
        pytest.skip(f"no {function} table in this C library")
    source = vector_math.preamble(function) + _core.vector_math_check_program(function)
    mutated = {"expf": ("fma(LF_EXPF_D(37), r, LF_EXPF_D(38))",
                        "fma(LF_EXPF_D(38), r, LF_EXPF_D(37))"),
               "logf": ("fma(r, LF_LOGF_D(34), LF_LOGF_D(35))",
                        "fma(r, LF_LOGF_D(35), LF_LOGF_D(34))")}[function]
    assert mutated[0] in source
    verdict = verdict_of(source.replace(*mutated), tmp_path)
    assert verdict.startswith("different") and "C library" in verdict


def test_the_check_finds_a_log_that_rounds_differently(tmp_path: Path) -> None:
    """A near-one bound one step too low sends x in [0x1.108p0, 0x1.109p0) down the table
    path, which rounds differently from the library for some of them."""
    if vector_math.table("log") is None:
        pytest.skip("no log table in this C library")
    source = vector_math.preamble("log") + _core.vector_math_check_program("log")
    assert "0x3ff1090000000000ULL" in source
    verdict = verdict_of(source.replace("0x3ff1090000000000ULL", "0x3ff1080000000000ULL"),
                         tmp_path)
    assert verdict.startswith("different") and "C library" in verdict


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("available", [False, True])
def test_kernels_agree_with_and_without_the_vector_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, available: bool
) -> None:
    if available and not all(rounds_as_the_library(f, tmp_path / f"check-{f}")
                             for f in vector_math.FUNCTIONS):
        pytest.skip("a vector form does not round as this machine's C library")
    monkeypatch.setattr(vector_math, "vector_form_available", lambda *_: available)
    compiler = KernelCompiler(tmp_path / "kernels")
    x, y = inputs(1000)
    results = []
    for layout in (numpy.ascontiguousarray, strided_copy):  # staged (vector) vs one loop
        xs, ys, out, total = layout(x.copy()), layout(y.copy()), layout(numpy.zeros(1000)), \
            numpy.array(0.0)
        run(compiler, STAGED, [xs, ys, out, total], (1000,), (0.25,))
        results.append((out.tobytes(), total.tobytes()))
    assert results[0] == results[1]
    prelude = vector_math.kernel_prelude(STAGED.render_c(), tmp_path / "kernels", "cc")
    assert f"#define LF_VECTOR_EXP {int(available)}" in prelude
    assert f"#define LF_VECTOR_LOG {int(available)}" in prelude
    assert ("lf_log_data" in prelude) == available


@pytest.mark.parametrize(("function", "original", "mutated"), [
    # A multiply-add the library's build fuses, rounded on its own.
    ("expm1", "fma(-rat, half_r, 3.0)", "3.0 - rat * half_r"),
    # The formula of k from 2 to 19 taken for k = -2 as well.
    ("expm1", "LF_MASK(k <= -2 || k > 56)", "LF_MASK(k <= -3 || k > 56)"),
    # tanh's formula from |x| = 1 on, taken from 1/2.
    ("tanh", "LF_MASK(magnitude >= 1.0)", "LF_MASK(magnitude >= 0.5)"),
    # A product the library rounds on its own (it is used across a branch), fused.
    ("log1p", "k_zero = f - (hfsq - sR)", "k_zero = f - fma(-s, hfsq + R, hfsq)"),
    # The correction for the rounding of 1 + x left out.
    ("log1p", "LF_SELECT(huge, 0.0, rounding / u)", "0.0"),
    # float32: a product rounded on its own, fused as the library's plain SSE build does not.
    ("expm1f", "const float t = 3.0f - rat * half_r;",
     "const float t = fmaf(-rat, half_r, 3.0f);"),
    ("log1pf", "LF_SELECT32(huge, 0.0f, rounding / u)", "0.0f"),
    ("tanhf", "LF_MASK32(magnitude >= 1.0f)", "LF_MASK32(magnitude >= 0.5f)"),
    # sin and cos: the table path's multiply-adds rounded apart; the Taylor bound moved.
    ("sin", "const double cor = fma(s, cs, fma(-c, sn, fma(s, ccs, ssn)));",
     "const double cor = ((ssn + s * ccs) - sn * c) + cs * s;"),
    ("cos", "LF_MASK(fabs(a) < 0.126)", "LF_MASK(fabs(a) < 0.125)"),
    # sinf: the cosine polynomial not negated in quadrants 2 and 3; cosf: a coefficient
    # rounded to fewer bits.
    ("sinf", "LF_MASK((n & 2) != 0), -cosine_value", "LF_MASK(0), -cosine_value"),
    ("cosf", "fma(x2, -0x1.ffffffd0c621cp-2, 1.0)", "fma(x2, -0x1.ffffffdp-2, 1.0)"),
    # pow: the tail of y log(x) left out of exp's argument.
    ("pow", "const double rr = elo + reduced;", "const double rr = reduced;"),
])
def test_the_check_finds_an_fdlibm_form_that_rounds_differently(
    tmp_path: Path, function: str, original: str, mutated: str
) -> None:
    if function in libm_tables.FINDERS and vector_math.table(function) is None:
        pytest.skip(f"no {function} table in this C library")
    source = vector_math.preamble(function) + _core.vector_math_check_program(function)
    assert source.count(original) == 1
    verdict = verdict_of(source.replace(original, mutated), tmp_path)
    assert verdict.startswith("different") and "C library" in verdict


@pytest.mark.parametrize(("functions", "low", "high"), [
    (("tanh", "expm1", "log1p"), -1.5, 30.0),
    (("sin", "cos"), -1e4, 1e4),
])
def test_kernels_use_the_vector_forms_of_the_functions_they_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, functions: tuple[str, ...], low: float,
    high: float
) -> None:
    """A kernel summing float64 functions of one value runs their vector forms in a staged
    loop; its prelude enables each by its own verdict (tanh's form computes expm1's helpers too)
    and defines the tables it reads; the sums are the C library's, bit for bit."""
    if any(f in libm_tables.FINDERS and vector_math.table(f) is None for f in functions):
        pytest.skip("a table is missing from this C library")
    monkeypatch.setattr(vector_math, "vector_form_available", lambda function, *_: True)
    nodes = [(f"UNARY_OP.{functions[0].upper()}", "float64", ((ARG, 0),))]
    for f in functions[1:]:
        nodes.append((f"UNARY_OP.{f.upper()}", "float64", ((ARG, 0),)))
        nodes.append(("BINARY_OP.ADD", "float64", ((REGISTER, len(nodes) - 2),
                                                   (REGISTER, len(nodes) - 1))))
    spec = KernelSpec(args=((IN, "float64", False), (OUT, "float64", False)), scalar_types=(),
                      nodes=tuple(nodes), stores=((1, len(nodes) - 1),), reductions=())
    source = spec.render_c()
    assert all(f"lf_{f}_common(" in source for f in functions)
    prelude = vector_math.kernel_prelude(source, tmp_path, "cc")
    assert all(f"#define LF_VECTOR_{f.upper()} 1\n" in prelude for f in functions)
    compiler = KernelCompiler(tmp_path / "kernels")
    x = numpy.random.default_rng(3).uniform(low, high, 1000)
    x[::97] = numpy.nan
    out = numpy.zeros(1000)
    run(compiler, spec, [x, out], (1000,))
    # The C library's functions (NumPy's tanh is its own vector code, not the library's).
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    for name in functions:
        getattr(libm, name).restype = ctypes.c_double
        getattr(libm, name).argtypes = (ctypes.c_double,)
    want = []
    for v in x:
        total = getattr(libm, functions[0])(v)
        for name in functions[1:]:
            total = total + getattr(libm, name)(v)
        want.append(total)
    assert out.tobytes() == numpy.array(want).tobytes()


def test_the_sincos_table_is_found_in_a_library_and_nowhere_else() -> None:
    if not glibc_with_fma():
        pytest.skip("not glibc's libm")
    library = vector_math.c_math_libraries()[0]
    words = libm_tables.data("sin", library)
    assert words is not None and len(words) == libm_tables.SINCOS_DATA_WORDS
    assert libm_tables.data("cos", library) == words
    table = numpy.array(words, dtype=numpy.uint64).view(numpy.float64).reshape(-1, 4)
    points = numpy.arange(libm_tables.SINCOS_ENTRIES) / 128
    assert numpy.allclose(table[:, 0], numpy.sin(points), rtol=0, atol=1e-16)
    assert numpy.allclose(table[:, 2], numpy.cos(points), rtol=0, atol=1e-16)
    # Bytes without the table: nothing; an entry whose cosine is off by 2^-40: nothing.
    assert libm_tables.find_sincos_data(bytes(8192)) is None
    lookalike = table.copy()
    lookalike[57, 2] += 2.0 ** -40
    assert libm_tables.find_sincos_data(lookalike.tobytes()) is None
    assert libm_tables.find_sincos_data(table.tobytes()) == words


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_power_kernel_uses_the_vector_pow_where_its_check_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dtype: str
) -> None:
    """x ** y of float64 arrays runs pow's vector form (two operands; its special test also
    reads its value): the C library's pow bit for bit, off the common path included (negative
    and zero x, NaN, infinities, exponents that overflow, underflow or are tiny). float32
    arrays run the same form on their values widened to double, its result rounded to float,
    as cuPyNumeric computes them."""
    if vector_math.table("pow") is None:
        pytest.skip("no pow table in this C library")
    monkeypatch.setattr(vector_math, "vector_form_available", lambda function, *_: True)
    spec = KernelSpec(args=((IN, dtype, False), (IN, dtype, False),
                            (OUT, dtype, False)), scalar_types=(),
                      nodes=(("BINARY_OP.POWER", dtype, ((ARG, 0), (ARG, 1))),),
                      stores=((2, 0),), reductions=())
    source = spec.render_c()
    assert "lf_pow_common(" in source and "lf_pow_special(" in source
    prelude = vector_math.kernel_prelude(source, tmp_path, "cc")
    assert "#define LF_VECTOR_POW 1\n" in prelude and "lf_pow_data" in prelude
    rng = numpy.random.default_rng(5)
    x = numpy.concatenate([rng.uniform(0.0, 10.0, 700), rng.uniform(-3.0, 3.0, 100),
                           [0.0, -0.0, numpy.inf, numpy.nan, 1.0, 2.0, 1e300, 5e-324]])
    y = numpy.concatenate([rng.uniform(-30.0, 30.0, 600), numpy.round(rng.uniform(-5, 5, 200)),
                           [2.0, -1.0, 0.5, 1e300, 1e-30, numpy.nan, 3000.0, -3000.0]])
    x, y = x.astype(dtype), y.astype(dtype)
    out = numpy.zeros(x.size, dtype=dtype)
    run(KernelCompiler(tmp_path / "kernels"), spec, [x, y, out], (x.size,))
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.pow.restype = ctypes.c_double
    libm.pow.argtypes = (ctypes.c_double, ctypes.c_double)
    want = numpy.array([libm.pow(float(a), float(b)) for a, b in zip(x, y, strict=True)])
    want = want.astype(dtype)
    assert out.tobytes() == want.tobytes()


def test_the_pow_table_is_found_in_a_library_and_nowhere_else() -> None:
    if not glibc_with_fma():
        pytest.skip("not glibc's libm")
    words = libm_tables.data("pow", vector_math.c_math_libraries()[0])
    assert words is not None and len(words) == libm_tables.POW_DATA_WORDS
    values = numpy.array(words, dtype=numpy.uint64).view(numpy.float64)
    assert values[2] == -0.5  # poly[0]
    assert numpy.allclose(values[11::4], -numpy.log(values[9::4]), rtol=0, atol=2.0 ** -20)
    # Bytes without the struct: nothing; log's own struct (the same ln 2 first): not taken.
    assert libm_tables.find_pow_data(bytes(8192)) is None
    lookalike = values.copy()
    lookalike[11 + 4 * 77] += 0.01  # a logc that is not the logarithm of its 1/invc
    assert libm_tables.find_pow_data(lookalike.tobytes()) is None
    assert libm_tables.find_pow_data(values.tobytes()) == words

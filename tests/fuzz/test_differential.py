"""Differential fuzzing: random programs (programs.py) give the same results with fusion on and
with fusion off, both cuPyNumeric in this process (`legate_fuse.disable()` between the runs),
and, secondarily, in NumPy.

Fusion on against off, value by value (see programs.Value): bit for bit (dtype, shape and
bytes, so NaNs in the same places with the same bits); within REDUCTION_RTOL once a fused
floating-point reduction flowed in; dtype and shape only once such a value went through a
discontinuous operation. The same exceptions must be raised by the same statements. Equal
results prove nothing if the fused run fused nothing (fusion switched off by mistake): a
program with work the plugin must fuse (programs.expects_fusion: most programs) must launch a
fused task in its statements. The plugin runs at its default settings, each program starting
as in a new process (conftest.as_in_a_new_process); LEGATE_FUSE_PAYOFF=0 fuses every window.

Against NumPy: values equal (NaN-aware) or within NUMPY_RTOL by their level; not compared
where cuPyNumeric itself may differ from NumPy (integer overflow, casts of NaN..., a result
dtype other than NumPy's), nor at all in a program where cuPyNumeric and NumPy raise at
different statements.

LEGATE_FUSE_FUZZ_EXAMPLES sets the number of programs on one CPU (default: a CI budget),
LEGATE_FUSE_FUZZ_EXAMPLES_2CPU the number run in a separate two-CPU Legate process (default:
a CI budget; 0 skips it). LEGATE_FUSE_FUZZ_LAST names a file each program is appended to before
it runs: after a crash (a signal in a kernel) it ends with the program that crashed, after
those that ran before it in the process (scripts/fuzz_minimize.py shrinks them).
LEGATE_FUSE_FUZZ_NUMPY_REPORT names a file that collects the differences between cuPyNumeric
without the plugin and NumPy instead of failing on them (for long campaigns: they are not the
plugin's). Runs of the
default size are derandomized (the same programs every time); larger campaigns draw new
programs, or those of LEGATE_FUSE_FUZZ_SEED if set.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cupynumeric
import numpy
import pytest
from hypothesis import HealthCheck, example, given, seed, settings

import legate_fuse

from . import conftest
from .programs import (
    BITWISE,
    CLOSE,
    LOOSE,
    Program,
    Value,
    expects_fusion,
    programs,
    run,
    source,
)
from .regressions import REGRESSIONS

# Hypothesis seeds NumPy's global generator, which Legate warns about (ranks could diverge);
# the programs themselves draw no random numbers from it. NumPy warns about overflow, division
# by zero and invalid values, which the programs make on purpose.
pytestmark = [pytest.mark.filterwarnings("ignore:(?s).*Seeding the random number generator"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

DEFAULT_EXAMPLES, DEFAULT_EXAMPLES_2CPU = 250, 40
EXAMPLES = int(os.environ.get("LEGATE_FUSE_FUZZ_EXAMPLES", DEFAULT_EXAMPLES))
EXAMPLES_2CPU = int(os.environ.get("LEGATE_FUSE_FUZZ_EXAMPLES_2CPU", DEFAULT_EXAMPLES_2CPU))
SEED = os.environ.get("LEGATE_FUSE_FUZZ_SEED")
# A file each program is appended to before it runs (the last one crashed, after a crash).
LAST = os.environ.get("LEGATE_FUSE_FUZZ_LAST")
# A file that collects the programs whose results without the plugin differ from NumPy's
# (defects of cuPyNumeric, or of the fuzzer's model of it) instead of failing on them.
NUMPY_REPORT = os.environ.get("LEGATE_FUSE_FUZZ_NUMPY_REPORT")
SEPARATOR = "# ---\n"
# Set in the two-CPU process this test starts (it runs the one-CPU test there).
CHILD = "LEGATE_FUSE_FUZZ_CHILD"
# Bytes: cuPyNumeric splits arrays of 64 float64 elements and more across the two CPUs.
TWO_CPUS = "--cpus 2 --utility 1 --sysmem 4000 --logging gpu=none --min-cpu-chunk 512"

F64, F32, F16 = (numpy.dtype(t) for t in ("float64", "float32", "float16"))
REDUCTION_RTOL = {F64: 1e-12, F32: 1e-5, F16: 1e-2}
REDUCTION_ATOL = {F64: 1e-14, F32: 1e-6, F16: 1e-3}
NUMPY_RTOL = {F64: 1e-7, F32: 1e-3, F16: 1e-2}
NUMPY_ATOL = {F64: 1e-10, F32: 1e-5, F16: 1e-3}


def as_array(value: Any) -> numpy.ndarray:
    """A read Python value or an array, as an array (None as an empty one)."""
    if value is None:
        return numpy.zeros(0)
    return numpy.asarray(value)


def same_kind(got: Any, want: Any, what: str) -> tuple[numpy.ndarray, numpy.ndarray]:
    assert type(got) is type(want), f"{what}: {type(got).__name__} != {type(want).__name__}"
    a, b = as_array(got), as_array(want)
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    return a, b


def bits(value: Any) -> bytes:
    if isinstance(value, float):
        return struct.pack("<d", value)
    return as_array(value).tobytes()


def check_fusion(got: Any, want: Value, what: str) -> None:
    a, b = same_kind(got, want.data, what)
    if want.fuse == BITWISE or (want.fuse in (CLOSE, LOOSE) and a.dtype.kind not in "fc"):
        assert bits(got) == bits(want.data), \
            f"{what} differs bitwise:\n  fused   {a!r}\n  unfused {b!r}"
    elif want.fuse in (CLOSE, LOOSE):
        precision = F32 if want.fuse == LOOSE else numpy.finfo(a.dtype).dtype
        numpy.testing.assert_allclose(a, b, rtol=REDUCTION_RTOL[precision],
                                      atol=REDUCTION_ATOL[precision], equal_nan=True,
                                      err_msg=f"{what} (after a fused reduction)")


def check_numpy(got: Value, reference: Value, what: str) -> None:
    # Each run may know what the other cannot see without a read (NaN in NumPy's arrays).
    level = max(got.numpy, reference.numpy)
    if level > LOOSE:
        return
    want = reference.data
    if as_array(got.data).dtype != as_array(want).dtype:
        conftest.COUNTS["numpy_dtype_differs"] += 1  # cuPyNumeric's type promotion differs
        return
    a, b = same_kind(got.data, want, what)
    if level == BITWISE or a.dtype.kind not in "fc":
        numpy.testing.assert_array_equal(a, b, err_msg=what)
    else:
        precision = F32 if level == LOOSE else numpy.finfo(a.dtype).dtype
        numpy.testing.assert_allclose(a, b, rtol=NUMPY_RTOL[precision],
                                      atol=NUMPY_ATOL[precision], equal_nan=True, err_msg=what)


def compare(program: Program) -> None:
    if LAST:  # a crash (a signal in a kernel) shows no falsifying example: this file does
        with open(LAST, "a") as log:
            log.write(source(program) + "\n" + SEPARATOR)
    conftest.as_in_a_new_process()
    # The statements' fused launches, not the setup's (its copies and sum fuse too).
    before: dict[str, int] = {}

    def started() -> None:
        before["launches"] = legate_fuse.stats()["fused_launches"]

    fused, fused_errors = run(program, cupynumeric, started)
    launched = legate_fuse.stats()["fused_launches"] - before["launches"]
    legate_fuse.disable()
    try:
        unfused, unfused_errors = run(program, cupynumeric)
    finally:
        legate_fuse.enable()
    reference, numpy_errors = run(program, numpy)
    expected = expects_fusion(program, conftest.reads_before_unfused(), unfused_errors)
    where = f"program:\n{source(program)}\n(fused launches: {launched})"
    conftest.COUNTS["programs"] += 1
    conftest.COUNTS["fused_launches"] += launched
    conftest.COUNTS["programs_fused"] += launched > 0
    conftest.COUNTS["programs_expecting_fusion"] += expected
    conftest.COUNTS["statements_raising"] += len(unfused_errors)
    assert fused_errors == unfused_errors, f"exceptions differ; {where}"
    assert fused.keys() == unfused.keys(), where
    comparable = numpy_errors == unfused_errors and reference.keys() == unfused.keys()
    for name, want in unfused.items():
        if comparable:  # the NumPy run sees what the others cannot without a read (ties)
            want = replace(want, fuse=max(want.fuse, reference[name].fuse))
        check_fusion(fused[name].data, want, f"{name}; {where}")
    # Equal results say nothing if the fused run did not fuse (fusion switched off by mistake).
    assert launched > 0 or not expected, f"nothing fused in a program with fusible work; {where}"
    if not comparable:
        conftest.COUNTS["numpy_skipped"] += 1  # cuPyNumeric and NumPy raise differently
        return
    try:
        for name, got in unfused.items():
            check_numpy(got, reference[name], f"{name} vs NumPy; {where}")
    except AssertionError as error:
        if not NUMPY_REPORT:
            raise
        conftest.COUNTS["numpy_differs"] += 1  # cuPyNumeric itself (fusion off) vs NumPy
        with open(NUMPY_REPORT, "a") as report:
            report.write(f"{error}\n{SEPARATOR}")


def with_regressions(test: Any) -> Any:
    for program in REGRESSIONS:
        test = example(program)(test)
    return test


def _seeded(test: Any) -> Any:
    return seed(int(SEED))(test) if SEED else test


@_seeded
@settings(max_examples=EXAMPLES, deadline=None,
          derandomize=EXAMPLES <= DEFAULT_EXAMPLES and not SEED,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@with_regressions
@given(programs())
def test_fusion_on_equals_fusion_off_and_numpy(program: Program) -> None:
    compare(program)


@pytest.mark.skipif(CHILD in os.environ or EXAMPLES_2CPU == 0,
                    reason="the two-CPU process itself, or not asked for")
def test_on_two_cpus() -> None:
    """The same test in a fresh Legate process with two CPUs, arrays split between them."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ.update(LEGATE_CONFIG=TWO_CPUS, LEGATE_FUSE_FUZZ_EXAMPLES=str(EXAMPLES_2CPU),
                   LEGATE_FUSE_FUZZ_SEED=SEED or "2", **{CHILD: "1"})
    if LAST:
        environ["LEGATE_FUSE_FUZZ_LAST"] = LAST + ".2cpu"
    if NUMPY_REPORT:
        environ["LEGATE_FUSE_FUZZ_NUMPY_REPORT"] = NUMPY_REPORT + ".2cpu"
    root = Path(__file__).resolve().parents[2]
    test = f"{Path(__file__).relative_to(root)}::test_fusion_on_equals_fusion_off_and_numpy"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "-s", test], cwd=root, env=environ, capture_output=True, text=True,
                            timeout=120 + 10 * EXAMPLES_2CPU)
    sys.stdout.write(result.stdout[-2000:])
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-3000:]

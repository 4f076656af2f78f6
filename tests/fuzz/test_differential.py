"""Differential fuzzing: random programs give the same results with fusion on, with fusion
off and in NumPy. Bit for bit between fusion on and off, except where a reduction's result
flowed in (within REDUCTION_RTOL); within NUMPY_RTOL of NumPy.

LEGATE_FUSE_FUZZ_EXAMPLES sets the number of programs (default: a CI budget).
"""

from __future__ import annotations

import os
from typing import Any

import cupynumeric
import numpy
import pytest
from hypothesis import HealthCheck, example, given, settings

import legate_fuse

from .programs import Statement, programs, run, source
from .regressions import REGRESSIONS

# Hypothesis seeds NumPy's global generator, which Legate warns about (ranks could diverge);
# the programs themselves draw no random numbers from it.
pytestmark = pytest.mark.filterwarnings("ignore:(?s).*Seeding the random number generator")

EXAMPLES = int(os.environ.get("LEGATE_FUSE_FUZZ_EXAMPLES", "150"))
REDUCTION_RTOL = 1e-12
NUMPY_RTOL, NUMPY_ATOL = 1e-9, 1e-12


def compare(program: list[Statement]) -> None:
    before = legate_fuse.stats()["fused_launches"]
    fused = run(program, cupynumeric)
    launched = legate_fuse.stats()["fused_launches"] - before
    legate_fuse.disable()
    try:
        unfused = run(program, cupynumeric)
    finally:
        legate_fuse.enable()
    reference = run(program, numpy)
    where = f"program:\n{source(program)}\n(fused launches: {launched})"
    for name, (value, tainted) in unfused.items():
        got = fused[name][0]
        if tainted:
            numpy.testing.assert_allclose(got, value, rtol=REDUCTION_RTOL, atol=1e-15,
                                          err_msg=f"{name} differs; {where}")
        else:
            assert numpy.asarray(got).tobytes() == numpy.asarray(value).tobytes(), \
                f"{name} differs bitwise; {where}"
        numpy.testing.assert_allclose(got, reference[name][0], rtol=NUMPY_RTOL,
                                      atol=NUMPY_ATOL, err_msg=f"{name} vs NumPy; {where}")


def with_regressions(test: Any) -> Any:
    for program in REGRESSIONS:
        test = example(program)(test)
    return test


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 150,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@with_regressions
@given(programs())
def test_fusion_on_equals_fusion_off_and_numpy(program: list[Statement]) -> None:
    compare(program)

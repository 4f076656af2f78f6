"""A 0-d value a group computes and the program keeps (CG's `alpha = rho / (p @ q)`, kept by
the program while the updates of x and r read it): where each fused task runs as one point, the
group writes it once, after its loop (codegen/value_outputs.h), instead of its task running
alone. Every result is compared, bit for bit, with the same program run with fusion
disabled."""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.backend.launch import runs_one_point
from legate_fuse.plan.summary import PlanSummary

SIZE = 10_007  # more than a kernel's part, not a multiple of any tile
ALONE = "writes a 0-d value read after"


def cg_step(dtype: str) -> list[Any]:
    """One CG step whose `alpha` the program keeps past the read that ends the window."""
    p = np.array(numpy.linspace(0.5, 1.5, SIZE).astype(dtype))
    r = np.array(numpy.linspace(2.0, 0.25, SIZE).astype(dtype))
    x = np.zeros(SIZE, dtype=dtype)
    legate_fuse.flush()
    rho = np.dot(r, r)
    q = p * 4.0 - 1.0
    alpha = rho / np.dot(p, q)
    x += alpha * p
    r -= alpha * q
    residual = float(np.linalg.norm(r))  # the read: alpha is still the program's
    twice = alpha * 2.0  # read in a later window
    return [residual, float(alpha), float(twice), *numpy.asarray(x)[[0, 4_099, SIZE - 1]],
            *numpy.asarray(r)[[1, 8_191, SIZE - 2]]]


def bits(values: list[Any]) -> list[bytes]:
    return [numpy.asarray(value).tobytes() for value in values]


@pytest.mark.usefixtures("always_fuse")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_kept_value_is_written_by_its_group(plans: list[PlanSummary], dtype: str) -> None:
    fused = cg_step(dtype)
    legate_fuse.disable()
    try:
        unfused = cg_step(dtype)
    finally:
        legate_fuse.enable()
    assert bits(fused) == bits(unfused)
    reasons = [group[3] for plan in plans for group in plan.groups]
    divisions = [plan for plan in plans if "BINARY_OP.DIVIDE" in plan.ops]
    assert divisions, "the step was not planned"
    if runs_one_point():
        assert not any(ALONE in reason for reason in reasons), reasons
    else:  # each of several points would write it: its task runs alone
        assert any(ALONE in reason for reason in reasons), reasons

"""A fused task iterates over the domain of its partitioned stores: groups where the only
array is one the kernel never allocates, or the result of a product or a draw computed before
the kernel, still iterate over all of it (analysis/temporaries.cc, tasks/fused_task.cc).

Every one of these ran one element of the array before: `sum(arange(1000.0))` gave 0.0 fused,
`sum(X @ w)` the first row's value."""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import numpy
import pytest

from legate_fuse.plan.summary import PlanSummary

from . import compare


def fused_groups(plans: list[PlanSummary]) -> int:
    return sum(kind == "fused" for plan in plans for kind, _, _, _ in plan.groups)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32"])
def test_a_sum_of_a_range_never_allocated(always_fuse: Any, plans: list[PlanSummary],
                                          dtype: str) -> None:
    def program() -> list[Any]:
        return [np.sum(np.arange(1000, dtype=dtype)), np.sum(np.arange(7, dtype=dtype) * 3),
                np.max(np.arange(513, dtype=dtype) - 5), np.sum(np.linspace(0, 1, 101))]

    values = compare.run_both(program)
    assert fused_groups(plans) >= 3
    assert values[0] == numpy.sum(numpy.arange(1000, dtype=dtype))
    assert values[2] == 507


def test_a_sum_of_a_product_alone(always_fuse: Any, plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x, w = np.ones((100, 8)), np.arange(8.0)
        a, b = np.ones((20, 30)), np.ones((30, 10))
        return [np.sum(x @ w), np.sum(a @ b), np.max(np.exp(x @ w * 0.01))]

    values = compare.run_both(program)
    assert (values[0], values[1]) == (2800.0, 6000.0)
    assert fused_groups(plans) >= 2


def test_a_sum_of_a_draw_alone(always_fuse: Any, plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        g = np.random.default_rng(3)
        return [np.sum(g.random(1000) * 0.0 + 1.0), np.sum(g.random(5000) < 2.0),
                np.sum(g.random(999))]

    values = compare.run_both(program)
    assert (values[0], values[1]) == (1000.0, 5000)
    assert fused_groups(plans) >= 3

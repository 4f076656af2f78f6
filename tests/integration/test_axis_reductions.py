"""Reductions along an axis (`sum/prod/max/min/mean(axis=...)`, keepdims) fuse as the last
stage of a group, with the element-wise work producing what they reduce; the element-wise work
on their results follows in a later group. Bit for bit against fusion off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.plan.planner import PlanSummary
from legate_fuse.unfused import KERNEL_FAILED

from . import compare

REDUCTIONS: dict[str, Callable[..., Any]] = {
    "sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min,
}
DTYPES = ["float32", "float64", "int32", "int64"]


def fused_ops(plans: list[PlanSummary]) -> list[str]:
    """The operations of every task a plan fused."""
    return [plan.ops[t] for plan in plans for kind, tasks, _, _ in plan.groups
            if kind == "fused" for t in tasks]


def run_both(program: Callable[[], list[Any]]) -> None:
    """compare.run_both, and no axis reduction ran unfused because its kernel failed (the group
    would then run as built, and agree)."""
    compare.run_both(program)
    reasons = legate_fuse.stats()["unfused"].get("cupynumeric.UNARY_RED", {}).get("why", {})
    assert KERNEL_FAILED not in reasons, reasons


def grid(dtype: str, shape: tuple[int, ...] = (37, 11)) -> Any:
    """Values with a spread of magnitudes (an integer grid stays small enough for prod)."""
    size = int(numpy.prod(shape))
    if dtype.startswith("int"):
        return (np.arange(size, dtype=dtype) % 3 - 1).reshape(shape)
    return (np.sin(np.arange(size, dtype=dtype)) * 3.0).reshape(shape)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("axis", [0, 1])
def test_an_axis_reduction_fuses_with_its_producers(plans: list[PlanSummary], name: str,
                                                    dtype: str, axis: int) -> None:
    reduce = REDUCTIONS[name]

    def program() -> list[Any]:
        x = grid(dtype)
        y = x * x - x  # the producers, fused with the reduction
        r = reduce(y, axis=axis)
        return [r, r + 1]  # element-wise work on the result, after the group

    run_both(program)
    assert f"UNARY_RED.{name.upper()}" in fused_ops(plans)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axes_of_a_3d_array_and_keepdims(plans: list[PlanSummary], axis: int,
                                         keepdims: bool) -> None:
    def program() -> list[Any]:
        x = grid("float64", (5, 6, 7))
        s = np.sum(np.exp(x) + 1.0, axis=axis, keepdims=keepdims)
        m = np.max(x * 0.5, axis=axis, keepdims=keepdims)
        return [s, m, x - m if keepdims else s * 2.0]

    run_both(program)
    assert {"UNARY_RED.SUM", "UNARY_RED.MAX"} <= set(fused_ops(plans))


def test_centering_by_the_mean_of_each_column(plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x = grid("float64", (200, 9))
        mu = (x * 2.0).mean(axis=0)
        centered = x * 2.0 - mu  # reads the reduction's result: a later group
        scale = np.sqrt((centered * centered).sum(axis=0) / 200.0)
        return [mu, centered / scale]

    run_both(program)
    assert fused_ops(plans).count("UNARY_RED.SUM") == 2


def test_reductions_of_views_and_of_transposes() -> None:
    def program() -> list[Any]:
        x = grid("float64", (12, 10))
        a = (x[2:, 1:] * 3.0).sum(axis=1)
        b = np.min(x.T - 1.0, axis=0)
        c = np.max(x[::1, 4] + x[::1, 5])  # a scalar reduction among them
        return [a, b, c]

    run_both(program)


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_masked_axis_reductions_fuse_with_their_mask(plans: list[PlanSummary], name: str) -> None:
    reduce = REDUCTIONS[name]

    def program() -> list[Any]:
        x = grid("float64", (20, 8))
        y = x * 2.0
        initial = {"sum": 0.0, "prod": 1.0, "max": -10.0, "min": 10.0}[name]
        return [reduce(y, axis=1, where=y > 0, initial=initial),
                reduce(y - 1.0, axis=0, where=x < 1.5, initial=initial)]

    run_both(program)
    assert fused_ops(plans).count(f"UNARY_RED.{name.upper()}") == 2


def test_argmax_stays_as_built(plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x = grid("float64", (20, 8))
        y = x * 2.0
        return [np.argmax(y, axis=1), np.argmin(y, axis=0), y + 1.0]

    run_both(program)
    assert not [op for op in fused_ops(plans) if op.startswith("UNARY_RED")]


def test_float32_values_summed_into_float64_fuse_after_their_conversion(
        plans: list[PlanSummary]) -> None:
    # sum(dtype=float64) of float32 values: cuPyNumeric converts them first (a CONVERT task),
    # then reduces float64 values, both in the group.
    def program() -> list[Any]:
        x = grid("float32", (30, 7))
        return [np.sum(x * 2.0, axis=0, dtype=np.float64), x + 1.0]

    run_both(program)
    assert "UNARY_RED.SUM" in fused_ops(plans)


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_nans_and_infinities_reduce_as_cupynumeric_reduces_them(plans: list[PlanSummary],
                                                                 name: str) -> None:
    reduce = REDUCTIONS[name]

    def program() -> list[Any]:
        x = grid("float64", (9, 6))
        y = np.where(x > 2.0, np.nan, x)  # a NaN in some columns and rows
        y = np.where(x < -2.5, -np.inf, y) * 1.5
        return [reduce(y, axis=0), reduce(y, axis=1)]

    run_both(program)
    assert fused_ops(plans).count(f"UNARY_RED.{name.upper()}") == 2

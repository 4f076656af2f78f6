"""Reductions along an axis (`sum/prod/max/min/mean(axis=...)`, keepdims; `argmin/argmax` along
the last axis) fuse as the last
stage of a group, with the element-wise work producing what they reduce; the element-wise work
on their results follows in a later group. Bit for bit against fusion off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.plan.summary import PlanSummary
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


ARG_REDUCTIONS: dict[str, Callable[..., Any]] = {"argmin": np.argmin, "argmax": np.argmax}


def specials(dtype: str, shape: tuple[int, int]) -> Any:
    """Rows with ties (the first index wins), and for floats NaNs (never taken), infinities,
    both zeros and a row of NaNs only (no value ever taken: cuPyNumeric's identity index)."""
    if dtype in ("uint8", "bool"):
        return (np.arange(shape[0] * shape[1]) % 3).astype(dtype).reshape(shape)
    x = grid(dtype, shape)
    if not dtype.startswith("float"):
        return x
    host = numpy.asarray(x).copy()
    host[0, :] = numpy.nan
    host[1, 3] = numpy.nan
    host[2, :] = 0.0
    host[2, 4] = -0.0
    host[3, 2], host[3, 5] = numpy.inf, -numpy.inf
    host[4, ::2] = -numpy.inf
    return np.array(host)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", [*DTYPES, "uint8", "bool"])
@pytest.mark.parametrize("name", sorted(ARG_REDUCTIONS))
def test_argmin_and_argmax_along_the_last_axis_fuse_with_their_producers(
        plans: list[PlanSummary], name: str, dtype: str) -> None:
    """cuPyNumeric folds (index, value) pairs into its argval struct, then reads the indices
    out; fused, the pairs fold in the kernel of the producers (a strictly smaller or larger
    value takes the index), bit for bit as its own fold."""
    reduce = ARG_REDUCTIONS[name]

    def program() -> list[Any]:
        x = specials(dtype, (37, 11))
        y = x * x - x if dtype != "bool" else x ^ True
        return [reduce(y, axis=1), reduce(y, axis=-1, keepdims=True), reduce(x, axis=1)]

    run_both(program)
    assert f"UNARY_RED.{name.upper()}.1" in fused_ops(plans)


def test_argmin_along_the_last_of_three_axes_and_of_views(plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x = grid("float64", (5, 6, 7))
        return [np.argmin(np.exp(x) - 1.0, axis=2), np.argmax(x[1:, 2:5, 2:] * 3.0, axis=-1),
                np.argmin(x.T * 2.0, axis=2),
                # an axis of one element, which the block drops: every index is 0
                np.argmin(x[:, :, :1] * 2.0, axis=2), np.argmax(x[:, 1, 3:4] + 1.0, axis=1)]

    run_both(program)
    assert fused_ops(plans).count("UNARY_RED.ARGMIN.2") >= 1


@pytest.mark.parametrize("name", sorted(ARG_REDUCTIONS))
def test_an_argmin_with_nothing_to_fuse_runs_as_a_fused_kernel(plans: list[PlanSummary],
                                                               name: str) -> None:
    """Alone (an array made from NumPy data, nothing else in the window), argmin and argmax
    still run as the plugin's kernel, whose fold is several times faster than cuPyNumeric's."""
    host = numpy.random.default_rng(3).normal(size=(300, 9))
    host[::7, 2] = host[::7, 5]  # ties

    def program() -> list[Any]:
        x = np.array(host)
        return [ARG_REDUCTIONS[name](x, axis=1)]

    def another_window() -> list[Any]:  # planned afresh, the argmin lifted from the cache
        x = np.array(host)
        return [ARG_REDUCTIONS[name](x, axis=1), x[:, 0] * 2.0]

    run_both(program)
    run_both(another_window)
    assert fused_ops(plans).count(f"UNARY_RED.{name.upper()}.1") == 2


def test_argmin_and_argmax_along_another_axis_stay_as_built(plans: list[PlanSummary]) -> None:
    """Along an axis other than the last the pairs' indices are not lifted: axis 1 of a 3-D
    array, after axis 1 of a matrix (the last) was lifted."""
    def program() -> list[Any]:
        x = grid("float64", (20, 8))
        along_rows = np.argmin(x * 2.0, axis=1)
        along_columns = np.argmax(x * 2.0, axis=0)
        z = grid("float64", (4, 5, 6))
        return [along_rows, along_columns, np.argmin(z * 2.0, axis=1), x + 1.0]

    run_both(program)
    assert [op for op in fused_ops(plans) if op.startswith("UNARY_RED")] == ["UNARY_RED.ARGMIN.1"]


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

"""Matrix-vector and matrix-matrix products (`X @ w`, `dot`, `X.T @ r`, `A @ B`) computed
inside fused tasks, before the kernel, by the BLAS call cuPyNumeric's MATVECMUL or MATMUL task
makes (lift/products.py): bit for bit against fusion off, with the element-wise work on the
product fused around it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.plan.summary import PlanSummary
from legate_fuse.unfused import KERNEL_FAILED

from . import compare
from .test_activation import run
from .test_multi_cpu import TWO_CPUS

ONE_CPU = "--cpus 1 --utility 1 --sysmem 4000 --logging gpu=none"


def fused_ops(plans: list[PlanSummary]) -> list[str]:
    return [plan.ops[t] for plan in plans for kind, tasks, _, _ in plan.groups
            if kind == "fused" for t in tasks]


def run_both(program: Callable[[], list[Any]]) -> None:
    compare.run_both(program)
    for kind in ("MATVECMUL", "MATMUL"):
        reasons = legate_fuse.stats()["unfused"].get(f"cupynumeric.{kind}", {}).get("why", {})
        assert KERNEL_FAILED not in reasons, reasons


def values(shape: tuple[int, ...], dtype: str, seed: int) -> Any:
    return np.array(numpy.random.default_rng(seed).normal(size=shape).astype(dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows,columns", [(1001, 8), (7, 3), (513, 33), (64, 64), (5, 2)])
def test_a_product_fuses_with_the_work_on_its_result(always_fuse: Any, plans: list[PlanSummary],
                                                     dtype: str, rows: int,
                                                     columns: int) -> None:
    def program() -> list[Any]:
        x, w = values((rows, columns), dtype, 1), values(columns, dtype, 2)
        y = values(rows, dtype, 3)
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z)) - y  # sigmoid(X @ w) - y
        return [z, p, np.dot(x, w) * 2.0]

    run_both(program)
    assert "MATVECMUL" in fused_ops(plans)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_transposed_matrix_and_a_vector_computed_before(always_fuse: Any,
                                                         plans: list[PlanSummary],
                                                         dtype: str) -> None:
    def program() -> list[Any]:
        x, y = values((301, 9), dtype, 4), values(301, dtype, 5)
        r = y * 0.5 - 1.0  # the vector, computed in the window
        g = x.T @ r  # the matrix as cuPyNumeric transposes it back: a BLAS Trans call
        columns = values((9, 40), dtype, 6)
        h = columns.T @ np.sqrt(np.abs(g))  # a matrix stored column by column
        return [g, g / 3.0, h + 1.0]

    run_both(program)
    assert fused_ops(plans).count("MATVECMUL") >= 1


def test_two_products_of_one_matrix_in_one_task(always_fuse: Any,
                                                plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x, w = values((100, 8), "float64", 9), values(8, "float64", 10)
        w2 = w * 1.0  # (a group of its own: the vectors' shape)
        z1, z2 = x @ w, x @ w2
        return [z1 + z2 * 0.5, np.sum(z1 - z2)]

    run_both(program)
    assert fused_ops(plans).count("MATVECMUL") == 2


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("m,k,n", [(200, 64, 100), (7, 3, 5), (1, 9, 4), (33, 1, 65), (6, 8, 1)])
def test_a_matrix_product_fuses_with_the_work_on_its_result(always_fuse: Any,
                                                            plans: list[PlanSummary], dtype: str,
                                                            m: int, k: int, n: int) -> None:
    def program() -> list[Any]:
        a, b = values((m, k), dtype, 11), values((k, n), dtype, 12)
        c = a @ b
        d = np.tanh(c) * 0.5 - values((m, n), dtype, 13)
        return [c, d, np.matmul(a, b) + 1.0, np.dot(a, b) * 2.0]

    run_both(program)
    if min(m, k, n) > 1:  # (cuPyNumeric computes other shapes with other tasks)
        assert fused_ops(plans).count("MATMUL") == 3


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_transposed_factors_as_cupynumeric_passes_them(always_fuse: Any,
                                                       plans: list[PlanSummary],
                                                       dtype: str) -> None:
    """A factor stored column by column is a BLAS Trans argument, as cuPyNumeric's task makes
    it; a product of a matrix with itself reads one store twice. A product read through
    another view (its transpose) stays cuPyNumeric's (rule 7)."""
    def program() -> list[Any]:
        a, b = values((40, 70), dtype, 14), values((30, 40), dtype, 15)
        g = values((50, 50), dtype, 16)
        return [(a.T @ b.T) * 3.0, (b @ a).T + 1.0, (a.T @ a) - 2.0, np.abs(g @ g.T),
                np.sqrt(np.abs(b.T.T @ a))]

    run_both(program)
    assert fused_ops(plans).count("MATMUL") == 4


def test_a_product_s_signed_zeros_are_cupynumeric_s(always_fuse: Any,
                                                    plans: list[PlanSummary]) -> None:
    """A row of zeros times negative numbers sums -0.0 products: the sign of each zero is the
    one cuPyNumeric's call leaves (the same call, the same beta)."""
    def program() -> list[Any]:
        a = values((6, 5), "float64", 17)
        a[2] = 0.0
        b, w = -np.abs(values((5, 4), "float64", 18)), -np.abs(values(5, "float64", 19))
        c = a @ b
        c_signs = [c * 1.0, np.signbit(c)]
        v = a @ w
        return [*c_signs, v * 1.0, np.signbit(v)]

    run_both(program)
    assert {"MATMUL", "MATVECMUL"} <= set(fused_ops(plans))


def test_a_matrix_written_in_the_group_is_not_read_whole(always_fuse: Any,
                                                          plans: list[PlanSummary]) -> None:
    """The product runs before the kernel: a matrix or vector the group computes is not
    there yet, so the product starts a group of its own (rule 7)."""
    def program() -> list[Any]:
        x, w = values((64, 64), "float64", 7), values(64, "float64", 8)
        w2 = w - 0.25  # of the product's shape: only rule 7 keeps the product out of its group
        z = x @ w2
        x2 = x * 2.0 + 1.0
        z2 = x2 @ w
        return [z + 1.0, z2 * 3.0, w2, x2]

    run_both(program)
    for plan in plans:
        for kind, tasks, _, _ in plan.groups:
            ops = [plan.ops[t] for t in tasks]
            if kind == "fused" and "MATVECMUL" in ops:
                assert ops.index("MATVECMUL") == 0, ops


def test_other_types_stay_cupynumeric_s(always_fuse: Any, plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        x = np.ones((20, 4), dtype="float16")
        c = np.ones((20, 4), dtype="complex128") * (1 + 2j)
        square = np.ones((4, 4), dtype="complex64") * (2 - 1j)
        return [(x @ np.ones(4, dtype="float16")) + 1, (c @ np.ones(4, dtype="complex128")) * 2,
                (x.T @ x) + 1, (square @ square) * 2]

    compare.run_both(program)
    ops = [op for plan in plans for op in plan.ops]
    assert not {"MATVECMUL", "MATMUL"} & set(fused_ops(plans))
    assert {"opaque cupynumeric.MATVECMUL", "opaque cupynumeric.MATMUL"} <= set(ops)


PRODUCTS = """
import numpy, cupynumeric as np, legate_fuse, sys
x = np.array(numpy.random.default_rng(1).normal(size=(300_000, 8)))
w = np.array(numpy.random.default_rng(2).normal(size=8))
z = x @ w
p = np.tanh(z) - 1.0
c = x[:64].T @ x[:64]
q = np.exp(c) * 0.5
numpy.save(sys.argv[1], numpy.concatenate([numpy.asarray(p), numpy.asarray(q).ravel()]))
if legate_fuse.is_enabled():
    for kind in ("MATVECMUL", "MATMUL"):
        print(kind, legate_fuse.stats()["unfused"].get(f"cupynumeric.{kind}"))
"""


def products_unfused(tmp_path: Any, config: str, **env: str) -> str:
    """The product program's report of MATVECMUL and MATMUL tasks run unfused, its results
    checked against fusion off's under the same Legate configuration."""
    results, report = {}, ""
    for mode in ("0", "1"):
        out = tmp_path / f"p{mode}.npy"
        result = run([sys.executable, "-c", PRODUCTS, str(out)], LEGATE_FUSE=mode,
                     LEGATE_CONFIG=config, **env)
        assert result.returncode == 0, result.stderr[-3000:]
        results[mode], report = numpy.load(out), result.stdout
    assert results["0"].tobytes() == results["1"].tobytes()
    return report


def test_products_stay_cupynumeric_s_on_two_cpus(tmp_path: Any) -> None:
    """Two points would each compute a block cuPyNumeric's partition may not have given them:
    the product is not lifted, the program's results are those without the plugin."""
    assert products_unfused(tmp_path, TWO_CPUS).count("'not lifted': 1") == 2


@pytest.mark.parametrize("products", ["0", "1"])
def test_the_setting_leaves_products_to_cupynumeric(tmp_path: Any, products: str) -> None:
    report = products_unfused(tmp_path, ONE_CPU, LEGATE_FUSE_PRODUCTS=products)
    assert report.count("'not lifted': 1") == (2 if products == "0" else 0), report

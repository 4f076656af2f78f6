"""Row calls (lift/row_calls.py): legate_csr's sparse product `A @ x` computed inside a fused
task by the library's own routine on each point's block, with cuPyNumeric's element-wise work
on its result in the same kernel: bit for bit against fusion off, on matrices of every kind
test_csr.py checks, and the rule that keeps a product out of a group that writes what it
reads (rule 8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy
import pytest
import scipy.sparse as sp

import legate_fuse
from legate_fuse.plan.summary import PlanSummary
from legate_fuse.unfused import KERNEL_FAILED

from . import compare

PRODUCT = "legate_csr.SPMV"


def csr(matrix: Any, dtype: str) -> Any:
    import legate_csr

    return legate_csr.csr_array(sp.csr_array(matrix).astype(dtype))


def groups_with(plans: list[PlanSummary], op: str) -> list[list[str]]:
    """The operations of each fused group with an `op` among them."""
    found = []
    for plan in plans:
        for kind, tasks, _, _ in plan.groups:
            ops = [plan.ops[t] for t in tasks]
            if kind == "fused" and op in ops:
                found.append(ops)
    return found


def run_both(program: Callable[[], list[Any]]) -> None:
    """The program's values fused and unfused, bit for bit (dot products too), and no fused
    task that failed to build (its tasks would run unfused: the same bits, untested)."""
    compare.run_both(program)
    reasons = legate_fuse.stats()["unfused"].get(PRODUCT, {}).get("why", {})
    assert KERNEL_FAILED not in reasons, reasons


def matrices() -> dict[str, Any]:
    rng = numpy.random.default_rng(7)
    empty_rows = sp.random(300, 300, density=0.02, format="lil", random_state=1)
    empty_rows[5:40, :] = 0.0
    duplicates = sp.coo_array((rng.normal(size=60), (rng.integers(0, 30, 60),
                                                     rng.integers(0, 30, 60))), shape=(30, 30))
    return {
        "random": sp.random(1000, 1000, density=0.01, format="csr", random_state=2),
        "tall": sp.random(700, 90, density=0.05, format="csr", random_state=3),
        "wide": sp.random(90, 700, density=0.05, format="csr", random_state=4),
        "empty_rows": empty_rows,
        "duplicates": duplicates,
        "poisson": sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(500, 500)),
    }


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", list(matrices()))
def test_a_product_fuses_with_the_work_on_its_result(always_fuse: Any, plans: list[PlanSummary],
                                                     dtype: str, kind: str) -> None:
    """`r = b - A @ x; rr = r @ r` as one task: the product's rows, then the kernel."""
    reference = matrices()[kind]
    rows, columns = reference.shape
    rng = numpy.random.default_rng(11)
    x_host = rng.normal(size=columns).astype(dtype)
    b_host = rng.normal(size=rows).astype(dtype)

    def program() -> list[Any]:
        matrix = csr(reference, dtype)
        x, b = np.array(x_host), np.array(b_host)
        r = b - matrix @ x
        return [r, r @ r, np.sqrt(np.abs(matrix @ x)) * 2.0]

    run_both(program)
    fused = groups_with(plans, PRODUCT)
    assert sum(ops.count(PRODUCT) for ops in fused) == 2, fused
    assert {"BINARY_OP.SUBTRACT", "DOT"} <= set(fused[0]), fused


def test_the_vector_the_kernel_reads_too(always_fuse: Any, plans: list[PlanSummary]) -> None:
    """`p @ (A @ p)`: the kernel reads `p` aligned, the product through the image of the
    columns (CG's step)."""
    reference = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(2000, 2000))
    p_host = numpy.random.default_rng(12).normal(size=2000)

    def program() -> list[Any]:
        matrix, p = csr(reference, "float64"), np.array(p_host)
        q = matrix @ p
        return [q * 1.0, p @ q, p - q]

    run_both(program)
    assert groups_with(plans, PRODUCT)


def test_a_product_of_a_vector_the_group_writes_starts_a_group(
        always_fuse: Any, plans: list[PlanSummary]) -> None:
    """The product runs before the kernel: `p = z + beta * p; q = A @ p` cannot be one task,
    as every point may read any of `p` (rule 8); nor can a product's vector be written after
    it in its group."""
    reference = sp.random(400, 400, density=0.02, format="csr", random_state=5)
    rng = numpy.random.default_rng(13)
    p_host, z_host = rng.normal(size=400), rng.normal(size=400)

    def program() -> list[Any]:
        matrix, p, z = csr(reference, "float64"), np.array(p_host), np.array(z_host)
        p = z + 0.5 * p
        q = matrix @ p
        w = q * 3.0
        z += w  # the vector of the next product, written after it
        return [q, w, matrix @ z + 1.0, z]

    run_both(program)
    for ops in groups_with(plans, PRODUCT):
        assert ops.index(PRODUCT) == 0, ops  # nothing of the group runs before it


def test_a_vector_written_after_its_product_in_the_group(always_fuse: Any,
                                                         plans: list[PlanSummary]) -> None:
    """`v += A @ v`: the kernel would write `v` while other points read it through the image
    of their columns (rule 8): the write starts a group of its own, and nothing falls back."""
    reference = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(900, 900))
    v_host = numpy.random.default_rng(14).normal(size=900)

    def program() -> list[Any]:
        matrix, v = csr(reference, "float64"), np.array(v_host)
        q = matrix @ v
        v += q * 0.25
        return [q, v * 1.0]

    run_both(program)
    for ops in groups_with(plans, PRODUCT):
        assert ops == [PRODUCT, "BINARY_OP.MULTIPLY"] or "BINARY_OP.ADD" not in ops, ops


def test_a_product_built_otherwise_runs_as_built(always_fuse: Any,
                                                 plans: list[PlanSummary]) -> None:
    """A product task whose `x` is read through a precise image of the rows' column bounds
    (the library asks for their least and greatest) is not lifted: the fused task would
    partition it otherwise."""
    import _legate_csr
    from legate.core import align, get_legate_runtime, image

    from legate_csr import _library
    from legate_csr._stores import store_of

    reference = sp.random(300, 300, density=0.03, format="csr", random_state=6)
    x_host = numpy.random.default_rng(15).normal(size=300)

    def program() -> list[Any]:
        matrix, x = csr(reference, "float64"), np.array(x_host)
        y = np.empty(300)
        task = get_legate_runtime().create_auto_task(_library.library(),
                                                     _legate_csr.SPMV_TASK_ID)
        result = task.add_output(store_of(y))
        rows, _, _ = _library._matrix_inputs(task, matrix._pos, store_of(matrix.indices),
                                             store_of(matrix.data))
        factor = task.add_input(store_of(x))
        columns = task.add_input(matrix._bounds)
        task.add_constraint(align(result, rows))
        task.add_constraint(align(result, columns))
        task.add_constraint(image(columns, factor))
        task.execute()
        return [y * 2.0 - x, matrix @ x + 1.0]

    run_both(program)
    ops = [op for plan in plans for op in plan.ops]
    assert ops.count(PRODUCT) == 1, ops


@pytest.mark.parametrize("threads", [1, 2])
def test_a_product_in_parts_on_the_kernel_threads(always_fuse: Any, plans: list[PlanSummary],
                                                  threads: int) -> None:
    """Over more rows than a part holds (32,768), the routine computes its rows in parts on
    the fused task's threads: each row alone, the same bits as the library's task. The
    kernel's dot product folds each part's rows as soon as they are computed, in order (on
    one thread, right after each part): the bits of folding them after the whole product."""
    import legate_fuse._tasks as tasks

    rows = 200_003
    reference = sp.diags([-1.0, 2.5, -1.0, 0.5], [-1, 0, 1, 7], shape=(rows, rows))
    rng = numpy.random.default_rng(16)
    x_host, b_host = rng.normal(size=rows), rng.normal(size=rows)
    default = tasks.kernel_threads()
    tasks.set_kernel_threads(threads)
    pipelined = tasks.pipelined_row_calls()
    try:
        def program() -> list[Any]:
            matrix, x, b = csr(reference, "float64"), np.array(x_host), np.array(b_host)
            r = b - matrix @ x
            return [r, r @ r]

        run_both(program)
    finally:
        tasks.set_kernel_threads(default)
    assert groups_with(plans, PRODUCT)
    assert tasks.pipelined_row_calls() > pipelined

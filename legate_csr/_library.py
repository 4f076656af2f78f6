"""The Legate library "legate_csr" and the calls that launch its tasks (src/cpp/csr/).

Each launch states how its stores are partitioned: the rows (`pos`, and the result of a
product) are split among the processors; `crd` and `vals` follow as the image of each block's
row ranges, and `x` as the image of its columns, so that a block reads only the elements and
the entries of `x` it needs.
"""

from __future__ import annotations

from typing import Any

import _legate_csr as _tasks


def library() -> Any:
    """The registered Legate library (registered on first use; starts Legate if needed)."""
    from legate.core import get_legate_runtime

    _tasks.register_library()
    return get_legate_runtime().find_library(_tasks.LIBRARY_NAME)


def _matrix_inputs(task: Any, pos: Any, crd: Any, vals: Any) -> tuple[Any, Any, Any]:
    """Adds the matrix's stores to `task`: its elements read through the image of its rows
    (the row ranges rise: the first and last of a block bound its elements)."""
    from legate.core import ImageComputationHint, image

    rows, columns, values = task.add_input(pos), task.add_input(crd), task.add_input(vals)
    task.add_constraint(image(rows, columns, ImageComputationHint.FIRST_LAST))
    task.add_constraint(image(rows, values, ImageComputationHint.FIRST_LAST))
    return rows, columns, values


def multiply(y: Any, pos: Any, crd: Any, vals: Any, x: Any) -> None:
    """y = A @ x, for the matrix (pos, crd, vals): one block of rows per point task."""
    from legate.core import ImageComputationHint, align, get_legate_runtime, image

    task = get_legate_runtime().create_auto_task(library(), _tasks.SPMV_TASK_ID)
    result = task.add_output(y)
    rows, columns, _ = _matrix_inputs(task, pos, crd, vals)
    factor = task.add_input(x)
    task.add_constraint(align(result, rows))
    # The columns a block reads, bounded by their least and greatest: a precise image would
    # cost Legate a pass building the set of every column, at every product.
    task.add_constraint(image(columns, factor, ImageComputationHint.MIN_MAX))
    task.execute()


def multiply_transposed(y: Any, pos: Any, crd: Any, vals: Any, x: Any) -> None:
    """y += A.T @ x: each block of rows adds its elements' products into the whole of `y`."""
    from legate.core import ReductionOpKind, align, broadcast, get_legate_runtime

    task = get_legate_runtime().create_auto_task(library(), _tasks.SPMV_TRANSPOSE_TASK_ID)
    result = task.add_reduction(y, ReductionOpKind.ADD)
    rows, _, _ = _matrix_inputs(task, pos, crd, vals)
    factor = task.add_input(x)
    task.add_constraint(align(factor, rows))
    task.add_constraint(broadcast(result))
    task.execute()


def diagonal(out: Any, pos: Any, crd: Any, vals: Any) -> None:
    """out[r] = A[r, r] for every row r (out has one entry per row)."""
    from legate.core import align, get_legate_runtime

    task = get_legate_runtime().create_auto_task(library(), _tasks.DIAGONAL_TASK_ID)
    result = task.add_output(out)
    rows, _, _ = _matrix_inputs(task, pos, crd, vals)
    task.add_constraint(align(result, rows))
    task.execute()

"""The Legate library "legate_csr" and the calls that launch its tasks (src/cpp/csr/).

Each launch states how its stores are partitioned: the rows (`pos`, `bounds`, and the result
of a product) are split among the processors; `crd` and `vals` follow as the image of each
block's row ranges, and `x` as the image of its rows' column bounds, so that a block reads only
the elements and the entries of `x` it needs.
"""

from __future__ import annotations

from typing import Any

import _legate_csr as _tasks


def library() -> Any:
    """The registered Legate library (registered on first use; starts Legate if needed)."""
    from legate.core import get_legate_runtime

    _tasks.register_library()
    return get_legate_runtime().find_library(_tasks.LIBRARY_NAME)


def _matrix_inputs(task: Any, pos: Any, *elements: Any) -> tuple[Any, ...]:
    """Adds the matrix's stores to `task`: its row ranges, and `elements` (crd, and vals
    unless left out) read through their image (the row ranges rise: the first and last of a
    block bound its elements)."""
    from legate.core import ImageComputationHint, image

    rows = task.add_input(pos)
    variables = [task.add_input(store) for store in elements]
    for variable in variables:
        task.add_constraint(image(rows, variable, ImageComputationHint.FIRST_LAST))
    return (rows, *variables)


def multiply(y: Any, pos: Any, crd: Any, vals: Any, x: Any, bounds: Any) -> None:
    """y = A @ x, for the matrix (pos, crd, vals) whose rows' columns lie within `bounds`
    (column_bounds): one block of rows per point task."""
    from legate.core import ImageComputationHint, align, get_legate_runtime, image

    task = get_legate_runtime().create_auto_task(library(), _tasks.SPMV_TASK_ID)
    result = task.add_output(y)
    rows, _, _ = _matrix_inputs(task, pos, crd, vals)
    factor = task.add_input(x)
    columns = task.add_input(bounds)
    task.add_constraint(align(result, rows))
    task.add_constraint(align(result, columns))
    # The columns a block reads, bounded by their least and greatest: a precise image would
    # cost Legate a pass building the set of every column, at every product. Taken from each
    # row's bounds, not from `crd`, which may then hold 4-byte columns (an image's function
    # must hold points: 8 bytes).
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


def column_bounds(pos: Any, crd: Any) -> Any:
    """A new store of one Rect<1> per row: its least and greatest column (empty for an empty
    row), through whose image a product reads `x`."""
    from legate.core import align, get_legate_runtime, types

    runtime = get_legate_runtime()
    bounds = runtime.create_store(types.rect_type(1), shape=pos.shape)
    task = runtime.create_auto_task(library(), _tasks.COLUMN_BOUNDS_TASK_ID)
    result = task.add_output(bounds)
    rows, _ = _matrix_inputs(task, pos, crd)
    task.add_constraint(align(result, rows))
    task.execute()
    return bounds


def diagonal(out: Any, pos: Any, crd: Any, vals: Any) -> None:
    """out[r] = A[r, r] for every row r (out has one entry per row)."""
    from legate.core import align, get_legate_runtime

    task = get_legate_runtime().create_auto_task(library(), _tasks.DIAGONAL_TASK_ID)
    result = task.add_output(out)
    rows, _, _ = _matrix_inputs(task, pos, crd, vals)
    task.add_constraint(align(result, rows))
    task.execute()

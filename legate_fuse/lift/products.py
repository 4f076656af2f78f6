"""The lifting of cuPyNumeric's matrix-vector products (MATVECMUL): computed inside a fused task,
before its kernel, by the very BLAS call cuPyNumeric's CPU task makes (src/cpp/tasks/products.h),
so that the element-wise work on the product joins it (`sigmoid(X @ w) - y` as one task).

cuPyNumeric builds `X @ w` as a two-dimensional task over (rows, columns): its result, filled
with zeros, promoted along the columns and reduced into with ADD; the matrix (transposed where
it is stored column by column); the vector promoted along the rows; both aligned with the
result. Lifted, the result is written whole and the matrix and vector read whole: the fused task
must then run as one point, as it does where Legate runs one CPU task at a time (the launch
checks it, backend/fuser.py). Where Legate has GPUs the product stays cuPyNumeric's (its GPU
task calls cuBLAS).
"""

from __future__ import annotations

from functools import cache

from legate_fuse.capture.task_record import TaskRecord, argument_ref
from legate_fuse.lift.base import READ_WHOLE, WRITE_WHOLE, LiftedArg, LiftedTask, machine_has_gpus

OP = "MATVECMUL"
# The types whose products cuPyNumeric computes with the BLAS call of their own type
# (float16 products accumulate in float32, complex ones call ?gemv with complex scalars).
TYPES = frozenset({"float32", "float64"})
# The calls after the three stores: the result aligned with the matrix, then with the vector.
_CONSTRAINTS = (("add_constraint", ("align", argument_ref(0), argument_ref(1))),
                ("add_constraint", ("align", argument_ref(0), argument_ref(2))))


def products_fusible() -> bool:
    """Whether products may be computed inside fused tasks: asked for (LEGATE_FUSE_PRODUCTS),
    no GPUs, the BLAS library cuPyNumeric calls loaded, and fused tasks launched now run as
    one point (else a group with a product would run unfused, its element-wise work too)."""
    from legate_fuse import session
    from legate_fuse.backend.launch import runs_one_point

    current = session.current()
    return (current is not None and current.config.products and _blas_without_gpus()
            and runs_one_point())


@cache
def _blas_without_gpus() -> bool:
    """No GPUs, and the BLAS library loaded (asked once: neither changes while it runs)."""
    from legate_fuse import _tasks

    return not machine_has_gpus() and _tasks.product_blas_available()


def lift_product(record: TaskRecord, args: tuple[LiftedArg, ...]) -> LiftedTask | None:
    """The lifted product, or None (opaque) for any task not built exactly as cuPyNumeric
    builds a product of one of TYPES."""
    result, matrix, vector = args
    types = {str(a.store.type) for a in args}
    if (len(types) != 1 or not types <= TYPES or result.redop != _add_redop()
            or any(a.store.ndim != 2 for a in args) or tuple(record.calls[3:]) != _CONSTRAINTS
            or not products_fusible()):
        return None
    return LiftedTask(OP, (LiftedArg(result.store, WRITE_WHOLE),
                           LiftedArg(matrix.store, READ_WHOLE),
                           LiftedArg(vector.store, READ_WHOLE)), aligned=True)


@cache
def _add_redop() -> int:
    from legate.core import ReductionOpKind

    return int(ReductionOpKind.ADD)

"""The lifting of cuPyNumeric's matrix-vector and matrix-matrix products (MATVECMUL, MATMUL):
computed inside a fused task, before its kernel, by the very BLAS call cuPyNumeric's CPU task
makes (src/cpp/tasks/products.h), so that the element-wise work on the product joins it
(`sigmoid(X @ w) - y` as one task).

cuPyNumeric builds `X @ w` as a two-dimensional task over (rows, columns): its result, filled
with zeros, promoted along the columns and reduced into with ADD; the matrix (transposed where
it is stored column by column); the vector promoted along the rows; both aligned with the
result. It builds `A @ B` where it runs on one processor as a three-dimensional task over
(rows, inner, columns) with the scalar 1 ("unbatched"): the result promoted along the inner
dimension and reduced into, A promoted along the columns, B along the rows. Lifted, the result
is written whole and the factors read whole: the fused task must then run as one point, as it
does where Legate runs one CPU task at a time (the launch checks it, backend/fuser.py). Where
Legate has GPUs the product stays cuPyNumeric's (its GPU task calls cuBLAS).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from legate_fuse.capture.task_record import TaskRecord, argument_ref
from legate_fuse.lift.base import READ_WHOLE, WRITE_WHOLE, LiftedArg, LiftedTask, machine_has_gpus

# Task kind -> the dimensions of its stores as cuPyNumeric promotes them.
OPS = {"MATVECMUL": 2, "MATMUL": 3}
# The types whose products cuPyNumeric computes with the BLAS call of their own type
# (float16 products accumulate in float32, complex ones call ?gemv with complex scalars).
TYPES = frozenset({"float32", "float64"})
# The calls after the three stores: the result aligned with the first factor, then with the
# second; a matrix-matrix product says before them that it is not batched (the unsigned 1).
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


def lift_product(record: TaskRecord, kind: str,
                 args: tuple[LiftedArg, ...]) -> LiftedTask | None:
    """The lifted product, or None (opaque) for any task not built exactly as cuPyNumeric
    builds a product of one of TYPES."""
    result, first, second = args
    types = {str(a.store.type) for a in args}
    calls = tuple(record.calls[3:])
    if kind == "MATMUL":
        if not calls or not _unbatched(calls[0]):
            return None
        calls = calls[1:]
    if (len(types) != 1 or not types <= TYPES or result.redop != _add_redop()
            or any(a.store.ndim != OPS[kind] for a in args) or calls != _CONSTRAINTS
            or not products_fusible()):
        return None
    return LiftedTask(kind, (LiftedArg(result.store, WRITE_WHOLE),
                             LiftedArg(first.store, READ_WHOLE),
                             LiftedArg(second.store, READ_WHOLE)), aligned=True)


def _unbatched(call: tuple[str, tuple[Any, ...]]) -> bool:
    """Whether `call` is the scalar a matrix-matrix product computed whole carries: the plain
    integer 1 as uint32 (a batched product is a manual task, never lifted)."""
    name, args = call
    return (name == "add_scalar_arg" and len(args) == 2 and type(args[0]) is int
            and args[0] == 1 and str(args[1]) == "uint32")


@cache
def _add_redop() -> int:
    from legate.core import ReductionOpKind

    return int(ReductionOpKind.ADD)

"""How legate-fuse records and fuses legate_csr's tasks: its lifting (see
legate_fuse.lift.Lifting), declared as an entry point of the group `legate_fuse.liftings`
(pyproject.toml), so that the plugin finds it without the library importing the plugin. Only
the plugin imports this module.

The library's tasks are recorded lazily and held in the window with the program's other tasks.
The product `y = A @ x` (SPMV) lifts to a *row call* (legate_fuse/lift/row_calls.py): each
point task of a fused group computes its block of `y` with the library's own routine, reading
the matrix and `x` through the same image partitions the library's task asks for, and the
element-wise work on `y` (`r = b - A @ x; rr = r @ r`) follows in the same kernel. The other
tasks run as built, in program order. The library reaches cuPyNumeric's stores through
`__legate_data_interface__` only to build these tasks (`_stores.store_of`), so that read does
not flush the window either.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import _legate_csr as _tasks
from legate.core import ImageComputationHint

from legate_fuse.lift.base import READ_CALL, WRITE_CALL, LiftedArg, LiftedTask, machine_has_gpus
from legate_fuse.lift.row_calls import RowCall

data_interface_builds_tasks = True
# Every task of the library is created, given its arguments and submitted within one function
# of _library.py.
tasks_built_in_one_call = ("legate_csr",)

_NAMES = {_tasks.SPMV_TASK_ID: "SPMV", _tasks.SPMV_TRANSPOSE_TASK_ID: "SPMV_TRANSPOSE",
          _tasks.DIAGONAL_TASK_ID: "DIAGONAL"}
PRODUCT_OP = "legate_csr.SPMV"
# The product's arguments (y, pos, crd, vals, x, bounds): crd and vals read through the image
# of the rows' ranges, x through the image of the rows' column bounds (_library.multiply), with
# the same hints.
_IMAGES = ((1, 2, ImageComputationHint.FIRST_LAST), (1, 3, ImageComputationHint.FIRST_LAST),
           (5, 4, ImageComputationHint.MIN_MAX))
# The constraints the library's product is built with, as a record's shape holds them.
_PRODUCT_CONSTRAINTS = frozenset(
    {("align", ("argument", 0), ("argument", 1)), ("align", ("argument", 0), ("argument", 5))}
    | {("image", ("argument", source), ("argument", target), hint)
       for source, target, hint in _IMAGES})
_VALUE_TYPES = frozenset({"float32", "float64"})
_INDEX_TYPES = frozenset({"int32", "int64"})


def lifted_task_ids() -> list[int]:
    return list(_NAMES)


def scalar_limits() -> dict[int, int]:
    return {}


def task_names() -> dict[int, str]:
    return dict(_NAMES)


def row_calls() -> dict[str, RowCall]:
    return {PRODUCT_OP: RowCall("legate_csr.multiply_rows", _tasks.multiply_rows_address(),
                                _IMAGES)}


def lift(record: Any) -> LiftedTask | None:
    """The product as a row call, where it was built exactly as the library builds it and runs
    on CPUs; None for any other task (it runs as built)."""
    if record.task_id != _tasks.SPMV_TASK_ID or not _product_as_built(record.shape):
        return None
    y, *read = record.args
    return LiftedTask(PRODUCT_OP, (LiftedArg(y.store, WRITE_CALL),
                                   *(LiftedArg(arg.store, READ_CALL) for arg in read)),
                      aligned=True)


def _product_as_built(shape: tuple[Any, ...]) -> bool:
    """Whether a recorded SPMV's shape is _library.multiply's: y written, the matrix's three
    stores, x and the column bounds read, one value type, its constraints and no other
    call."""
    stores = [call for call in shape if call[0] in ("add_output", "add_input", "add_reduction")]
    constraints = {call for call in shape if call[0] in ("align", "image")}
    if (len(stores) != 6 or len(stores) + len(constraints) != len(shape)
            or constraints != _PRODUCT_CONSTRAINTS or _gpus()):
        return False
    kinds = tuple(call[0] for call in stores)
    types = [str(call[2]) for call in stores]
    one_d = all(call[3] == 1 for call in stores)
    return (kinds == ("add_output",) + ("add_input",) * 5 and one_d and types[0] in _VALUE_TYPES
            and types[0] == types[3] == types[4] and types[2] in _INDEX_TYPES
            and types[5] == types[1])


@cache
def _gpus() -> bool:
    """Where Legate has GPUs, the library's tasks run as built (the routine is a CPU one)."""
    return machine_has_gpus()


def pays_alone(record: Any) -> bool:
    del record
    return False


def runtime_scalar(record: Any, index: int) -> bytes:
    raise ValueError("legate_csr's tasks have no run-time values to fuse")

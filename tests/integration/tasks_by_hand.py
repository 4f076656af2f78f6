"""Tasks built in a test as cuPyNumeric builds them, through whichever runtime object is given."""

from __future__ import annotations

from typing import Any

import cupynumeric as num
from cupynumeric.config import BinaryOpCode, CuPyNumericOpCode
from legate.core import align
from legate.core import types as ty


def add_task(runtime: Any, out: num.ndarray, lhs: num.ndarray, rhs: num.ndarray) -> Any:
    """out = lhs + rhs, a BINARY_OP task created by `runtime`, not submitted."""
    task = runtime.create_auto_task(out._thunk.library, CuPyNumericOpCode.BINARY_OP)
    return add_arguments(task, out, lhs, rhs)


def add_arguments(task: Any, out: num.ndarray, lhs: num.ndarray, rhs: num.ndarray) -> Any:
    """The arguments and constraints of out = lhs + rhs, added to a BINARY_OP task."""
    p_out = task.add_output(out._thunk.base)
    p_lhs = task.add_input(lhs._thunk.base)
    p_rhs = task.add_input(rhs._thunk.base)
    task.add_scalar_arg(BinaryOpCode.ADD.value, ty.int32)
    task.add_constraint(align(p_out, p_lhs))
    task.add_constraint(align(p_out, p_rhs))
    return task

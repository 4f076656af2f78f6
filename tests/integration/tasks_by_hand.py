"""Tasks built in a test as cuPyNumeric builds them, through whichever runtime object is given."""

from __future__ import annotations

from typing import Any

import cupynumeric as num
from cupynumeric.config import BinaryOpCode, CuPyNumericOpCode, UnaryOpCode
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


def clip_task(runtime: Any, out: num.ndarray, src: num.ndarray, *bounds: Any) -> Any:
    """out = clip(src, *bounds), a UNARY_OP task created by `runtime`, not submitted: each
    bound is a Legate Scalar or a (value, type) pair, as add_scalar_arg takes them."""
    task = runtime.create_auto_task(out._thunk.library, CuPyNumericOpCode.UNARY_OP)
    p_out = task.add_output(out._thunk.base)
    p_src = task.add_input(src._thunk.base)
    task.add_scalar_arg(UnaryOpCode.CLIP.value, ty.int32)
    for bound in bounds:
        task.add_scalar_arg(*(bound if isinstance(bound, tuple) else (bound,)))
    task.add_constraint(align(p_out, p_src))
    return task

"""One fused group as an AutoTask of the `legate_fuse` library running its kernel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from legate_fuse import _core, tasks
from legate_fuse.kernel_spec import ROLE_INPUT, ROLE_OUTPUT, KernelArg


def build_fused_task(
    runtime: Any, kernel_path: str, ptx_path: str, args: Sequence[KernelArg], scalars: bytes,
    provenance: str,
) -> Any:
    """The FUSED task, ready to execute: stores deduplicated by the plan, every partitioned
    store aligned with every other (the group's iteration space), the kernel and its run-time
    scalars as arguments (`ptx_path` is "" without GPUs). `runtime` is Legate's own runtime
    (not the interceptor's proxy)."""
    from legate.core import Scope, align

    with Scope(provenance=provenance):
        task = runtime.create_auto_task(tasks.library(), tasks.FUSED_TASK_ID)
        partitioned = []
        for arg in args:
            if arg.role == ROLE_INPUT:
                variable = task.add_input(arg.store)
            elif arg.role == ROLE_OUTPUT:
                variable = task.add_output(arg.store)
            else:
                variable = task.add_reduction(arg.store, arg.redop)
            if arg.store.ndim > 0:
                partitioned.append(variable)
        for variable in partitioned[1:]:
            task.add_constraint(align(partitioned[0], variable))
        task.add_scalar_arg(kernel_path)
        task.add_scalar_arg(_core.KERNEL_SYMBOL)
        task.add_scalar_arg(scalars)
        task.add_scalar_arg(ptx_path)
    return task

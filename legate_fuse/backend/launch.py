"""One fused group as an AutoTask of the `legate_fuse` library running its kernel."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from legate_fuse.backend import tasks
from legate_fuse.plan.kernel_spec import ROLE_INPUT, ROLE_OUTPUT, KernelArg


def build_fused_task(
    runtime: Any, kernel_id: str, args: Sequence[KernelArg | tuple[Any, int, int]],
    scalars: bytes, provenance: str,
) -> Any:
    """The FUSED task, ready to execute: stores deduplicated by the plan, every partitioned
    store aligned with every other (the group's iteration space), the kernel's id (registered
    with `_tasks` by this process) and its run-time scalars as arguments: the same in every
    process. `runtime` is Legate's own runtime (not the interceptor's proxy)."""
    align, string_type, scope = _legate_names()
    with scope(provenance=provenance):
        task = runtime.create_auto_task(tasks.library(), tasks.FUSED_TASK_ID)
        partitioned = []
        for store, role, redop in args:  # (unpacked: plain tuples are accepted too)
            if role == ROLE_INPUT:
                variable = task.add_input(store)
            elif role == ROLE_OUTPUT:
                variable = task.add_output(store)
            else:
                variable = task.add_reduction(store, redop)
            if store.ndim > 0:
                partitioned.append(variable)
        if len(partitioned) > 1:
            task.add_constraint(align(*partitioned))
        task.add_scalar_arg(kernel_id, string_type)
        task.add_scalar_arg(scalars)
    return task


@cache
def _legate_names() -> tuple[Any, Any, Any]:
    """Legate's own align (not the session's, which looks for variables of recorded tasks; the
    current one when the session did not replace it), over every partitioned argument at once:
    one constraint call instead of one per pair; the string type; Legate's own Scope. Looked up
    once, when the first fused task is built (after Legate is imported and the session's
    replacements are installed)."""
    from legate.core import align as current_align
    from legate.core import types

    from legate_fuse.capture.pending import ORIGINAL_CONSTRAINTS
    from legate_fuse.capture.scopes import legate_scope

    return ORIGINAL_CONSTRAINTS.get("align", current_align), types.string_type, legate_scope()

"""One fused group as an AutoTask of the `legate_fuse` library running its kernel."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy

from legate_fuse.backend import tasks
from legate_fuse.lift.row_calls import RowCall
from legate_fuse.plan.kernel_spec import (
    ROLE_CALL_READ,
    ROLE_CALL_RESULT,
    ROLE_INPUT,
    ROLE_OUTPUT,
    ROLE_PRODUCT,
    ROLE_READ_WHOLE,
    KernelArg,
)

# Where a kernel's array comes from, as the FUSED task's layout says (src/cpp/tasks/fused_task.cc).
_FROM_INPUT, _FROM_OUTPUT, _FROM_REDUCTION, _FROM_PRODUCT = range(4)


def build_fused_task(
    runtime: Any, kernel_id: str, args: Sequence[KernelArg | tuple[Any, int, int]],
    scalars: bytes, provenance: str, products: Sequence[tuple[int, int, int]] = (),
    draws: Sequence[tuple[int, Sequence[int]]] = (), order_token: Any = None,
    calls: Sequence[tuple[RowCall, Sequence[int]]] = (),
) -> Any:
    """The FUSED task, ready to execute: stores deduplicated by the plan, every partitioned
    store aligned with every other (the group's iteration space), the kernel's id (registered
    with `_tasks` by this process) and its run-time scalars as arguments: the same in every
    process. `runtime` is Legate's own runtime (not the interceptor's proxy). `products`: the
    matrix products computed before the kernel, as positions in `args` of their result and
    factors, which are broadcast (read or written whole: such a task runs as one
    point). `draws`: the random draws made before the kernel, as the position in `args` of each
    result and its words in the layout after it (lift/random_draws.draw_words); with them, the
    `order_token` the task reads and writes (draw_order.py). `calls`: the row calls made
    before the kernel, each with the positions in `args` of its arguments; those it reads
    through an image are partitioned by it, not aligned. An empty `kernel_id`: the task only
    draws."""
    align, broadcast, image, string_type, scope = _legate_names()
    through_image = {positions[target] for call, positions in calls
                     for _, target, _ in call.images}
    with scope(provenance=provenance):
        task = runtime.create_auto_task(tasks.library(), tasks.FUSED_TASK_ID)
        partitioned, variables = [], []
        imaged = [args[position][0] for position in through_image]
        for position, (store, role, redop) in enumerate(args):  # (plain tuples accepted)
            if (role == ROLE_INPUT and store.ndim > 0
                    and any(store.equal_storage(other) for other in imaged)):
                store = _another_store(store)
            if role in (ROLE_INPUT, ROLE_READ_WHOLE, ROLE_CALL_READ):
                variable = task.add_input(store)
            elif role in (ROLE_OUTPUT, ROLE_PRODUCT, ROLE_CALL_RESULT):
                variable = task.add_output(store)
            else:
                variable = task.add_reduction(store, redop)
            variables.append(variable)
            if role in (ROLE_READ_WHOLE, ROLE_PRODUCT):
                task.add_constraint(broadcast(variable))
            elif store.ndim > 0 and position not in through_image:
                partitioned.append(variable)
        if len(partitioned) > 1:
            task.add_constraint(align(*partitioned))
        for call, positions in calls:
            for source, target, hint in call.images:
                source_variable = variables[positions[source]]
                target_variable = variables[positions[target]]
                task.add_constraint(image(source_variable, target_variable) if hint is None
                                    else image(source_variable, target_variable, hint))
        if order_token is not None:  # after the arguments: the layout's indices skip it
            task.add_constraint(broadcast(task.add_input(order_token)))
            task.add_constraint(broadcast(task.add_output(order_token)))
        task.add_scalar_arg(kernel_id, string_type)
        task.add_scalar_arg(scalars)
        if products or draws or calls:
            task.add_scalar_arg(_layout([role for _, role, _ in args], products, draws,
                                        [(call.name, positions) for call, positions in calls]))
    return task


def _another_store(store: Any) -> Any:
    """The same elements as another store (an identity transpose). A kernel's input over the
    storage a row call reads through an image may be the very same store, and Legate gives a
    store a task takes twice one partition: the image would be undone."""
    return store.transpose(tuple(range(store.ndim)))


def runs_one_point() -> bool:
    """Whether a fused task launched now runs as one point: Legate has one CPU to run tasks
    in the current scope, no other processor, and the program runs in one process. A group
    with a matrix product is fused only then (lift/products.py)."""
    from legate.core import TaskTarget, get_machine

    from legate_fuse.lift.base import process_count

    machine = get_machine()
    return (process_count() == 1 and machine.count(TaskTarget.CPU) == 1
            and machine.count(TaskTarget.OMP) == 0 and machine.count(TaskTarget.GPU) == 0)


def _layout(roles: Sequence[int], products: Sequence[tuple[int, int, int]],
            draws: Sequence[tuple[int, Sequence[int]]] = (),
            calls: Sequence[tuple[str, Sequence[int]]] = ()) -> bytes:
    """The FUSED task's layout scalar, from its arguments' roles in order: where each of the
    kernel's arrays comes from (every argument but those only products and row calls read),
    then each product's matrix and vector (inputs) and result (an output), then each draw's
    result (an output) and words, then each row call's name and arguments
    (src/cpp/tasks/layout.h)."""
    counts = [0, 0, 0]  # inputs, outputs, reductions so far
    sources = []  # per argument: its kind of store and index among the task's of that kind
    for role in roles:
        kind = (_FROM_INPUT if role in (ROLE_INPUT, ROLE_READ_WHOLE, ROLE_CALL_READ) else
                _FROM_OUTPUT if role in (ROLE_OUTPUT, ROLE_PRODUCT, ROLE_CALL_RESULT) else
                _FROM_REDUCTION)
        computed = role in (ROLE_PRODUCT, ROLE_CALL_RESULT)
        sources.append((_FROM_PRODUCT if computed else kind, counts[kind]))
        counts[kind] += 1
    slots = [source for role, source in zip(roles, sources, strict=True)
             if role not in (ROLE_READ_WHOLE, ROLE_CALL_READ)]
    words = [len(slots), *(word for slot in slots for word in slot), len(products)]
    for result, matrix, vector in products:
        words += (sources[matrix][1], sources[vector][1], sources[result][1])
    words.append(len(draws))
    for result, draw_words in draws:
        words += (sources[result][1], *draw_words)
    words.append(len(calls))
    for name, positions in calls:
        encoded = name.encode()
        padded = encoded + bytes(-len(encoded) % 4)
        words += (len(encoded), *numpy.frombuffer(padded, dtype=numpy.int32).tolist(),
                  len(positions))
        for position in positions:  # (a result as the output it is)
            kind, index = sources[position]
            words += (_FROM_OUTPUT if kind == _FROM_PRODUCT else kind, index)
    return numpy.array(words, dtype=numpy.int32).tobytes()


@cache
def _legate_names() -> tuple[Any, Any, Any, Any, Any]:
    """Legate's own align, broadcast and image (not the session's, which look for variables of
    recorded tasks; the current ones when the session did not replace them), align over every
    partitioned argument at once: one constraint call instead of one per pair; the string type;
    Legate's own Scope. Looked up once, when the first fused task is built (after Legate is
    imported and the session's replacements are installed)."""
    from legate.core import align as current_align
    from legate.core import broadcast as current_broadcast
    from legate.core import image as current_image
    from legate.core import types

    from legate_fuse.capture.pending import ORIGINAL_CONSTRAINTS
    from legate_fuse.capture.scopes import legate_scope

    return (ORIGINAL_CONSTRAINTS.get("align", current_align),
            ORIGINAL_CONSTRAINTS.get("broadcast", current_broadcast),
            ORIGINAL_CONSTRAINTS.get("image", current_image), types.string_type, legate_scope())

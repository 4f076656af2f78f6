"""What lifting produces, and what every library's lifting shares."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from legate_fuse import _core
from legate_fuse.capture.task_record import TaskRecord, is_argument_ref

# Privileges as the analysis encodes them (ir::Privilege, src/cpp/ir/window.h).
READ, WRITE, READ_WRITE, REDUCE = (int(p.value) for p in (
    _core.Privilege.READ, _core.Privilege.WRITE, _core.Privilege.READ_WRITE,
    _core.Privilege.REDUCE))
# A matrix product's arguments (ir::Privilege, lift/products.py): its factors read whole, its
# result written whole by the product before the kernel runs.
READ_WHOLE, WRITE_WHOLE = (int(p.value) for p in (_core.Privilege.READ_WHOLE,
                                                   _core.Privilege.WRITE_WHOLE))
# A row call's arguments (lift/row_calls.py): what its routine reads, and its result.
READ_CALL, WRITE_CALL = (int(p.value) for p in (_core.Privilege.READ_CALL,
                                                 _core.Privilege.WRITE_CALL))


# Slotted and not frozen: lifted forms are made for every held task at every flush, and a
# frozen dataclass sets each field through object.__setattr__ (three times slower to build).
# Nothing changes them once made.
@dataclass(slots=True)
class LiftedArg:
    store: Any  # LogicalStore
    privilege: int
    redop: int = -1


@dataclass(slots=True)
class LiftedTask:
    """A task as an operation: `op` names it completely (e.g. "BINARY_OP.ADD"); a task with
    run-time scalar arguments (clip bounds...) is not lifted."""

    op: str
    args: tuple[LiftedArg, ...]
    aligned: bool
    # Worth running as a fused kernel on its own: faster than the task as built.
    fused_alone: bool = False
    # Draws random numbers: moves a generator on, which no argument shows (lift/random_draws.py).
    draws: bool = False


def constraints_align(record: TaskRecord, partitioned: list[int]) -> bool:
    """Whether the recorded constraints align every partitioned argument (given by their
    argument indices) with every other.

    Only alignment is understood: any other constraint (broadcast, image, bloat, scale) means
    the task's iteration is not element-wise, and the task is not lifted."""
    group: dict[int, set[int]] = {i: {i} for i in partitioned}

    def join(a: int, b: int) -> None:
        ga, gb = group.setdefault(a, {a}), group.setdefault(b, {b})
        if ga is not gb:
            ga |= gb
            for member in gb:
                group[member] = ga

    argument = -1  # the argument the current call adds, for a store call
    for name, args in record.calls:
        if name in ("add_input", "add_output", "add_reduction"):
            argument += 1
            # An output given an input's partition (putmask's in-place write) is aligned
            # with that input.
            if len(args) == 2 and is_argument_ref(args[1]):
                join(args[1][1], argument)
        elif name == "add_constraint":  # recorded as (kind, arguments): lazy_task.py
            if args[0] != "align" or not all(is_argument_ref(arg) for arg in args[1:]):
                return False
            indices = [arg[1] for arg in args[1:]]
            for other in indices[1:]:
                join(indices[0], other)
        elif name == "add_alignment":  # its stores are recorded by id()
            first, second = (_argument_of(record, store_id) for store_id in args[:2])
            if first is None or second is None:
                return False
            join(first, second)
        elif name == "add_broadcast":
            return False
    return not partitioned or (len(group[partitioned[0]]) >= len(set(partitioned)) and all(
        group[v] is group[partitioned[0]] for v in partitioned
    ))


def _argument_of(record: TaskRecord, store_id: int) -> int | None:
    for index, arg in enumerate(record.args):
        if id(arg.store) == store_id:
            return index
    return None


@cache
def process_count() -> int:
    """How many processes (ranks) the program runs on: each issues the same tasks."""
    from legate.core import get_legate_runtime

    return int(get_legate_runtime().node_count)


def machine_has_gpus() -> bool:
    """Whether Legate runs tasks on GPUs here: the backend then builds each kernel for them too,
    and the dtypes whose kernels model cuPyNumeric's CPU kernels only stay unfused. Asked once:
    Legate's machine does not change while a program runs."""
    from legate.core import TaskTarget, get_machine

    return bool(get_machine().count(TaskTarget.GPU) > 0)

"""What lifting produces, and what every library's lifting shares."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from legate_fuse import _core
from legate_fuse.window.holding import TaskRecord

# Privileges as the analysis encodes them (ir::Privilege, src/cpp/ir/window.h).
READ, WRITE, READ_WRITE, REDUCE = (int(p.value) for p in (
    _core.Privilege.READ, _core.Privilege.WRITE, _core.Privilege.READ_WRITE,
    _core.Privilege.REDUCE))


@dataclass(frozen=True)
class LiftedArg:
    store: Any  # LogicalStore
    privilege: int
    redop: int = -1


@dataclass(frozen=True)
class LiftedTask:
    """A task as an operation: `op` names it completely (e.g. "BINARY_OP.ADD"); a task with
    run-time scalar arguments (clip bounds...) is not lifted."""

    op: str
    args: tuple[LiftedArg, ...]
    aligned: bool


_VARIABLE = re.compile(r"X(\d+)\{")


def variable_id(variable: Any) -> int | None:
    match = _VARIABLE.match(str(variable))
    return int(match.group(1)) if match else None


def constraints_align(record: TaskRecord, partitioned: list[int]) -> bool:
    """Whether the recorded constraints align every partitioned argument (given by their
    partition variable ids) with every other.

    Only alignment is understood: any other constraint (broadcast, image, bloat, scale) means
    the task's iteration is not element-wise, and the task is not lifted."""
    group: dict[int, set[int]] = {v: {v} for v in partitioned}

    def join(a: int, b: int) -> None:
        ga, gb = group.setdefault(a, {a}), group.setdefault(b, {b})
        if ga is not gb:
            ga |= gb
            for member in gb:
                group[member] = ga

    for name, args, _ in record.calls:
        if name == "add_constraint":
            constraints = args[0] if isinstance(args[0], list | tuple) else [args[0]]
            for constraint in constraints:
                text = str(constraint)
                if not text.lstrip("[").startswith("Align("):
                    return False
                ids = _VARIABLE.findall(text)
                for other in ids[1:]:
                    join(int(ids[0]), int(other))
        elif name == "add_alignment":  # its stores are recorded by id()
            first, second = (_variable_of(record, store_id) for store_id in args[:2])
            if first is None or second is None:
                return False
            join(first, second)
        elif name == "add_broadcast":
            return False
    return not partitioned or (len(group[partitioned[0]]) >= len(set(partitioned)) and all(
        group[v] is group[partitioned[0]] for v in partitioned
    ))


def _variable_of(record: TaskRecord, store_id: int) -> int | None:
    for arg in record.args:
        if id(arg.store) == store_id:
            return variable_id(arg.variable)
    return None

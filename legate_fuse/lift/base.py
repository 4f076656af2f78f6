"""What lifting produces, and the dispatch to each library's lifting."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from legate_fuse.window import TaskRecord

# Privileges as the analysis encodes them (src/cpp/ir/window.h).
READ, WRITE, READ_WRITE, REDUCE = 0, 1, 2, 3


@dataclass(frozen=True)
class LiftedArg:
    store: Any  # LogicalStore
    privilege: int
    redop: int = -1


@dataclass(frozen=True)
class LiftedTask:
    """A task as an operation: `op` names it completely except for run-time values
    (e.g. "cupynumeric.BINARY_OP.ADD"); `scalars` are its run-time scalar arguments."""

    op: str
    args: tuple[LiftedArg, ...]
    aligned: bool
    scalars: tuple[Any, ...] = ()


_VARIABLE = re.compile(r"X(\d+)\{")


def variable_id(variable: Any) -> int | None:
    match = _VARIABLE.match(str(variable))
    return int(match.group(1)) if match else None


def constraints_align(record: TaskRecord, partitioned: list[Any]) -> bool:
    """Whether the recorded constraints align every partitioned argument (given by their
    partition variables) with every other.

    Only alignment is understood: any other constraint (broadcast, image, bloat, scale) means
    the task's iteration is not element-wise, and the task is not lifted."""
    pairs: list[tuple[int, int]] = []
    for name, args, _ in record.calls:
        if name == "add_constraint":
            constraints = args[0] if isinstance(args[0], list | tuple) else [args[0]]
            for constraint in constraints:
                text = str(constraint).strip("[]")
                if not text.startswith("Align("):
                    return False
                ids = [int(v) for v in _VARIABLE.findall(text)]
                pairs += [(ids[0], other) for other in ids[1:]]
        elif name == "add_alignment":
            first, second = (_variable_of(record, store) for store in args[:2])
            if first is None or second is None:
                return False
            pairs.append((first, second))
        elif name == "add_broadcast":
            return False
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        parent[find(a)] = find(b)
    return len({find(v) for v in partitioned}) <= 1


def _variable_of(record: TaskRecord, store: Any) -> int | None:
    for arg in record.args:
        if arg.store is store:
            return variable_id(arg.variable)
    return None


def lift(record: TaskRecord) -> LiftedTask | None:
    """The lifted form of `record`, or None (opaque)."""
    from legate_fuse.lift import cupynumeric

    if record.library_name == cupynumeric.LIBRARY_NAME:
        return cupynumeric.lift(record)
    return None

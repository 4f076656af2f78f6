"""Row calls: a library routine a fused task runs on each point's block before its kernel, so
that a task of another library joins the element-wise work around it (legate_csr's sparse
product: `r = b - A @ x; rr = r @ r` as one task per block).

A lifting declares its row calls with an optional method `row_calls()`: a dict from the
operation its `lift` gives such a task (the LiftedTask's `op`) to a `RowCall`. The lifted task's
arguments are its result (WRITE_CALL: partitioned with the group, then read by the kernel) and
what the routine reads (READ_CALL: partitioned with the group, or through the image of another
argument, as `images` says). The routine is a C function of the library's own module,
registered with the FUSED task in every process under the call's name (its address differs
between processes; its name does not):

    extern "C" void routine(const legate::PhysicalStore* stores, std::size_t count,
                            const legate_fuse_row_parts* parts);

It receives the stores of one point task in the order of the lifted task's arguments, and must
compute what the library's task computes on that point, bit for bit; it may run its work in
parts on the fused task's threads (src/cpp/runtime/row_call_abi.h, installed in the package's
include folder beside kernel_abi.h).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RowCall:
    name: str  # unique among row calls: "library.ROUTINE"
    address: int  # of the routine in this process
    # (source, target, hint): argument `target` is read through the image of argument `source`
    # (indices in the lifted task's arguments), with Legate's ImageComputationHint or None.
    images: tuple[tuple[int, int, Any], ...]


# Lifted operation -> its row call, from every lifting loaded so far.
_BY_OP: dict[str, RowCall] = {}


def note_lifting(lifting: Any) -> None:
    """Registers the row calls `lifting` declares (if any), here and with the FUSED task."""
    declared = getattr(lifting, "row_calls", None)
    if declared is None:
        return
    calls: dict[str, RowCall] = declared()
    if not calls:
        return
    from legate_fuse import _tasks

    for op, call in calls.items():
        _tasks.register_row_call(call.name, int(call.address))
        _BY_OP[op] = call


def row_call(op: str) -> RowCall:
    """The row call the lifted operation `op` stands for; KeyError if none was declared."""
    return _BY_OP[op]

"""What the plugin records of a task the program submits: the task, its store arguments and the
calls that built it. Made by the capture (lazy_task.py, task_proxy.py), held by the window,
read by the lifting and the planner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class StoreLike(Protocol):
    def overlaps(self, other: Any) -> bool: ...


class Executable(Protocol):
    def execute(self) -> None: ...


# Records are slotted: one is made for every task and store argument of the program, and a
# slotted dataclass is built and read faster than one with a __dict__.
#
# A window holds its records for hundreds of tasks, long enough for Python's cyclic garbage
# collector to move them to its oldest generation, whose collections then traverse them all:
# fusion on once ran twice as many full collections as fusion off on a stencil loop. So a
# record, once submitted, keeps its calls in tuples of plain values (a partition variable as
# `("argument", index)`, not the object cuPyNumeric was given), which the collector stops
# following after its first pass, and few objects of its own.
_ARGUMENT = "argument"
_ARGUMENTS = tuple((_ARGUMENT, index) for index in range(16))  # made once: the common ones


def argument_ref(index: int) -> tuple[str, int]:
    """A partition variable of the task's own, argument `index`, as its record keeps it."""
    return _ARGUMENTS[index] if index < len(_ARGUMENTS) else (_ARGUMENT, index)


def is_argument_ref(value: Any) -> bool:
    """Whether a recorded call's argument stands for a partition variable of the task's own
    (`argument_ref`; its index is `value[1]`)."""
    return type(value) is tuple and len(value) == 2 and value[0] == _ARGUMENT


@dataclass(slots=True)
class StoreArg:
    """A store argument as the task received it: `kind` is the add_* method that added it."""

    kind: str  # "add_input", "add_output" or "add_reduction"
    store: Any
    redop: int = -1


@dataclass(slots=True, weakref_slot=True)
class TaskRecord:
    """One held task: the real task object, the stores it touches and the calls that built it."""

    task: Executable
    # Lists while the task is recorded; tuples once it is submitted (see above).
    stores: Sequence[Any] = ()
    calls: Sequence[tuple[str, tuple[Any, ...]]] = ()  # (add_* method, arguments)
    library_name: str = ""
    task_id: int = -1
    args: Sequence[StoreArg] = ()
    # Its lifted form, once the planner has lifted it: (LiftedTask or None for opaque,).
    lifted: tuple[Any] | None = None
    # Recorded by a LazyAutoTask: every call understood, no real task built while held.
    lazy: bool = False
    # Of a lazy record: its calls with stores replaced by their argument index, type and number
    # of dimensions (an argmin lifts when its axis is the last); whatever lifting reads of a
    # task but the stores themselves.
    shape: Sequence[Any] = ()
    # Of a lazy record whose kind is watched: the program's call site (capture/call_sites.py).
    site: Any = None
    # Of a lazy record: the stores it is built with in place of those the program gave, by
    # id() of the program's store (a store that runs in another's memory, see
    # backend/shared_storage.py).
    storage: dict[int, Any] | None = None

    def scalar_calls(self) -> list[tuple[Any, ...]]:
        """The arguments of each of the task's add_scalar_arg calls, in order."""
        return [args for name, args in self.calls if name == "add_scalar_arg"]

    def scalars(self) -> list[Any]:
        """The first argument (the value) of each add_scalar_arg call, in order."""
        return [args[0] for args in self.scalar_calls()]

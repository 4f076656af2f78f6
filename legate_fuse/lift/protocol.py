"""What a Legate library gives the plugin so that its tasks are recorded and fused: its
*lifting*, registered under the library's name (`legate_fuse.register_lifting`, or an entry
point of the group `legate_fuse.liftings`). cuPyNumeric's lifting (lift/cupynumeric.py) is one.

The plugin records a task lazily, without building it, only if its id is among
`lifted_task_ids()`; it is then held in the window with the program's other tasks instead of
running at once. At a flush, `lift(record)` says what the task computes: a `LiftedTask` (an
operation of the fusion analysis, its arguments with their privileges) or None, and the task
then runs as its library built it, in program order, never fused. Lifting reads nothing of a
record but its library, task id and `shape` (each call that built it, with its stores replaced
by their argument index, type and number of dimensions): equal shapes must lift alike.

A lifting may also declare `row_calls()`: the library routines its lifted tasks stand for,
which a fused task runs on each block before its kernel (lift/row_calls.py).

A lifting may also set `data_interface_builds_tasks = True`: the code of its package reads
cuPyNumeric arrays' `__legate_data_interface__` only to build tasks with their stores, never to
read their values. Such a read then does not flush the window (any other code's does).

A lifting may also set `tasks_built_in_one_call = ("package", ...)`: the top-level packages
whose code creates each of the library's tasks, adds its arguments and submits it within one
function call, the task held only in a local variable of that function (never returned, stored
elsewhere or built in a generator). While the plugin stands aside (fusion does not pay, or
nothing fused for a while), tasks created from that code are then Legate's own, without the
plugin's proxy, as cuPyNumeric's are: the plugin's work on them is saved. Declared wrongly, a
task submitted after the plugin came back could run before tasks it holds.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift.base import LiftedTask


class Lifting(Protocol):
    """The methods of a library's lifting (a module or an object)."""

    METHODS: ClassVar[tuple[str, ...]] = ("lifted_task_ids", "scalar_limits", "task_names",
                                          "lift", "pays_alone", "runtime_scalar")

    def lifted_task_ids(self) -> Any:
        """The ids (ints) of the tasks to record lazily and hold: those `lift` may lift, and
        those that may wait in the window unlifted (run as built, after what came before)."""

    def scalar_limits(self) -> dict[int, int]:
        """Per task id, the most scalar arguments it can have and still be recorded (a task
        given more is built at once); ids not listed take any number."""

    def task_names(self) -> dict[int, str]:
        """Names of task ids, for the statistics and plans ("SPMV" reads `library.SPMV`)."""

    def lift(self, record: TaskRecord) -> LiftedTask | None:
        """What the task computes, or None: it runs as its library built it."""

    def pays_alone(self, record: TaskRecord) -> bool:
        """Whether the lifted task runs faster fused alone than as built (usually False)."""

    def runtime_scalar(self, record: TaskRecord, index: int) -> bytes:
        """The `index`-th run-time value of a lifted task, as a kernel's 8-byte slot holds it
        (for operations whose codes take run-time values)."""

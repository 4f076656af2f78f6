"""The real task of a recorded one (lazy_task.py), built when it runs unfused: its recorded
calls replayed, in order, under the provenance it was created with."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from legate_fuse.capture.pending import ORIGINAL_CONSTRAINTS
from legate_fuse.capture.scopes import legate_scope
from legate_fuse.capture.task_record import TaskRecord, is_argument_ref


class BuildAndExecute:
    """What a lazy task's record runs when it runs unfused: the real task, built now.

    It refers to its record weakly, and nothing here refers to the LazyAutoTask: a task and its
    stores are freed when the program and the window drop them, never by the cyclic garbage
    collector, which may run on any thread (a LogicalStore freed on a thread Legate does not
    know crashes the process)."""

    __slots__ = ("_library", "_provenance", "_runtime", "record")

    def __init__(self, runtime: Any, library: Any, provenance: str) -> None:
        self._runtime = runtime  # Legate's own runtime
        self._library = library
        self._provenance = provenance
        self.record: weakref.ref[TaskRecord] | None = None

    def execute(self) -> None:
        record = self.record() if self.record is not None else None
        if record is None:
            raise RuntimeError("a held task's record was freed before it ran")
        runtime, library = self._runtime, self._library
        task, _ = replay(record, self._provenance,
                         lambda: runtime.create_auto_task(library, record.task_id))
        task.execute()


def replay(record: TaskRecord, provenance: str, create: Callable[[], Any]
           ) -> tuple[Any, list[Any]]:
    """The task `create()` returns, given the recorded calls in order under `provenance`, and
    its real partition variables."""
    stores = {id(arg.store): arg.store for arg in record.args} | (record.storage or {})
    variables: list[Any] = []

    def argument(value: Any) -> Any:  # a recorded argument_ref: its real variable
        return variables[value[1]] if is_argument_ref(value) else value

    with legate_scope()(provenance=provenance):
        task = create()
        for name, args in record.calls:
            if name in ("add_input", "add_output", "add_reduction"):
                variables.append(getattr(task, name)(stores[args[0]],
                                                     *map(argument, args[1:])))
            elif name == "add_constraint":
                kind, *constraint_args = args
                task.add_constraint(ORIGINAL_CONSTRAINTS[kind](*map(argument,
                                                                    constraint_args)))
            elif name in ("add_alignment", "add_broadcast"):
                count = 2 if name == "add_alignment" else 1
                getattr(task, name)(*(stores[i] for i in args[:count]), *args[count:])
            else:
                getattr(task, name)(*args)
    return task, variables

"""Lifting: recorded Legate tasks to operations the fusion analysis and code generator know.

One module per Legate library, found through `LIBRARIES`. A task no lifting recognises is
opaque: it runs exactly as the library built it, and the analysis never fuses across it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from legate_fuse.capture import compat
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift.base import READ, REDUCE, WRITE, LiftedArg, LiftedTask

__all__ = ["LIBRARIES", "READ", "REDUCE", "WRITE", "LiftedArg", "LiftedTask", "lazy_task_ids",
           "lift", "pays_alone", "runtime_scalar", "task_name", "task_name_of"]

# Legate library name -> the module that lifts its tasks (`lift(record)`, `pays_alone(record)`,
# `task_names()`, ...).
# Imported when a task of the library is first lifted: a lifting module imports Legate, which
# must not be loaded before the program loads it.
LIBRARIES = {"cupynumeric": "legate_fuse.lift.cupynumeric"}


def library_lifting(library_name: str) -> ModuleType | None:
    module = LIBRARIES.get(library_name)
    return importlib.import_module(module) if module is not None else None


def lazy_task_ids(library_name: str) -> dict[int, int | None]:
    """The ids of the tasks of `library_name` its lifting may lift, each with the most scalar
    arguments it can take and still be lifted (None: any number): they are recorded without
    being built (capture/lazy_task.py); none for a library without a lifting."""
    lifting = library_lifting(library_name)
    if lifting is None:
        return {}
    limits: dict[int, int] = lifting.scalar_limits()
    return {task_id: limits.get(task_id) for task_id in lifting.lifted_task_ids()}


# A lazy record's library, task id and shape -> how it lifted: None (opaque), or its operation,
# whether its arguments are aligned, their privileges and whether it runs fused alone. Lifting
# reads nothing else of a record, so a loop's tasks are lifted once, then looked up.
_LIFTED: dict[tuple[Any, ...], tuple[str, bool, tuple[int, ...], bool, bool] | None] = {}
_UNSEEN = ("", False, (), False, False)


def lift(record: TaskRecord) -> LiftedTask | None:
    """The lifted form of `record`, or None (opaque). Only lazily recorded tasks are lifted:
    every call that built them is understood."""
    if not record.lazy:
        return None  # built with a call the lifting does not understand: as built
    key = (record.library_name, record.task_id, *record.shape)
    try:
        known = _LIFTED.get(key, _UNSEEN)
    except TypeError:  # an unhashable scalar argument: lifted afresh
        return _lift(record)
    if known is _UNSEEN:
        lifted = _lift(record)
        if len(_LIFTED) >= 4096:
            _LIFTED.clear()  # programs rarely have that many kinds of task; start again
        _LIFTED[key] = known = None if lifted is None else (
            lifted.op, lifted.aligned, tuple(a.privilege for a in lifted.args),
            lifted.fused_alone, lifted.draws)
        return lifted
    if known is None:
        return None
    op, aligned, privileges, fused_alone, draws = known
    # A list comprehension, not a generator: built for every held task at every flush.
    return LiftedTask(op, tuple([LiftedArg(arg.store, privilege, arg.redop)
                                 for arg, privilege in zip(record.args, privileges,
                                                           strict=True)]), aligned, fused_alone,
                      draws)


def _lift(record: TaskRecord) -> LiftedTask | None:
    if any(name not in compat.TASK_LIFTABLE_CALLS for name, _ in record.calls):
        return None
    lifting = library_lifting(record.library_name)
    lifted: LiftedTask | None = lifting.lift(record) if lifting is not None else None
    return lifted


def pays_alone(record: TaskRecord) -> bool:
    """Whether `record`, lifted, runs faster as a fused task of its own than as its library
    built it, when no other lifted task is in its window to fuse with (its library's lifting
    says: cuPyNumeric's large random draws, made in parts on several threads)."""
    lifting = library_lifting(record.library_name)
    return lifting is not None and bool(lifting.pays_alone(record))


def runtime_scalar(record: TaskRecord, index: int) -> bytes:
    """The `index`-th run-time value of a lifted task (ir::runtime_scalar_count), as a kernel's
    scalar slot holds it; read from the record at each launch, since windows that differ only
    in such values share their plan and kernel."""
    lifting = library_lifting(record.library_name)
    if lifting is None:
        raise ValueError(f"{task_name(record)} has no lifting")
    value: bytes = lifting.runtime_scalar(record, index)
    return value


def task_name(record: TaskRecord) -> str:
    """`library.TASK` for a task its library's lifting can name, else `library:id`."""
    return task_name_of(record.library_name, record.task_id)


def task_name_of(library_name: str, task_id: int) -> str:
    """`library.TASK` for a task id its library's lifting can name, else `library:id`."""
    lifting = library_lifting(library_name)
    name = lifting.task_names().get(task_id) if lifting is not None else None
    if name is not None:
        return f"{library_name}.{name}"
    return f"{library_name}:{task_id}"

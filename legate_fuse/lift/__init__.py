"""Lifting: recorded Legate tasks to operations the fusion analysis and code generator know.

Each Legate library's tasks are lifted by its *lifting* (the methods of `Lifting`,
lift/protocol.py), registered under the library's name with `register` (public as
`legate_fuse.register_lifting`) or declared by an installed package as an entry point of the
group `legate_fuse.liftings`. cuPyNumeric's is registered here, through the same call. A task
no lifting recognises is opaque: it runs exactly as the library built it, and the analysis never
fuses across it.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from legate_fuse.capture import compat, direct_tasks
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift import row_calls
from legate_fuse.lift.base import READ, REDUCE, WRITE, LiftedArg, LiftedTask
from legate_fuse.lift.protocol import Lifting
from legate_fuse.lift.row_calls import RowCall

__all__ = ["ENTRY_POINT_GROUP", "READ", "REDUCE", "WRITE", "LiftedArg", "LiftedTask", "Lifting",
           "RowCall",
           "builds_tasks_only", "generation", "lazy_task_ids", "lift", "pays_alone", "register",
           "runtime_scalar", "task_name", "task_name_of"]

ENTRY_POINT_GROUP = "legate_fuse.liftings"

logger = logging.getLogger("legate_fuse")

# Legate library name -> its lifting, or where to import it from ("module" or
# "module:attribute"): imported when a task of the library is first lifted, since a lifting
# imports Legate, which must not be loaded before the program loads it.
_LIFTINGS: dict[str, Lifting | str] = {}
_entry_points_read = False
_generation = 0


def register(library_name: str, lifting: Lifting | str) -> None:
    """Lifts the tasks of the Legate library `library_name` with `lifting` from now on (an
    object or module with the methods of `Lifting`, or where to import it from), in place of
    any lifting registered before. Call it before the library's first task is created: a
    library's liftable task ids are read once."""
    if not isinstance(library_name, str) or not library_name:
        raise TypeError(f"a Legate library's name, not {library_name!r}")
    if not isinstance(lifting, str):
        missing = [name for name in Lifting.METHODS if not callable(getattr(lifting, name, None))]
        if missing:
            raise TypeError(f"the lifting of {library_name!r} lacks {', '.join(missing)}")
    if not isinstance(lifting, str):
        direct_tasks.note_built_in_one_call(getattr(lifting, "tasks_built_in_one_call", ()))
        row_calls.note_lifting(lifting)
    _LIFTINGS[library_name] = lifting
    # What an earlier lifting of the library made of its tasks is forgotten, here and by
    # whoever kept it (the streams encoded: plan/replay.py).
    _LIFTED.clear()
    _BUILDS_TASKS.clear()
    global _generation
    _generation += 1


def generation() -> int:
    """How many times liftings were registered: what was made of tasks under an older
    generation may no longer be what their lifting makes of them."""
    return _generation


def _read_entry_points() -> None:
    """The liftings installed packages declare (entry points), registered once; one registered
    by a call keeps its place."""
    global _entry_points_read
    _entry_points_read = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        _LIFTINGS.setdefault(entry.name, entry.value)


def library_lifting(library_name: str) -> Lifting | None:
    if not _entry_points_read and library_name not in _LIFTINGS:
        _read_entry_points()
    lifting = _LIFTINGS.get(library_name)
    if isinstance(lifting, str):
        module_name, _, attribute = lifting.partition(":")
        module: Any = importlib.import_module(module_name)
        lifting = _LIFTINGS[library_name] = getattr(module, attribute) if attribute else module
        try:
            direct_tasks.note_built_in_one_call(getattr(lifting, "tasks_built_in_one_call", ()))
        except TypeError as error:  # its tasks then get the plugin's proxy, as any library's
            logger.warning("the lifting of %r: %s", library_name, error)
        row_calls.note_lifting(lifting)
    return lifting


def lazy_task_ids(library_name: str) -> dict[int, int | None]:
    """The ids of the tasks of `library_name` its lifting may lift, each with the most scalar
    arguments it can take and still be lifted (None: any number): they are recorded without
    being built (capture/lazy_task.py); none for a library without a lifting."""
    lifting = library_lifting(library_name)
    if lifting is None:
        return {}
    limits = lifting.scalar_limits()
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


# Top-level package -> whether its code reaches stores through the data interface only to
# build tasks (see builds_tasks_only).
_BUILDS_TASKS: dict[str, bool] = {}


def builds_tasks_only(module_name: str) -> bool:
    """Whether code of the module `module_name` reads cuPyNumeric's data interface only to
    build tasks with the stores it gets: its package is that of a library's registered lifting
    that says so (`data_interface_builds_tasks`). Those tasks go through the plugin, so the
    window need not run first."""
    package = module_name.partition(".")[0]
    known = _BUILDS_TASKS.get(package)
    if known is None:
        known = _BUILDS_TASKS[package] = any(
            _package_of(lifting) == package
            and bool(getattr(library_lifting(name), "data_interface_builds_tasks", False))
            for name, lifting in _registered().items())
    return known


def _registered() -> dict[str, Lifting | str]:
    if not _entry_points_read:
        _read_entry_points()
    return dict(_LIFTINGS)


def _package_of(lifting: Lifting | str) -> str:
    """The top-level package a lifting comes from."""
    if isinstance(lifting, str):
        where = lifting
    else:
        where = getattr(lifting, "__name__", None) or type(lifting).__module__
    return where.partition(":")[0].partition(".")[0]


# cuPyNumeric's lifting, registered as any library's is.
register("cupynumeric", "legate_fuse.lift.cupynumeric")

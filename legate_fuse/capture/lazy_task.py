"""Lazy task creation: a task the lifting may fuse is recorded, and built only if it runs unfused.

For a task kind the lifting knows (cuPyNumeric's element-wise operations and reductions), the
runtime proxy returns a `LazyAutoTask` instead of building Legate's AutoTask: the calls that
build the task are recorded, partition variables and `align`/`broadcast` constraints are stood
for by `PendingVariable`/`PendingConstraint`, and nothing reaches Legate. A fused task never
becomes an AutoTask; an unfused one is built when it runs, by replaying the recorded calls in
order, under the provenance it was created with.

Any call not understood here (another method, a partition argument, an argument that is not a
LogicalStore, a scalar that could change before the task is built, a reduction Legate does not
define on the store's type) builds the real task at once, replays what was recorded, and from
then on the task is an ordinary `AutoTaskProxy`, run when submitted: Legate sees exactly the
calls it would have seen without the plugin, and validates them itself (raising, if it does,
in the program's statement, not where the window runs).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from legate.core import LogicalStore, Scalar

from legate_fuse.capture import compat
from legate_fuse.capture.build_task import BuildAndExecute, replay
from legate_fuse.capture.call_sites import Outcome
from legate_fuse.capture.pending import PendingConstraint, PendingVariable, immutable, real
from legate_fuse.capture.task_proxy import AutoTaskProxy, Session
from legate_fuse.capture.task_record import StoreArg, TaskRecord, argument_ref, is_argument_ref
from legate_fuse.unfused import NOT_LIFTED_CALL

# Whether the lifting takes these calls at all (compat.TASK_LIFTABLE_CALLS), read once.
_INPUTS_LIFTABLE = "add_input" in compat.TASK_LIFTABLE_CALLS
_OUTPUTS_LIFTABLE = "add_output" in compat.TASK_LIFTABLE_CALLS


class LazyAutoTask:
    """Stands for an AutoTask of a kind the lifting knows; records its calls, builds nothing."""

    __slots__ = ("__weakref__", "_args", "_built", "_calls", "_executed", "_library",
                 "_max_scalars", "_provenance", "_record", "_scalars", "_session", "_shape",
                 "_stores", "variables")

    def __init__(self, session: Session, library: Any, task_id: int, provenance: str,
                 max_scalars: int | None = None) -> None:
        self._session = session
        # Past this many scalar arguments the task cannot be lifted: it is built at once, as
        # cuPyNumeric would have built it, rather than recorded and built later.
        self._max_scalars = max_scalars
        self._scalars = 0
        self._library = library
        self._provenance = provenance
        build = BuildAndExecute(session.runtime_proxy.unwrapped, library, provenance)
        # The record's lists, appended to here until the task is submitted (then tuples).
        self._stores: list[Any] = []
        self._args: list[StoreArg] = []
        self._calls: list[tuple[str, tuple[Any, ...]]] = []
        self._shape: list[Any] = []
        self._record = TaskRecord(task=build, stores=self._stores, calls=self._calls,
                                  library_name=library.name, task_id=task_id,
                                  args=self._args, lazy=True, shape=self._shape)
        build.record = weakref.ref(self._record)
        self._built: AutoTaskProxy | None = None
        self._executed = False
        self.variables: Sequence[Any] = ()  # the real partition variables, once built

    @property
    def record(self) -> TaskRecord:
        return self._record

    # -- the calls a lifted task is built with ----------------------------------------------
    def add_input(self, *args: Any, **kwargs: Any) -> Any:
        # The common call, checked inline: this runs for every input of every task.
        if (len(args) == 1 and not kwargs and self._built is None
                and type(args[0]) is LogicalStore and _INPUTS_LIFTABLE):
            return self._note_store("add_input", args[0], -1, (id(args[0]),))
        return self._add_store_arg("add_input", args, kwargs)

    def add_output(self, *args: Any, **kwargs: Any) -> Any:
        store = args[0] if len(args) == 1 and not kwargs else None
        if (self._built is None and type(store) is LogicalStore and _OUTPUTS_LIFTABLE
                and not store.unbound):
            return self._note_store("add_output", store, -1, (id(store),))
        if len(args) == 2 and not kwargs:
            return self._add_output_in_place(*args)
        return self._add_store_arg("add_output", args, kwargs)

    def _add_output_in_place(self, store: Any, variable: Any) -> Any:
        """`add_output(store, variable)` where `variable` is this task's own input of the same
        store (cuPyNumeric's putmask writes the array it reads, partitioned as it is read):
        recorded with the argument it shares its partition with, which aligns the two."""
        if (self._built is not None or type(store) is not LogicalStore or store.unbound
                or type(variable) is not PendingVariable or variable.task_ref() is not self
                or self._args[variable.index].store is not store or not _OUTPUTS_LIFTABLE):
            return self._add_store_arg("add_output", (store, variable), {})
        self._args.append(StoreArg("add_output", store))
        self._stores.append(store)
        self._calls.append(("add_output", (id(store), argument_ref(variable.index))))
        self._shape.append(("add_output", -1, store.type, store.ndim,
                            ("partition of", variable.index)))
        return variable

    def add_reduction(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_arg("add_reduction", args, kwargs)

    def _add_store_arg(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        store = args[0] if args else None
        arity = 2 if name == "add_reduction" else 1
        if (self._built is not None or kwargs or len(args) != arity
                or type(store) is not LogicalStore or name not in compat.TASK_LIFTABLE_CALLS
                or (name == "add_output" and store.unbound)
                or (arity == 2 and not _reduction_defined(store, args[1]))):
            return getattr(self.build(), name)(*args, **kwargs)
        return self._note_store(name, store, int(args[1]) if arity == 2 else -1,
                                (id(store), *args[1:]))

    def _note_store(self, name: str, store: LogicalStore, redop: int,
                    call_args: tuple[Any, ...]) -> PendingVariable:
        """Records a store argument; `call_args`: the call's arguments, the store by id()."""
        args = self._args
        variable = PendingVariable(self, len(args))
        args.append(StoreArg(name, store, redop))
        self._stores.append(store)
        self._calls.append((name, call_args))
        self._shape.append((name, redop, store.type, store.ndim))
        return variable

    def add_scalar_arg(self, *args: Any, **kwargs: Any) -> Any:
        self._scalars += 1
        if (self._built is not None or kwargs or not 1 <= len(args) <= 2
                or not immutable(args[0]) or "add_scalar_arg" not in compat.TASK_LIFTABLE_CALLS
                or (self._max_scalars is not None and self._scalars > self._max_scalars)):
            return self.build().add_scalar_arg(*args, **kwargs)
        self._calls.append(("add_scalar_arg", args))
        # A Scalar object is stated by its type alone: lifting reads the values of plain
        # arguments only (operation codes, axes), and a Scalar's value at launch (a kernel's
        # run-time scalar), so tasks differing only in it share their lifting and encoding.
        if len(args) == 1:
            value = args[0]
            shape: Any = ("add_scalar_arg", (type(value), value) if type(value) is not Scalar
                          else (Scalar, value.type))
        else:
            value, kind = args
            shape = (("add_scalar_arg", (type(value), value), (type(kind), kind))
                     if type(value) is not Scalar and type(kind) is not Scalar else [args])
        self._shape.append(shape)
        return None

    def add_constraint(self, *args: Any, **kwargs: Any) -> Any:
        constraint = args[0] if len(args) == 1 and not kwargs else None
        if self._built is None and type(constraint) is PendingConstraint:
            # Recorded as (kind, arguments), a variable of this task as its argument_ref.
            recorded: list[Any] = [constraint.kind]
            for arg in constraint.args:
                if type(arg) is PendingVariable:
                    if arg.task_ref() is not self:  # (not the property: one call less)
                        break  # another task's variable: Legate reports it
                    recorded.append(argument_ref(arg.index))
                elif is_argument_ref(arg):
                    break  # a value that would read as a variable: as Legate takes it
                else:
                    recorded.append(arg)
            else:
                shape = tuple(recorded)  # the call and its shape are the same here
                self._calls.append(("add_constraint", shape))
                self._shape.append(shape)
                return None
        return self.build().add_constraint(*map(real, args), **kwargs)

    def add_alignment(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_constraint("add_alignment", args, kwargs, 2)

    def add_broadcast(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_constraint("add_broadcast", args, kwargs, 1)

    def _add_store_constraint(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                              stores: int) -> Any:
        index = {id(arg.store): i for i, arg in enumerate(self._args)}
        if (self._built is not None or kwargs or len(args) < stores
                or any(id(s) not in index for s in args[:stores])
                or not all(immutable(a) for a in args[stores:])):
            return getattr(self.build(), name)(*args, **kwargs)
        self._calls.append((name, (*map(id, args[:stores]), *args[stores:])))
        self._shape.append((name, *(index[id(s)] for s in args[:stores]), *args[stores:]))
        return None

    def execute(self) -> None:
        if self._built is not None:
            self._built.execute()
            return
        if self._executed:
            raise RuntimeError("this task was already submitted")
        self._executed = True
        record = self._record
        record.stores, record.args = tuple(self._stores), tuple(self._args)
        record.calls, record.shape = tuple(self._calls), tuple(self._shape)
        self._session.submit_auto_task(record)

    def __getattr__(self, name: str) -> Any:
        # Anything else: from now on the real task, behind an ordinary proxy.
        return getattr(self.build(), name)

    # -- the real task ----------------------------------------------------------------------
    def build(self) -> AutoTaskProxy:
        """The real AutoTask, behind an eager proxy whose record replaces the lazy one: for a
        call not understood here, before the task is submitted."""
        if self._built is None:
            record = self._record
            # Given a call the lifting does not understand: this task is not lifted.
            self._session.call_sites.note(record.library_name, record.task_id, record.site,
                                          Outcome.NOT_LIFTED)
            self._session.stats.unfused[record.library_name, record.task_id,
                                        NOT_LIFTED_CALL] += 1
            runtime, library = self._session.runtime_proxy, self._library
            self._built, self.variables = replay(
                self._record, self._provenance,
                lambda: runtime.create_eager_task(library, self._record.task_id))
        return self._built


def _timed_as_record(method: Callable[..., Any]) -> Callable[..., Any]:
    """`method` of a LazyAutoTask, its time charged to the session's `record` stage."""

    def timed(self: LazyAutoTask, *args: Any, **kwargs: Any) -> Any:
        with self._session.clock.stage("record"):
            return method(self, *args, **kwargs)

    timed.__name__ = timed.__qualname__ = method.__name__
    timed.__doc__ = method.__doc__
    return timed


class TimedLazyAutoTask(LazyAutoTask):
    """A LazyAutoTask whose time is measured (LEGATE_FUSE_PROFILE=1), as `record`: every call
    a lifted task is built with, and its submission."""

    __slots__ = ()

    add_input = _timed_as_record(LazyAutoTask.add_input)
    add_output = _timed_as_record(LazyAutoTask.add_output)
    add_reduction = _timed_as_record(LazyAutoTask.add_reduction)
    add_scalar_arg = _timed_as_record(LazyAutoTask.add_scalar_arg)
    add_constraint = _timed_as_record(LazyAutoTask.add_constraint)
    execute = _timed_as_record(LazyAutoTask.execute)


def _reduction_defined(store: LogicalStore, redop: Any) -> bool:
    try:  # (a complex product: Legate defines none)
        return store.type.reduction_op_id(redop) is not None
    except (ValueError, TypeError, OverflowError):
        return False

"""A reduction to one value computed again over unchanged arrays: the value it gave is reused.

scipy's CG (and its followers) reads the residual's norm, then takes the dot product of the
residual with itself: `norm(r)` is cuPyNumeric's `sqrt(dot(r, r))`, and with no preconditioner
`dot(r, z)` is the same DOT task over the same `r`, nothing written between. The first ran in
the window the norm's read flushed; the second would stream `r` again, a chain of 1e6 dependent
additions per 1e6 elements, alone in its launch (the task after it waits for its value). Its
target gets the first one's value instead, by one fill: the same bits, since the same task over
the same elements gives them (`runs_one_point`: one point, one order of summation).

A task is *repeatable* when it was recorded with every call understood (`TaskRecord.lazy`),
reduces into one 0-d store, only reads its other stores, and takes no Scalar object (a value
the record does not keep). A repeatable task that ran is remembered, with its stores, when:

- its target was written: it ran as built, or a fused launch wrote it (a reduction whose value
  nothing reads is a dead task of its group, never run);
- no task after it in its window, nor one a cut window keeps, writes its stores;
- nothing the program can write without a task sees its stores (an exported NumPy view alive,
  memory the program attached: ExternalMemory.holds).

A later repeatable task takes the value when its library, task, calls (the plan's shape of the
task: types, constraints, plain arguments), input stores (the same stores: Legate's
descriptions, which name each store by an id of its own) and its target's start are those of
a remembered one. A reduction folds into what its target holds: each must have been filled,
by the runtime operation right before the task (cuPyNumeric fills every DOT's target with
zero, then builds the task), with the same value.

Fail closed: what is remembered is forgotten at the next window run, at any flush but a read,
at every task built at once or run unfused, at every runtime copy, gather or scatter, and
whenever the plugin stops holding tasks. A task or fill writing any view of a remembered
store's storage, or a NumPy view exported of one, forgets it.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy

from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats

Method = TypeVar("Method", bound=Callable[..., Any])


@dataclass(frozen=True)
class _Remembered:
    kind: tuple[Any, ...]  # library, task id and the record's shape
    # Legate's description of each store it reads, in argument order: the store's own id,
    # never another's (no reference kept: an array the program let go goes back to Legate).
    inputs: tuple[str, ...]
    roots: frozenset[str | None]  # of its inputs and target (liveness.root_key)
    target: Any  # the 0-d store holding its value (a Future's)
    fill: tuple[str, bytes]  # the target's fill before the task: type, bytes


@dataclass(frozen=True)
class Repeatable:
    """A repeatable task's parts (see the module's docstring)."""

    kind: tuple[Any, ...]
    inputs: tuple[Any, ...]
    target: Any


def repeatable(record: TaskRecord) -> Repeatable | None:
    """`record`'s parts if it is repeatable, else None."""
    if not record.lazy or not record.args:
        return None
    target = None
    inputs = []
    for arg in record.args:
        if arg.kind == "add_input":
            inputs.append(arg.store)
        elif arg.kind == "add_reduction" and target is None and arg.store.ndim == 0:
            target = arg.store
        else:
            return None
    if target is None or not inputs:
        return None
    scalars = [value for name, values in record.calls if name == "add_scalar_arg"
               for value in values]
    if scalars:
        from legate.core import Scalar

        if any(type(value) is Scalar for value in scalars):
            return None
    return Repeatable((record.library_name, record.task_id, tuple(record.shape)),
                      tuple(inputs), target)


def _writes(record: TaskRecord) -> list[Any] | None:
    """The stores `record` writes or reduces into; None when they are not known."""
    if not record.lazy:
        return None
    return [arg.store for arg in record.args if arg.kind != "add_input"]


def runs_one_point() -> bool:
    """Whether a launch now runs as one point (backend/launch.py)."""
    from legate_fuse.backend.launch import runs_one_point as one_point

    return one_point()


def fill_key(value: Any) -> tuple[str, bytes] | None:
    """A runtime fill's value as compared: a Scalar's type and bytes (None for a store's)."""
    from legate.core import Scalar

    if type(value) is not Scalar:
        return None
    return str(value.type), numpy.asarray(value).tobytes()


def _fails_closed(default: Any) -> Callable[[Method], Method]:
    """A method that, should anything in it fail, forgets every value, warns once and returns
    `default`: the program's call goes on, its reductions computed again."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def guarded(self: RepeatedReductions, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except Exception as error:  # the plugin must never break the program
                self.clear()
                self._warn(f"reusing the values of reductions failed, computing them again: "
                           f"{error!r}")
                return default

        return guarded  # type: ignore[return-value]

    return wrap


class RepeatedReductions:
    def __init__(self, stats: Stats, exported: Callable[[Any], bool],
                 fill: Callable[[Any, Any], None], warn: Callable[[str], None],
                 root_key: Callable[[Any], str | None],
                 one_point: Callable[[], bool] = runs_one_point,
                 fill_key: Callable[[Any], tuple[str, bytes] | None] = fill_key) -> None:
        self._stats = stats  # its tasks_reused
        self._warn = warn  # (once for the program)
        # Whether the program may write a store's memory without a task (ExternalMemory.holds
        # of its root).
        self._exported = exported
        self._fill = fill  # fills a target with the value of a 0-d store, by Legate's runtime
        self._root_key = root_key  # window/liveness.root_key
        self._one_point = one_point
        self._fill_key = fill_key
        self._remembered: list[_Remembered] = []
        # The last runtime operation, when it was a fill of a 0-d store: (store, its value).
        # A repeatable task recorded right after it, into that store, starts from that value.
        self._last_fill: tuple[Any, tuple[str, bytes]] | None = None
        # Of each repeatable task recorded since the last window ran: the fill its target
        # started from, by id() of its record. Neither the record nor its stores are kept (a
        # weak reference): the analysis counts every other reference to a store as the
        # program's, and would keep a temporary of the window in memory.
        self._started_from: dict[int, tuple[weakref.ref[TaskRecord], tuple[str, bytes]]] = {}
        # The (library, task id) of every task remembered: a task of one is recorded, not
        # built at once (capture/call_sites.py), to be compared.
        self.kinds: set[tuple[str, int]] = set()

    # -- the program's operations, in its order -------------------------------------------
    @_fails_closed(False)
    def takes_value(self, record: TaskRecord) -> bool:
        """Whether `record`, just recorded, computes a value computed before: its target is
        then filled with it, and the task is not run. Else the task is noted (`recorded`)."""
        if not self._remembered and self._last_fill is None:
            return False  # (the common case, on every held task: nothing to compare or note)
        value = self.value_for(record)
        if value is None:
            self.recorded(record)
            return False
        target = next(arg.store for arg in record.args if arg.kind == "add_reduction")
        self._fill(target, value)
        self._stats.tasks_reused += 1
        return True

    def value_for(self, record: TaskRecord) -> Any:
        """The store holding the value `record`, just recorded, would compute, if a remembered
        task computed it; else None."""
        if not self._remembered:
            return None
        parts = repeatable(record)
        fill = self._fill_before(parts)
        if parts is None or fill is None:
            return None
        for remembered in self._remembered:
            if (remembered.kind == parts.kind and remembered.fill == fill
                    and remembered.inputs == tuple(str(store) for store in parts.inputs)
                    and not any(self._exported(store)
                                for store in (*parts.inputs, remembered.target))
                    and self._one_point()):
                return remembered.target
        return None

    @_fails_closed(None)
    def recorded(self, record: TaskRecord) -> None:
        """A task was recorded to be held: what it writes is forgotten; a repeatable one notes
        the fill its target starts from."""
        parts = repeatable(record) if self._last_fill is not None else None
        fill = self._fill_before(parts)
        if parts is not None and fill is not None:
            self._started_from[id(record)] = (weakref.ref(record), fill)
        self._last_fill = None
        if self._remembered:
            writes = _writes(record)
            if writes is None:
                self.clear()
            else:
                self.written(writes)

    def _fill_before(self, parts: Repeatable | None) -> tuple[str, bytes] | None:
        last = self._last_fill
        if parts is None or last is None or last[0] is not parts.target:
            return None
        return last[1]

    @_fails_closed(None)
    def filled(self, stores: Sequence[Any], value: Any) -> None:
        """The stores of an array were filled with `value` (a runtime fill)."""
        self.written(stores)
        key = self._fill_key(value) if len(stores) == 1 and stores[0].ndim == 0 else None
        self._last_fill = (stores[0], key) if key is not None else None

    @_fails_closed(None)
    def written(self, stores: Sequence[Any]) -> None:
        """Something writes `stores` (a task, a fill), or hands them to NumPy (an export)."""
        if self._remembered:
            roots = {self._root_key(store) for store in stores}
            if None in roots:  # (a store whose storage cannot be told: any)
                self.clear()
                return
            self._remembered = [remembered for remembered in self._remembered
                                if not roots & remembered.roots]
            if not self._remembered:
                self.kinds.clear()

    def clear(self) -> None:
        """Forgets every value: something the plugin does not follow happened."""
        self._remembered.clear()
        self.kinds.clear()
        self._last_fill = None

    # -- what the window ran ------------------------------------------------------------------
    @_fails_closed(None)
    def window_ran(self, records: Sequence[TaskRecord], held_back: Sequence[TaskRecord],
                   fused: Iterable[int], written: Sequence[Any]) -> None:
        """A window ran: `fused`, the numbers of its records a fused launch ran (the others ran
        as built), which wrote `written`. Remembers its repeatable tasks (the module's
        docstring), forgetting what was remembered before."""
        self.clear()
        started_from, self._started_from = self._started_from, {}
        if not started_from:
            return
        kept_writes = [_writes(kept) for kept in held_back]
        if any(writes is None for writes in kept_writes):
            return  # (what a task kept held will write is not known)
        covered = set(fused)
        # The stores written after each record, from the last back: those the tasks kept
        # held will write, then those of the window's own later tasks.
        later = [store for writes in kept_writes for store in writes or ()]
        for t in range(len(records) - 1, -1, -1):
            record = records[t]
            noted = started_from.get(id(record))
            if noted is not None and noted[0]() is record:
                self._remember(record, noted[1], t not in covered, written, later)
            writes = _writes(record)
            if writes is None:
                return  # (nothing before it is known to be as it left it)
            later.extend(writes)

    def _remember(self, record: TaskRecord, fill: tuple[str, bytes], as_built: bool,
                  written: Sequence[Any], later: Sequence[Any]) -> None:
        parts = repeatable(record)  # (again: not kept since it was recorded, see above)
        if parts is None:
            return
        target = parts.target
        if not as_built and not any(store is target or store.equal_storage(target)
                                    for store in written):
            return  # (a dead task of its group: never run)
        stores = (*parts.inputs, target)
        if any(store.overlaps(other) for store in stores for other in later):
            return
        if any(self._exported(store) for store in stores) or not self._one_point():
            return
        roots = frozenset(self._root_key(store) for store in stores)
        if None in roots:
            return
        inputs = tuple(str(store) for store in parts.inputs)
        self._remembered.append(_Remembered(parts.kind, inputs, roots, target, fill))
        self.kinds.add(parts.kind[:2])

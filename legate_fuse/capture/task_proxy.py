"""Proxies for Legate's tasks that hold them back in the window.

Legate's Cython classes cannot be subclassed or patched, so the proxies wrap them: the real
AutoTask is built at once and every call is forwarded to it (Legate validates arguments exactly
as without fusion) and recorded; only `execute()` is held back. (Tasks the lifting may fuse are
not built at all: see lazy_task.py.)
"""

from __future__ import annotations

from typing import Any, Protocol

from legate.core import LogicalArray, LogicalStore

from legate_fuse.capture import compat
from legate_fuse.capture.external_memory import ExternalMemory
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.store_args import is_unbound, stores_of
from legate_fuse.stage_clock import StageClock
from legate_fuse.window.holding import StoreArg, TaskRecord


class Session(Protocol):
    """What the proxies need of the fusion session (session.Session implements it)."""

    packed_futures: PackedFutures
    external: ExternalMemory
    clock: StageClock
    runtime_proxy: Any  # proxies.RuntimeProxy

    def submit_auto_task(self, record: TaskRecord, unholdable: str | None) -> None: ...

    def flush(self, reason: str) -> None: ...

    def flush_if_touched(self, stores: list[Any], reason: str) -> None: ...

    def build_lazy_writers(self, stores: list[Any]) -> None: ...


def _by_id(values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(
        id(v) if isinstance(v, LogicalStore | LogicalArray) else v for v in values
    )


class StoreArgCalls:
    """AutoTask's add_input/add_output/add_reduction, each handed to `_add_store_arg`."""

    __slots__ = ()

    def _add_store_arg(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        raise NotImplementedError

    def add_input(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_arg("add_input", args, kwargs)

    def add_output(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_arg("add_output", args, kwargs)

    def add_reduction(self, *args: Any, **kwargs: Any) -> Any:
        return self._add_store_arg("add_reduction", args, kwargs)


class AutoTaskProxy(StoreArgCalls):
    """Stands for an AutoTask; cuPyNumeric uses it exactly as the real one."""

    __slots__ = ("_executed", "_record", "_session", "_task", "_unholdable")

    def __init__(self, task: Any, session: Session, library: Any, task_id: Any) -> None:
        self._task = task
        self._session = session
        self._record = TaskRecord(task=task, library_name=library.name, task_id=int(task_id))
        self._unholdable: str | None = None
        self._executed = False

    @property
    def record(self) -> TaskRecord:
        return self._record

    @property
    def unwrapped(self) -> Any:
        return self._task

    def _note(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # Stores are kept only in `record.args`/`record.stores`; calls name them by id(), so
        # that the references the window holds to each store are easy to count.
        named = {key: _by_id((value,))[0] for key, value in kwargs.items()}
        self._record.calls.append((name, _by_id(args), named))

    def _add_store_arg(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        array_or_store = args[0] if args else kwargs.get("array_or_store")
        # Checked before forwarding: once added as an output, Legate no longer reports the
        # store as unbound although its size is only known after the task has run.
        if name == "add_output" and is_unbound(array_or_store):
            self._unholdable = "unbound_output"
        stores = stores_of(array_or_store)
        self._session.build_lazy_writers(stores)
        result = self._call(getattr(self._task, name), args, kwargs)
        self._note(name, args, kwargs)
        self._record.stores.extend(stores)
        redop = args[1] if name == "add_reduction" and len(args) > 1 else kwargs.get("redop", -1)
        self._record.args.append(StoreArg(name, array_or_store, int(redop), result))
        return result

    def _call(self, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Calls a method of the real AutoTask (Legate's own work)."""
        return method(*args, **kwargs)

    def execute(self) -> None:
        if self._executed:
            # Let Legate report a second submission as it would without fusion.
            self._task.execute()
            return
        self._executed = True
        self._session.submit_auto_task(self._record, self._unholdable)

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._task, name)
        if not callable(attribute):
            return attribute

        def forward(*args: Any, **kwargs: Any) -> Any:
            result = self._call(attribute, args, kwargs)
            self._note(name, args, kwargs)
            if name in compat.TASK_UNHOLDABLE_CALLS or (
                    name in compat.TASK_UNHOLDABLE_IF_TRUE and _truthy(args)):
                self._unholdable = name
            elif name not in compat.TASK_KNOWN_CALLS and self._unholdable is None:
                # What an unknown call does to the task's effects is not known: run it at once.
                self._unholdable = "unknown_task_call"
            return result

        return forward


class TimedAutoTaskProxy(AutoTaskProxy):
    """An AutoTaskProxy whose time is measured (LEGATE_FUSE_PROFILE=1): Legate's own work as
    `build_task`, the rest as `record` (a flush inside `execute` is charged to its stages)."""

    __slots__ = ()

    def _call(self, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        with self._session.clock.stage("build_task"):
            return method(*args, **kwargs)

    def _add_store_arg(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        with self._session.clock.stage("record"):
            return super()._add_store_arg(name, args, kwargs)

    def execute(self) -> None:
        with self._session.clock.stage("record"):
            super().execute()

    def __getattr__(self, name: str) -> Any:
        attribute = super().__getattr__(name)
        if not callable(attribute):
            return attribute
        clock = self._session.clock

        def timed(*args: Any, **kwargs: Any) -> Any:
            with clock.stage("record"):
                return attribute(*args, **kwargs)

        return timed


def _truthy(args: tuple[Any, ...]) -> bool:
    return bool(args[0]) if args else True


class ManualTaskProxy:
    """Stands for a ManualTask: it runs at once, after everything held before it."""

    __slots__ = ("_session", "_task")

    def __init__(self, task: Any, session: Session) -> None:
        self._task = task
        self._session = session

    @property
    def unwrapped(self) -> Any:
        return self._task

    def execute(self) -> None:
        self._session.flush("manual_task")
        self._task.execute()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._task, name)

"""The proxy for Legate's runtime: a task the lifting may fuse is recorded and held in the window
(lazy_task.py), any other runs when submitted, after what is held (task_proxy.py); anything
whose effect could depend on, or be observed by, a held task flushes the window first.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from legate_fuse.capture import compat
from legate_fuse.capture.direct_tasks import builds_in_one_call
from legate_fuse.capture.lazy_task import LazyAutoTask, TimedLazyAutoTask
from legate_fuse.capture.patches import PATCHES
from legate_fuse.capture.scopes import legate_scope
from legate_fuse.capture.store_args import stores_of
from legate_fuse.capture.task_proxy import (
    AutoTaskProxy,
    ManualTaskProxy,
    Session,
    TimedAutoTaskProxy,
)
from legate_fuse.mode.machine import Mode
from legate_fuse.unfused import DID_NOT_PAY, LINE_NOT_FUSED, NOT_LIFTED, in_mode


def install_runtime_proxies(core: Any, runtime: Any, session: Session,
                            lazy_task_ids: Callable[[str], dict[int, int | None]]
                            ) -> tuple[RuntimeProxy, RuntimeProxy]:
    """Replaces `core.get_legate_runtime` by a function returning proxies of `runtime`: one for
    cuPyNumeric, the proxy whose tasks may go straight to Legate (mode/step_aside.py), one for
    everyone else. Returns both (everyone else's first)."""
    real_get_runtime = core.get_legate_runtime
    proxy = RuntimeProxy(runtime, session, lazy_task_ids)
    cupynumeric_proxy = RuntimeProxy(runtime, session, lazy_task_ids)

    def get_legate_runtime() -> RuntimeProxy:
        return cupynumeric_proxy if builds_in_one_call(sys._getframe(1)) else proxy

    get_legate_runtime.__doc__ = real_get_runtime.__doc__
    PATCHES.replace(core, "get_legate_runtime", get_legate_runtime)
    PATCHES.stand_in(proxy, runtime)
    PATCHES.stand_in(cupynumeric_proxy, runtime)
    return proxy, cupynumeric_proxy


class RuntimeProxy:
    """Stands for legate.core's Runtime. Methods known not to interact with held work are
    forwarded unchanged (compat.RUNTIME_PASS_THROUGH); anything else not handled here runs
    after everything held: it may read or change what a held task touches."""

    def __init__(self, runtime: Any, session: Session,
                 lazy_task_ids: Callable[[str], dict[int, int | None]] = lambda _: {}) -> None:
        self._runtime = runtime
        self._session = session
        # Library name -> ids of the tasks its lifting may fuse: those are created lazily.
        self._lazy_task_ids = lazy_task_ids
        self._lazy_by_library: dict[str, dict[int, int | None]] = {}
        self._scope = legate_scope()

    @property
    def unwrapped(self) -> Any:
        return self._runtime

    def __getattr__(self, name: str) -> Any:
        if name in compat.RUNTIME_STORE_OPERATIONS:
            return functools.partial(self._issue_by_name, name)
        if name in compat.RUNTIME_PASS_THROUGH or name.startswith("__"):
            attribute = getattr(self._runtime, name)
            if callable(attribute) and not name.startswith("__"):
                # Found directly from now on (cuPyNumeric calls create_store for every array).
                setattr(self, name, attribute)
            return attribute
        attribute = getattr(self._runtime, name)
        if not callable(attribute):
            self._session.flush("unknown_runtime_call")
            return attribute

        def after_the_window(*args: Any, **kwargs: Any) -> Any:
            self._session.flush("unknown_runtime_call")
            return attribute(*args, **kwargs)

        return after_the_window

    def create_store(self, *args: Any, **kwargs: Any) -> Any:
        session = self._session
        window = session.window
        # Fusion starts at the program's first store or task, not at its first task only: a
        # program whose first tasks run in a Legate trace, its arrays made before, then issues
        # the same operations in each of the trace's runs (started inside it, the first run
        # issued one operation more: Legion aborted the program).
        if session.mode.mode is Mode.STARTING:
            session.update_mode()
        if session.mode.records:  # the store of a temporary a fused task did not allocate?
            store, reused = window.recycler.new_store(self._runtime.create_store, args, kwargs,
                                                      self._store_site)
            session.stats.stores_reused += reused
        else:
            store = self._runtime.create_store(*args, **kwargs)
        window.created(store)
        return store

    def _store_site(self) -> Any:
        """The program's call site of the store `create_store` is making (called by the
        recycler's `new_store`, called by `create_store`, called by the library function that
        asks for the store)."""
        return self._session.call_sites.site_of_caller("create_store", 0, creator=4)

    def issue_fill(self, lhs: Any, value: Any) -> Any:
        session = self._session
        window = session.window
        if window.tasks or session.mode.records:
            since = window.held_since_created(lhs)
            # A held task may touch the store or the value's store.
            if window.tasks and (window.touches(stores_of(value))
                                 or window.touches(stores_of(lhs), since)):
                session.flush("issue_fill")
            session.reductions.filled(stores_of(lhs), value)
        else:
            # Unfused, aside or disabled, nothing held: nothing need run first, and no task is
            # recorded to start from this fill, so none is followed (forgetting what was is
            # safe). Noting it cost a 0-d fill, as every dot product makes, some 15 us.
            session.reductions.clear()
        return self._runtime.issue_fill(lhs, session.packed_futures.fill_value(value))

    def _issue_by_name(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._issue(name, args, kwargs)

    # -- tasks -----------------------------------------------------------------------------
    def create_auto_task(self, library: Any, task_id: Any) -> Any:
        session = self._session
        mode = session.mode
        name = library.name
        if not mode.records:  # built at once, as without the plugin
            if mode.mode is Mode.STARTING:  # cuPyNumeric may have finished importing
                session.update_mode()
            elif mode.mode is Mode.UNFUSED and self._hand_over_unfused(sys._getframe(1)):
                session.stats.unfused[name, int(task_id), DID_NOT_PAY] += 1
                return self._runtime.create_auto_task(library, task_id)
        if mode.records:
            lazy_ids = self._lazy_by_library.get(name)
            if lazy_ids is None:
                lazy_ids = self._lazy_by_library[name] = self._lazy_task_ids(name)
            why = NOT_LIFTED
            if task_id in lazy_ids:
                site = None
                sites = session.call_sites
                if (sites.watched and (name, task_id) in sites.watched) or (
                        sites.watched_alone and not session.window.tasks
                        and (name, task_id) in sites.watched_alone):
                    # A kind some task of which was not fused: is this one's site such?
                    site = sites.site_of_caller(name, int(task_id))
                if (site is None or not sites.build_at_once(site, not session.window.tasks)
                        or (name, int(task_id)) in session.reductions.kinds):  # (compared)
                    return self._lazy_task(library, task_id, lazy_ids[task_id], site)
                why = LINE_NOT_FUSED
            aside = session.step_aside
            aside.run += 1
            if aside.run == aside.after:
                aside.run_ended()
        else:
            why = in_mode(mode.mode.value)
        session.stats.unfused[name, int(task_id), why] += 1
        session.reductions.clear()  # (a task built at once: what it writes is not followed)
        if session.window.tasks or session.clock.enabled or session.task_timer is not None:
            return self.create_eager_task(library, task_id)
        # create_eager_task's common case, without its call: on a stream of tasks none of
        # which fuses, each call of the plugin's costs about 1% of a task's time.
        return AutoTaskProxy(self._runtime.create_auto_task(library, task_id), session)

    def _lazy_task(self, library: Any, task_id: Any, max_scalars: int | None,
                   site: Any) -> LazyAutoTask:
        clock = self._session.clock
        if not clock.enabled:  # the common case, without a context manager
            task = LazyAutoTask(self._session, library, int(task_id), self._scope.provenance(),
                                max_scalars)
        else:
            with clock.stage("record"):
                task = TimedLazyAutoTask(self._session, library, int(task_id),
                                         self._scope.provenance(), max_scalars)
        task.record.site = site
        return task

    def create_eager_task(self, library: Any, task_id: Any) -> AutoTaskProxy:
        """An AutoTask built at once, to run when submitted. What is held runs first: its
        tasks are earlier in the program, and Legate submits a task more slowly when one
        writing its inputs is created after it."""
        session = self._session
        if session.window.tasks:
            session.flush("opaque_task")
        session.reductions.clear()  # (what it writes is not followed)
        if not session.clock.enabled:  # the common case, without a context manager
            task = self._runtime.create_auto_task(library, task_id)
        else:
            with session.clock.stage("build_task"):
                task = self._runtime.create_auto_task(library, task_id)
        if session.task_timer is not None:
            return TimedAutoTaskProxy(task, session, library.name, int(task_id))
        return AutoTaskProxy(task, session)

    def _hand_over_unfused(self, caller: FrameType) -> bool:
        """A task while fusion does not pay: nothing is held, it runs as built. Whether it goes
        to cuPyNumeric as Legate's own task (direct_tasks.py), not behind a proxy: only when
        nothing is held, the caller is cuPyNumeric, and the program's waits are not at tasks
        that may throw (those are seen only through a proxy)."""
        session = self._session
        session.stats.tasks_unfused_by_payoff += 1
        if (session.window.tasks or session.waits_at_tasks or session.task_timer is not None
                or not builds_in_one_call(caller)):
            return False
        session.stats.tasks_seen += 1  # counted when built: its submission is not seen
        session.direct_tasks.handed_to(caller)
        return True

    def create_manual_task(self, *args: Any, **kwargs: Any) -> ManualTaskProxy:
        return ManualTaskProxy(self._runtime.create_manual_task(*args, **kwargs), self._session)

    def submit(self, task: Any) -> None:
        if isinstance(task, AutoTaskProxy | ManualTaskProxy):
            task.execute()
            return
        self._session.flush("foreign_task")
        self._session.draws.settle()
        self._runtime.submit(task)

    def tree_reduce(self, *args: Any, **kwargs: Any) -> Any:
        self._session.flush("tree_reduce")
        return self._runtime.tree_reduce(*args, **kwargs)

    # -- operations on stores: they commute with held tasks that touch none of their stores ---
    def _issue(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        stores = [s for value in (*args, *kwargs.values()) for s in stores_of(value)]
        self._session.flush_if_touched(stores, name)
        self._session.reductions.clear()
        return getattr(self._runtime, name)(*args, **kwargs)

    # -- stores over memory the program owns (NumPy buffers): never written over in place ----
    def create_store_from_buffer(self, *args: Any, **kwargs: Any) -> Any:
        session = self._session
        if session.external.copying and session.config.read_only_copies:
            # cuPyNumeric attaches its private copy mutable: Legate then writes every update
            # through to it and copies it in for every task that reads it (a matrix-vector
            # product 4x slower). Read-only, its tasks read it in place, and a write goes to an
            # instance of Legate's own. Results are the same: no one else sees the copy.
            args, kwargs = _read_only(args, kwargs)
            session.stats.copies_attached_read_only += 1
        store = self._runtime.create_store_from_buffer(*args, **kwargs)
        buffer = args[2] if len(args) > 2 else kwargs.get("data")
        session.external.note_attached(store, buffer)
        return store

    def create_store_from_tiles(self, *args: Any, **kwargs: Any) -> Any:
        store, partition = self._runtime.create_store_from_tiles(*args, **kwargs)
        self._session.external.note(store, None)  # allocations outlive any reference we see
        return store, partition

    # -- synchronisation ---------------------------------------------------------------------
    def issue_execution_fence(self, *args: Any, **kwargs: Any) -> Any:
        self._session.flush("fence")
        return self._runtime.issue_execution_fence(*args, **kwargs)

    def issue_mapping_fence(self, *args: Any, **kwargs: Any) -> Any:
        self._session.flush("fence")
        return self._runtime.issue_mapping_fence(*args, **kwargs)

    def finish(self) -> Any:
        self._session.flush("finish")
        return self._runtime.finish()


# create_store_from_buffer(dtype, shape, data, read_only, ordering=None)
_READ_ONLY_POSITION = 3


def _read_only(args: tuple[Any, ...], kwargs: dict[str, Any]
               ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments of create_store_from_buffer with `read_only` set."""
    if len(args) > _READ_ONLY_POSITION:
        return (*args[:_READ_ONLY_POSITION], True, *args[_READ_ONLY_POSITION + 1:]), kwargs
    return args, {**kwargs, "read_only": True}

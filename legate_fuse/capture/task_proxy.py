"""Proxies for the Legate tasks the plugin never holds: they run when submitted, in order.

Legate's Cython classes cannot be subclassed or patched, so the proxies wrap them and intercept
`execute()` alone. (Tasks the lifting may fuse are recorded, not built: see lazy_task.py.)
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from legate_fuse.capture.call_sites import CallSites
from legate_fuse.capture.direct_tasks import DirectTasks
from legate_fuse.capture.external_memory import ExternalMemory
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.draw_order import DrawOrder
from legate_fuse.mode.machine import ModeMachine
from legate_fuse.mode.step_aside import StepAside
from legate_fuse.settings import Config
from legate_fuse.stage_clock import StageClock
from legate_fuse.task_timer import TaskTimer


class Session(Protocol):
    """What the proxies need of the fusion session (session.Session implements it)."""

    config: Config
    packed_futures: PackedFutures
    call_sites: CallSites
    window: Any  # window.holding.Window: `window.tasks` lists the tasks held
    external: ExternalMemory
    clock: StageClock
    task_timer: TaskTimer | None  # LEGATE_FUSE_TIME_TASKS=1 only
    runtime_proxy: Any  # proxies.RuntimeProxy
    stats: Stats
    mode: ModeMachine  # whether tasks are recorded, held, handed over unfused
    direct_tasks: DirectTasks  # the functions given a task without a proxy while unfused
    step_aside: StepAside  # counts the tasks built at once in a row
    waits_at_tasks: bool  # the program waited at a task that may throw
    draws: DrawOrder  # fused random draws, settled before any task the plugin did not build
    # window.repeated_reductions.RepeatedReductions: values of reductions, forgotten at
    # whatever the plugin does not follow.
    reductions: Any

    def submit_auto_task(self, record: TaskRecord) -> None: ...

    def update_mode(self) -> None: ...

    def flush(self, reason: str) -> None: ...

    def flush_if_touched(self, stores: list[Any], reason: str) -> None: ...


class AutoTaskProxy:
    """Stands for an AutoTask built at once (a kind no lifting knows, or a lazy task given a
    call it does not understand). Such a task is never fused, so it is never held: it runs as
    soon as it is submitted, after everything held before it. Every other call goes straight
    to Legate's task, which validates it exactly as without the plugin."""

    # The calls every task is built with are the task's own bound methods, set on the proxy:
    # found at once and run without a Python frame of the plugin's (a method forwarding them
    # measured about a microsecond a call on a 2-core machine busy with Legate's workers).
    __slots__ = ("_blocks", "_session", "_task", "add_constraint", "add_input", "add_output",
                 "add_reduction", "add_scalar_arg")

    def __init__(self, task: Any, session: Session) -> None:
        self._task = task
        self._session = session
        self._blocks = False
        self.add_input = task.add_input
        self.add_output = task.add_output
        self.add_reduction = task.add_reduction
        self.add_scalar_arg = task.add_scalar_arg
        self.add_constraint = task.add_constraint

    @property
    def unwrapped(self) -> Any:
        return self._task

    def execute(self) -> None:
        """Runs the task now, after everything held (normally nothing: held tasks run when a
        task to be built at once is created, see RuntimeProxy.create_eager_task)."""
        session = self._session
        session.stats.tasks_seen += 1
        if self._blocks:  # the program waits here for every task so far, as at a read
            session.flush("blocking_task")
        elif session.window.tasks:
            session.flush("opaque_task")
        else:  # as at a flush: nothing held can make the stores created so far temporaries,
            # and a reference kept to one the program let go would give the next store of
            # its shape a new field, with memory not yet touched (window/recycling.py)
            session.window.recycler.release_created()
        session.draws.settle()
        session.reductions.clear()  # (what it writes is not followed)
        if not session.clock.enabled:  # the common case, without a context manager
            self._task.execute()
            return
        with session.clock.stage("run_unfused"):
            self._task.execute()

    def throws_exception(self, exception_type: type) -> None:
        self._task.throws_exception(exception_type)
        # Legate blocks on a task that may throw until it completes, unless the scope defers
        # or ignores exceptions (an advanced-indexing gather that checks its bounds does).
        self._blocks = exceptions_are_immediate()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._task, name)


def exceptions_are_immediate() -> bool:
    """Whether the current scope handles task exceptions at once (Legate's default), so that
    submitting a task that may throw waits for it; False when that cannot be told."""
    try:
        scope, immediate = _exception_mode_names()
        return bool(scope.exception_mode() == immediate)
    except Exception:  # an older or newer Legate: no measurement point here, nothing else
        return False


@functools.cache
def _exception_mode_names() -> tuple[Any, Any]:
    """Legate's own Scope class and ExceptionMode.IMMEDIATE, looked up once."""
    from legate.core import ExceptionMode

    from legate_fuse.capture.scopes import legate_scope

    return legate_scope(), ExceptionMode.IMMEDIATE


class TimedAutoTaskProxy(AutoTaskProxy):
    """An AutoTaskProxy whose task is timed when it runs (LEGATE_FUSE_TIME_TASKS=1), charged
    to its kind."""

    __slots__ = ("_kind",)

    def __init__(self, task: Any, session: Session, library: str, task_id: int) -> None:
        super().__init__(task, session)
        self._kind = (library, task_id)

    def execute(self) -> None:
        timer = self._session.task_timer
        assert timer is not None
        run = super().execute
        timer.run_unfused(*self._kind, run)


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
        self._session.draws.settle()
        self._task.execute()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._task, name)

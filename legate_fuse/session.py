"""The process-wide fusion session: settings, window, statistics and the installed hooks."""

from __future__ import annotations

import atexit
import json
import logging
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from legate_fuse import lift, settings, unfused
from legate_fuse.capture import compat, flush_points, import_hooks, traces
from legate_fuse.capture.call_sites import CallSites
from legate_fuse.capture.direct_tasks import DirectTasks
from legate_fuse.capture.external_memory import ExternalMemory
from legate_fuse.capture.import_hooks import after_import
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.patches import PATCHES
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats, format_stats, full_report
from legate_fuse.draw_order import DrawOrder
from legate_fuse.logs import configure_logging
from legate_fuse.mode.machine import Mode, ModeMachine
from legate_fuse.mode.payoff import PayoffTuner
from legate_fuse.mode.step_aside import StepAside
from legate_fuse.stage_clock import StageClock
from legate_fuse.task_timer import TaskTimer
from legate_fuse.window.holding import Window
from legate_fuse.window.liveness import ArrayTracker, reference_counts_as_assumed, root_key
from legate_fuse.window.runner import WindowRunner

logger = logging.getLogger("legate_fuse")

# Flushes where the program then waits for every task submitted so far: a value read back, a
# task that may throw (Legate blocks on it). Whether fusion pays is measured between them.
WAITS = frozenset({"read", "blocking_task"})


class Session:
    def __init__(self, config: settings.Config) -> None:
        self.config = config
        self.stats = Stats()
        self.clock = StageClock(self.stats.stage_seconds, config.profile)
        self.stats.timed = config.time_tasks

        def legate_runtime() -> Any:  # Legate's own, behind the proxy once it is installed
            return self.runtime_proxy.unwrapped

        # Waits for each task run unfused and each fused launch, to time it (None: not timed).
        self.task_timer = TaskTimer(self.stats, legate_runtime) if config.time_tasks else None
        self.tracker = ArrayTracker()
        # Stores over memory the program owns (NumPy buffers): a task writing one runs at once.
        self.external = ExternalMemory(root_key, lambda: set(self.tracker.live_roots()))
        self.packed_futures = PackedFutures(root_key, self._roots_in_use)
        self.call_sites = CallSites(self.stats, config.sites)
        # Fused random draws kept in program order with every other draw (draw_order.py).
        self.draws = DrawOrder(legate_runtime)
        self.runner = WindowRunner(config, self.stats, self.clock, self.tracker, self.call_sites,
                                   self.packed_futures, self.warn_once,
                                   legate_runtime, self.task_timer,
                                   self.external.foreign_roots, self.draws,
                                   lambda store: self.external.holds(root_key(store)))
        self.window = Window(config.window_size, self.stats, self._execute_window,
                             self.runner.choose_cut, self.clock)
        self.runner.window = self.window
        self._warned = False
        # Whether tasks are held, run unfused, handed to cuPyNumeric as Legate's own, or the
        # plugin is off: every such decision is a mode of this machine (mode/machine.py).
        self.mode = ModeMachine()
        self.reductions = self.runner.reductions  # (window/repeated_reductions.py)
        self.external.exported = self.reductions.written
        self.mode.on_stop_holding += (self.draws.settle, self.reductions.clear)
        # Whether fusion pays, measured at the program's waits (WAITS; mode/payoff.py).
        self.payoff = PayoffTuner() if config.payoff else None
        self.direct_tasks = DirectTasks()
        # Nothing fused for long: cuPyNumeric's tasks go straight to Legate for a while.
        # (Never while tasks are timed: the tasks of a plugin stood aside would not be.)
        self.step_aside = StepAside(0 if config.time_tasks else config.step_aside,
                                    self.stats, self.direct_tasks,
                                    self.tracker, self.payoff, self.mode)
        self.runtime_proxy: Any = None
        self._read_points_pending = True
        # Waited at a task that may throw (seen only through its proxy: then every task has one).
        self.waits_at_tasks = False

    # -- called by the proxies ----------------------------------------------------------------
    @property
    def turned_off(self) -> str | None:
        """Why fusion is off for good (a kill switch fired), or None."""
        return self.mode.last_reason[Mode.OFF] if self.mode.mode is Mode.OFF else None

    def submit_auto_task(self, record: TaskRecord) -> None:
        """A lazily recorded task is submitted: held if the mode holds tasks, else run now."""
        self.stats.tasks_seen += 1
        mode = self.mode
        if not mode.holds:
            self.update_mode()
        if mode.holds:
            if self.reductions.takes_value(record):
                return
            self.window.hold(record)
            if self.external.written_by(record):
                # NumPy reads its own memory as soon as cuPyNumeric returns, calling no one.
                self.flush("external_write")
            return
        if self.window.tasks:  # normally nothing is held outside FUSING
            self.flush("hooks_pending" if mode.mode is Mode.STARTING else "unfused")
        self.stats.unfused[record.library_name, record.task_id,
                           unfused.in_mode(mode.mode.value)] += 1
        self.draws.settle()
        self.reductions.clear()
        with self.clock.stage("run_unfused"):
            if self.task_timer is None:
                record.task.execute()
            else:
                self.task_timer.run_unfused(record.library_name, record.task_id,
                                            record.task.execute)

    def _execute_window(self, records: Sequence[TaskRecord]) -> None:
        """Runs a flushed window; steps aside while kernels compile (mode/step_aside.py) if it
        is one seen before (its plan was cached: a loop's) and fused nothing for want of its
        kernels: its next occurrences would run their original tasks too. A window not seen
        before is planned, so that its kernels start compiling too. Never while tasks stay
        held (a full window's later part, `held_back`): tasks created aside run at once, and
        would run before them."""
        stats, window = self.stats, self.window
        launches, hits = stats.fused_launches, stats.plan_cache_hits
        self.runner.execute_window(records)
        if (stats.kernels_compiling and stats.fused_launches == launches
                and stats.plan_cache_hits > hits and not window.held_back
                and not window.tasks):
            self.step_aside.begin_while_compiling(self.runner.fuser().compiling)

    def update_mode(self) -> None:
        """The transitions that wait for a condition rather than an event: every read point
        wrapped (starting -> fusing), every function given one of Legate's tasks returned
        (resuming -> fusing)."""
        mode = self.mode.mode
        if mode is Mode.STARTING or self._read_points_pending or import_hooks.awaiting():
            import_hooks.poll()
            self.install_read_points()
            if self._read_points_pending or import_hooks.awaiting():
                return  # (resuming too: a held task could be read stale)
            if mode is Mode.STARTING:
                self.mode.fire("hooks_ready", "every hook installed")
                self.runner.warm_up()
                return
        if mode is Mode.RESUMING and not self.direct_tasks.being_built():
            self.mode.fire("frames_returned")

    def flush(self, reason: str) -> None:
        if reason != "read":  # (any other hands stores to code the plugin does not follow)
            self.reductions.clear()
        self.window.flush(reason)  # (an empty window also lets go of the stores created)
        if reason not in WAITS or self.mode.mode in (Mode.OFF, Mode.DISABLED):
            return
        if reason == "blocking_task":
            self.waits_at_tasks = True
        pays, settled = True, False
        if self.payoff is not None:  # after the held tasks ran
            pays, settled = self.payoff.at_read(self.stats), self.payoff.settled
            why = ("measured" if settled else "measuring") + (" fused" if pays else " unfused")
            self.mode.fire("fusion_pays" if pays else "fusion_does_not_pay", why)
        self.step_aside.at_read(pays, settled)

    def _roots_in_use(self) -> set[str | None]:
        """The roots of every live array and of every store a held task touches."""
        held = {root_key(store) for record in self.window.records for store in record.stores}
        return set(self.tracker.live_roots()) | held

    def planner(self) -> Any:
        return self.runner.planner()

    def fuser(self) -> Any:
        return self.runner.fuser()

    def warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(message)

    def flush_if_touched(self, stores: list[Any], reason: str) -> None:
        if self.window.touches(stores):
            self.flush(reason)

    # -- life cycle ---------------------------------------------------------------------------
    def turn_off(self, why: str) -> None:
        """A kill switch: runs what is held, then leaves the program's path for good (every
        hook undone: capture/patches.py), with one warning."""
        if self.mode.mode is Mode.OFF:
            return
        self.flush("disable")
        self.mode.fire("turn_off", why)
        PATCHES.undo()
        self.warn_once(f"{why}; running everything unfused")

    def disable(self) -> None:
        """Runs everything held; tasks run when submitted until `enable()`."""
        self.flush("disable")
        self.step_aside.come_back()
        self.mode.fire("disable", "legate_fuse.disable()")

    def enable(self) -> None:
        self.mode.fire("enable", "legate_fuse.enable()")

    def check_module(self, module: ModuleType) -> None:
        """Turns fusion off, naming what is missing, if `module` (imported to the end) lacks a
        name the plugin relies on (capture/compat.py)."""
        missing = compat.missing_in(module)
        if missing and self.turned_off is None:
            untested = compat.untested_versions()
            versions = f" (installed: {', '.join(untested)})" if untested else ""
            self.turn_off(f"Legate or cuPyNumeric lacks {', '.join(missing)}{versions}")

    def install_runtime_proxy(self, core: ModuleType) -> None:
        from legate_fuse.capture import pending, scopes
        from legate_fuse.capture.proxies import install_runtime_proxies
        from legate_fuse.lift import lazy_task_ids

        if self.turned_off is not None:  # legate.core lacks a name (check_module ran first)
            return
        real_get_runtime = core.get_legate_runtime
        runtime = real_get_runtime()
        unreadable = compat.unreadable_store_description(runtime)
        if unreadable is not None:
            self.turn_off(unreadable)
            return
        pending.install_constraint_functions(core)
        scopes.install(core, self.flush)
        proxy, cupynumeric_proxy = install_runtime_proxies(core, runtime, self, lazy_task_ids)
        self.step_aside.attach(cupynumeric_proxy, runtime)
        self.runtime_proxy = proxy
        # Registered after legate.core's own exit handler, so it runs before the runtime stops.
        atexit.register(self.at_exit)

    def install_read_points(self, _module: ModuleType | None = None) -> None:
        """Wraps the read points of the modules imported so far. cuPyNumeric imports Legate
        half-way through its own import, so some of its classes do not exist yet when the
        proxy is installed; until all do, this is retried before a task is held."""
        if self.mode.mode is Mode.OFF:  # out of the program's path: nothing is installed
            return
        tracking = self.tracker.install()
        attaching = self.external.install()
        self._read_points_pending = not (flush_points.install(self.flush, lift.builds_tasks_only)
                                         and tracking and attaching)

    def report(self) -> dict[str, Any]:
        return full_report(self.stats, self.mode)  # (legate_fuse.stats())

    def install_traces(self, module: ModuleType) -> None:
        if self.mode.mode is not Mode.OFF:
            traces.install(module, self.flush, self.runner.entering_trace,
                           self.runner.leaving_trace)

    def at_exit(self) -> None:
        self.flush("exit")
        self.window.forget_created()  # (no store of the plugin's outlives the program)
        self.window.recycler.clear()
        if self.config.stats == "json":
            print(f"legate-fuse statistics {json.dumps(self.report())}", file=sys.stderr,
                  flush=True)
        elif self.config.stats:
            print(format_stats(self.report()), file=sys.stderr, flush=True)


_session: Session | None = None


def current() -> Session | None:
    return _session


def start(config: settings.Config) -> Session:
    """Starts the process's session (legate_fuse.api: enable, enable_from_environment)."""
    global _session
    session = Session(config)
    _session = session
    configure_logging(config.log_level)
    untested = compat.untested_versions()
    if untested:
        logger.warning("versions not tested with legate-fuse: %s; fusing, and checking every "
                       "name relied on as its module is imported", ", ".join(untested))
    if not reference_counts_as_assumed():
        session.turn_off(f"Python {sys.version.split()[0]} does not count references as the "
                         "liveness analysis assumes")
        return session
    # Each module's names are checked as its import completes, before anything else uses it.
    for module_name in compat.modules():
        after_import(module_name, session.check_module)
    after_import("legate.core", session.install_runtime_proxy)
    for module_name in traces.MODULES:
        after_import(module_name, session.install_traces)
    for module_name in (*flush_points.MODULES, "cupynumeric._thunk.deferred", "cupynumeric"):
        after_import(module_name, session.install_read_points)
    return session

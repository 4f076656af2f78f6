"""The process-wide fusion session: settings, window, statistics and the installed hooks."""

from __future__ import annotations

import atexit
import logging
import sys
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

from legate_fuse import settings
from legate_fuse.capture import compat, flush_points, import_hooks, traces
from legate_fuse.capture.call_sites import CallSites
from legate_fuse.capture.direct_tasks import DirectTasks, builds_in_one_call
from legate_fuse.capture.external_memory import ExternalMemory
from legate_fuse.capture.import_hooks import after_import
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.step_aside import StepAside
from legate_fuse.stage_clock import StageClock
from legate_fuse.stats import Stats, format_stats
from legate_fuse.window.holding import TaskRecord, Window, execute_in_order
from legate_fuse.window.liveness import ArrayTracker, reference_counts_as_assumed, root_key
from legate_fuse.window.payoff import PayoffTuner

logger = logging.getLogger("legate_fuse")


class Session:
    def __init__(self, config: settings.Config) -> None:
        self.config = config
        self.stats = Stats()
        self.clock = StageClock(self.stats.stage_seconds, config.profile)
        self.window = Window(config.window_size, self.stats, self.execute_window,
                             self.choose_cut)
        self.tracker = ArrayTracker()
        # Stores over memory the program owns (NumPy buffers): a task writing one runs at once.
        self.external = ExternalMemory(root_key, lambda: set(self.tracker.live_roots()))
        self.packed_futures = PackedFutures(root_key, self._roots_in_use)
        self.call_sites = CallSites(self.stats, config.sites)
        self._planner: Any = None
        self._fuser: Any = None
        self._warned = False
        # False: every task runs at once (fusion disabled at run time); hooks stay installed.
        self.holding = True
        # Whether fusion pays, measured at reads (window/payoff.py): if not, nothing is held.
        self.payoff = PayoffTuner() if config.payoff else None
        self.fusion_pays = True
        self.direct_tasks = DirectTasks()
        # Nothing fused for long: cuPyNumeric's tasks go straight to Legate for a while.
        self.step_aside = StepAside(config.step_aside, self.stats, self.direct_tasks,
                                    self.tracker, self.payoff)
        # Why fusion is off for good (a hook of Legate or cuPyNumeric is missing...), or None.
        self.turned_off: str | None = None
        self.runtime_proxy: Any = None
        self._read_points_pending = True

    # -- called by the proxies ----------------------------------------------------------------
    def submit_auto_task(self, record: TaskRecord) -> None:
        """A lazily recorded task is submitted: held, unless fusion cannot hold it now."""
        self.stats.tasks_seen += 1
        if self._read_points_pending or import_hooks.awaiting():
            import_hooks.poll()
            self.install_read_points()
        if (self.holding and not self._read_points_pending and self.fusion_pays
                and not self.step_aside.aside
                and not (self.direct_tasks.frames and self.direct_tasks.being_built())):
            self.window.hold(record)
            if self.external.written_by(record):
                # NumPy reads its own memory as soon as cuPyNumeric returns, calling no one.
                self.flush("external_write")
            return
        if self.holding:  # a read point is not wrapped yet (cuPyNumeric is importing): a held
            # task could be read stale. (Or fusion does not pay, or the plugin stands aside.)
            self.flush("hooks_pending" if self._read_points_pending else "unfused")
        with self.clock.stage("run_unfused"):
            record.task.execute()

    def flush(self, reason: str) -> None:
        if self.window.tasks:
            self.window.flush(reason)
        if reason != "read":
            return
        if self.payoff is not None:  # after the held tasks ran
            pays = self.payoff.at_read(self.stats)
            # Unfused, cuPyNumeric got tasks without a proxy: one still being built runs first.
            self.fusion_pays = pays and (self.fusion_pays or not self.direct_tasks.being_built())
        self.step_aside.at_read(self.fusion_pays, self.payoff is not None and self.payoff.settled)

    def execute_window(self, records: Sequence[TaskRecord]) -> None:
        """Plans the flushed window and runs it, fused; whatever fails inside the plugin, every
        task of the window runs, in order (those that have not run yet, as built)."""
        done = [False] * len(records)
        try:
            planned = self.planner().plan(list(records), self.window.held_back)
            if planned is None:  # nothing to fuse: every task as built
                program_error = self.fuser().run_as_built(records, range(len(records)), done)
            else:
                program_error = self.fuser().execute(planned, done)
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"running a window failed, running the rest unfused: {error!r}")
            execute_in_order([r for r, ran in zip(records, done, strict=True) if not ran])
            return
        if program_error is not None:
            raise program_error

    def _roots_in_use(self) -> set[str | None]:
        """The roots of every live array and of every store a held task touches."""
        held = {root_key(store) for record in self.window.records for store in record.stores}
        return set(self.tracker.live_roots()) | held

    def choose_cut(self, records: Sequence[TaskRecord]) -> int:
        """How many tasks of a full window to run: at least half, where the fewest bytes cross
        to the rest (see src/cpp/analysis/cut.h)."""
        try:
            return int(self.planner().choose_cut(records, earliest=max(1, len(records) // 2)))
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"choosing where to cut the window failed, running it all: {error!r}")
            return len(records)

    def fuser(self) -> Any:
        if self._fuser is None:
            from legate_fuse.backend.fuser import make_fuser

            self._fuser = make_fuser(self.stats, self.config.cache_dir, self.config.c_compiler,
                                     lambda: self.runtime_proxy.unwrapped, self.warn_once,
                                     self.packed_futures, "kernels" in self.config.log_topics,
                                     self.clock)
        return self._fuser

    def planner(self) -> Any:
        if self._planner is None:
            from legate_fuse.plan.planner import Planner

            self._planner = Planner(self.stats, self.tracker, "plan" in self.config.log_topics,
                                    self.clock, self.call_sites)
        return self._planner

    def warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(message)

    def flush_if_touched(self, stores: list[Any], reason: str) -> None:
        if self.window.touches(stores):
            self.flush(reason)

    # -- life cycle ---------------------------------------------------------------------------
    def turn_off(self, why: str) -> None:
        """Runs what is held and never holds a task again, with one warning."""
        self.flush("disable")
        self.holding = False
        self.turned_off = why
        self.warn_once(f"{why}; running everything unfused")

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
        from legate_fuse.capture.proxies import RuntimeProxy
        from legate_fuse.lift import lazy_task_ids

        if self.turned_off is not None:  # legate.core lacks a name (check_module ran first)
            return
        pending.install_constraint_functions(core)
        scopes.install(core, self.flush)
        real_get_runtime = core.get_legate_runtime
        runtime = real_get_runtime()
        proxy = RuntimeProxy(runtime, self, lazy_task_ids)
        # cuPyNumeric gets a proxy of its own: the one whose tasks may go straight to Legate.
        cupynumeric_proxy = RuntimeProxy(runtime, self, lazy_task_ids)
        self.step_aside.attach(cupynumeric_proxy, runtime.create_auto_task)

        def get_legate_runtime() -> RuntimeProxy:
            return cupynumeric_proxy if builds_in_one_call(sys._getframe(1)) else proxy

        get_legate_runtime.__doc__ = real_get_runtime.__doc__
        setattr(core, "get_legate_runtime", get_legate_runtime)  # noqa: B010
        self.runtime_proxy = proxy
        # Registered after legate.core's own exit handler, so it runs before the runtime stops.
        atexit.register(self.at_exit)

    def install_read_points(self, _module: ModuleType | None = None) -> None:
        """Wraps the read points of the modules imported so far. cuPyNumeric imports Legate
        half-way through its own import, so some of its classes do not exist yet when the
        proxy is installed; until all do, this is retried before a task is held."""
        tracking = self.tracker.install()
        attaching = self.external.install()
        self._read_points_pending = not (flush_points.install(self.flush) and tracking
                                         and attaching)

    def at_exit(self) -> None:
        self.flush("exit")
        if self.config.stats:
            print(format_stats(self.stats.as_dict()), file=sys.stderr, flush=True)


_session: Session | None = None


def current() -> Session | None:
    return _session


def _configure_logging(level: str) -> None:
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("legate-fuse: %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(level.upper())


def _start(config: settings.Config) -> Session:
    global _session
    session = Session(config)
    _session = session
    _configure_logging(config.log_level)
    untested = compat.untested_versions()
    if untested:
        logger.info("versions not tested with legate-fuse: %s", ", ".join(untested))
    if not reference_counts_as_assumed():
        session.turn_off(f"Python {sys.version.split()[0]} does not count references as the "
                         "liveness analysis assumes")
        return session
    # Each module's names are checked as its import completes, before anything else uses it.
    for module_name in compat.modules():
        after_import(module_name, session.check_module)
    after_import("legate.core", session.install_runtime_proxy)
    for module_name in traces.MODULES:
        after_import(module_name, lambda module: traces.install(module, session.flush))
    for module_name in (*flush_points.MODULES, "cupynumeric._thunk.deferred", "cupynumeric"):
        after_import(module_name, session.install_read_points)
    return session


def enable() -> None:
    """Turns fusion on. Must run before `cupynumeric` is imported (or use LEGATE_FUSE=1)."""
    if _session is not None:
        _session.holding = _session.turned_off is None
        return
    if "cupynumeric" in sys.modules:
        raise RuntimeError(
            "legate_fuse.enable() was called after cupynumeric was imported; call it before "
            "`import cupynumeric`, or run the program with LEGATE_FUSE=1"
        )
    _start(replace(settings.load(), enabled=True))


def enable_from_environment() -> None:
    """Start-up path (LEGATE_FUSE set): settings are validated when Legate is first imported,
    so an invalid value is reported as an error of the program's own import."""

    def start(_module: ModuleType) -> None:
        config = settings.load()
        if config.enabled and _session is None:
            _start(config)

    if "legate.core" in sys.modules or "cupynumeric" in sys.modules:
        return
    after_import("legate.core", start)


def disable() -> None:
    """Runs everything held and stops holding tasks; the program continues unfused."""
    if _session is not None:
        _session.flush("disable")
        _session.holding = False


def flush() -> None:
    """Executes every held task now."""
    if _session is not None:
        _session.flush("user")


def is_enabled() -> bool:
    return _session is not None and _session.holding


def stats() -> dict[str, Any]:
    """The statistics of this process so far (zeros when fusion was never enabled)."""
    return (_session.stats if _session is not None else Stats()).as_dict()

"""The process-wide fusion session: settings, window, statistics and the installed hooks."""

from __future__ import annotations

import atexit
import logging
import sys
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

from legate_fuse import flush_points, settings
from legate_fuse.import_hooks import after_import
from legate_fuse.liveness import ArrayTracker
from legate_fuse.stats import Stats, format_stats
from legate_fuse.window import TaskRecord, Window, execute_in_order

logger = logging.getLogger("legate_fuse")


class Session:
    def __init__(self, config: settings.Config) -> None:
        self.config = config
        self.stats = Stats()
        self.window = Window(config.window_size, self.stats, self.execute_window,
                             self.choose_cut)
        self.tracker = ArrayTracker()
        # Roots of stores over external memory (see in_place.py): kept for the whole run, as a
        # root may come back with a recycled field; a stale entry only forgoes a reuse.
        self.external_roots: set[str] = set()
        self._planner: Any = None
        self._fuser: Any = None
        self._warned = False
        # False: every task runs at once (fusion disabled at run time); hooks stay installed.
        self.holding = True
        self.runtime_proxy: Any = None
        self._read_points_pending = True

    # -- called by the proxies ----------------------------------------------------------------
    def submit_auto_task(self, record: TaskRecord, unholdable: str | None) -> None:
        self.stats.tasks_seen += 1
        if self._read_points_pending:
            self.install_read_points()
        if self.holding and unholdable is None:
            self.window.hold(record)
            return
        if unholdable is not None:
            self.flush(unholdable)
        record.task.execute()

    def flush(self, reason: str) -> None:
        self.window.flush(reason)

    def execute_window(self, records: Sequence[TaskRecord]) -> None:
        """Plans the flushed window and runs it, fused. A failure of the plugin before any task
        of the window has run costs a warning and the window runs unfused, in order."""
        try:
            planned = self.planner().plan(list(records))
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"window analysis failed, running unfused: {error!r}")
            execute_in_order(records)
            return
        self.fuser().execute(planned)

    def note_external(self, store: Any) -> None:
        from legate_fuse import _core

        desc = _core.parse_store_desc(str(store))
        self.external_roots.add(desc.root_key if desc is not None else str(store))

    def choose_cut(self, records: Sequence[TaskRecord]) -> int:
        """How many tasks of a full window to run: at least half, where the fewest bytes cross
        to the rest (see window_cut.py)."""
        from legate_fuse.window_cut import choose_cut

        try:
            return choose_cut(records, earliest=max(1, len(records) // 2))
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"choosing where to cut the window failed, running it all: {error!r}")
            return len(records)

    def fuser(self) -> Any:
        if self._fuser is None:
            from legate_fuse.fuser import make_fuser

            self._fuser = make_fuser(self.stats, self.config.cache_dir, self.config.c_compiler,
                                     lambda: self.runtime_proxy.unwrapped, self.warn_once,
                                     "kernels" in self.config.log_topics)
            self._fuser.in_place = self.config.in_place
            self._fuser.external_roots = self.external_roots
        return self._fuser

    def planner(self) -> Any:
        if self._planner is None:
            from legate_fuse.planner import Planner

            self._planner = Planner(self.stats, self.tracker, "plan" in self.config.log_topics)
        return self._planner

    def warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(message)

    def flush_if_touched(self, stores: list[Any], reason: str) -> None:
        if self.window.touches(stores):
            self.flush(reason)

    # -- life cycle ---------------------------------------------------------------------------
    def install_runtime_proxy(self, core: ModuleType) -> None:
        from legate_fuse.intercept import RuntimeProxy

        real_get_runtime = core.get_legate_runtime
        proxy = RuntimeProxy(real_get_runtime(), self)

        def get_legate_runtime() -> RuntimeProxy:
            return proxy

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
        self._read_points_pending = not (flush_points.install(self.flush) and tracking)

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
    after_import("legate.core", session.install_runtime_proxy)
    for module_name in (*flush_points.MODULES, "cupynumeric._thunk.deferred"):
        after_import(module_name, session.install_read_points)
    return session


def enable() -> None:
    """Turns fusion on. Must run before `cupynumeric` is imported (or use LEGATE_FUSE=1)."""
    if _session is not None:
        _session.holding = True
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

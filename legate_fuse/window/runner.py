"""Runs each flushed window: planned, then its groups fused and everything else as built.

The window's executor (holding.py). The planner and the backend are loaded on first use, or by
`warm_up` as fusion starts (at the first store or task); whatever fails inside the plugin, every
task of the window runs, in order (those that have not run yet, as built), after one warning.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any

from legate_fuse import settings, unfused
from legate_fuse.capture.call_sites import CallSites
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.draw_order import DrawOrder
from legate_fuse.stage_clock import StageClock
from legate_fuse.task_timer import TaskTimer
from legate_fuse.window.holding import Window, execute_in_order
from legate_fuse.window.liveness import ArrayTracker, root_key
from legate_fuse.window.repeated_reductions import RepeatedReductions


class WindowRunner:
    def __init__(self, config: settings.Config, stats: Stats, clock: StageClock,
                 tracker: ArrayTracker, call_sites: CallSites, packed_futures: PackedFutures,
                 warn_once: Callable[[str], None], runtime: Callable[[], Any],
                 task_timer: TaskTimer | None = None,
                 foreign_roots: Callable[[], Container[str]] | None = None,
                 draws: DrawOrder | None = None,
                 exported: Callable[[Any], bool] = lambda store: True) -> None:
        self.config = config
        self.stats = stats
        self.clock = clock
        self.tracker = tracker
        self.call_sites = call_sites
        self.packed_futures = packed_futures
        self.warn_once = warn_once
        self.runtime = runtime  # Legate's own runtime, once the proxy is installed
        self.task_timer = task_timer  # LEGATE_FUSE_TIME_TASKS=1 only
        # The roots over memory not Legate's own (capture/external_memory.py; None: every root).
        self.foreign_roots = foreign_roots
        self.draws = draws or DrawOrder(runtime)  # fused random draws in program order
        self.window: Window | None = None  # the window run, set once it exists
        # Reductions computed again over unchanged arrays take the value computed before;
        # told what each window ran. `exported`: whether the program can write a store's
        # memory without a task.
        self.reductions = RepeatedReductions(stats, exported, self._fill, warn_once, root_key)
        self._planner: Any = None
        self._fuser: Any = None
        # Whole stores of arrays a cut window let go, kept for the plan of the next: the tasks
        # it kept made their arrays while it was held, when Legate had no freed memory to give.
        self._spares: list[Any] = []

    def execute_window(self, records: Sequence[TaskRecord]) -> None:
        """Plans the flushed window and runs it, fused; whatever fails inside the plugin, every
        task of the window runs, in order (those that have not run yet, as built)."""
        assert self.window is not None
        done = [False] * len(records)
        flush_reason = self.window.flush_reason
        spares, self._spares = self._spares, []  # (let go once this window has run)
        try:
            planner = self.planner()
            planned = planner.plan(list(records), self.window.held_back, spares)
            if planned is None:  # nothing to fuse: every task as built
                ended = unfused.window_ended(flush_reason)
                why = [ended if lifted else unfused.NOT_LIFTED
                       for lifted in planner.lifted_flags(records)]
                program_error = self.fuser().run_as_built(records, range(len(records)), done,
                                                          why)
                fused_tasks, written = [], []
            else:
                program_error = self.fuser().execute(planned, done, flush_reason)
                self.window.recycler.keep(planned.stores[n] for n in planned.unallocated)
                if self.window.held_back:
                    self._spares = [planned.stores[n] for n in planned.plan.free_at_end]
                fused_tasks, written = planned.fused_tasks, planned.written
            if program_error is None:
                self.reductions.window_ran(records, self.window.held_back, fused_tasks,
                                           written)
            else:
                self.reductions.clear()
        except Exception as error:  # the plugin must never break the program
            self.reductions.clear()
            self.warn_once(f"running a window failed, running the rest unfused: {error!r}")
            left = [r for r, ran in zip(records, done, strict=True) if not ran]
            for record in left:
                self.stats.unfused[record.library_name, record.task_id,
                                   unfused.PLUGIN_FAILED] += 1
            self.draws.settle()
            execute_in_order(left)
            return
        if program_error is not None:
            raise program_error

    def _fill(self, target: Any, value: Any) -> None:
        """Fills `target` with the value of the 0-d store `value` (a repeated reduction's)."""
        self.runtime().issue_fill(target, self.packed_futures.fill_value(value))

    def choose_cut(self, records: Sequence[TaskRecord]) -> int:
        """How many tasks of a full window to run: at least half, where the fewest bytes cross
        to the rest (see src/cpp/analysis/cut.h)."""
        try:
            return int(self.planner().choose_cut(records, earliest=max(1, len(records) // 2)))
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"choosing where to cut the window failed, running it all: {error!r}")
            return len(records)

    def warm_up(self) -> None:
        """Loads the planner and the backend and registers the fused task's library now (as
        fusion starts): at the first flush, their ~80 ms fell inside what a program timed."""
        try:
            self.planner()
            self.fuser()
            from legate_fuse.backend import tasks

            tasks.library()
            self.submit_draw_probe()
        except Exception as error:  # the plugin must never break the program
            self.warn_once(f"loading the fusion backend failed: {error!r}")

    def entering_trace(self) -> None:
        """Before a trace begins: no store kept for the program's next ones, which would differ
        between the trace's runs, and kernels built before their launch until it ends."""
        if self.window is not None:
            self.window.recycler.clear()
        self.fuser().tracing += 1

    def leaving_trace(self) -> None:
        self.fuser().tracing -= 1

    def submit_draw_probe(self) -> None:
        """Submits the probe of cuPyNumeric's generators (backend/draw_probe.py) where draws
        may be fused."""
        if self.config.random:
            from legate_fuse.backend import draw_probe

            draw_probe.submit(self.runtime())

    def fuser(self) -> Any:
        if self._fuser is None:
            from legate_fuse.backend.fuser_setup import make_fuser

            self._fuser = make_fuser(self.stats, self.config, self.runtime, self.warn_once,
                                     self.packed_futures, self.clock, self.task_timer,
                                     self.draws)
        return self._fuser

    def planner(self) -> Any:
        if self._planner is None:
            from legate_fuse.plan.planner import Planner

            assert self.window is not None  # (its recycler's references are the window's)
            self._planner = Planner(self.stats, self.tracker, "plan" in self.config.log_topics,
                                    self.clock, self.call_sites, self.window.recycler,
                                    self.foreign_roots)
        return self._planner

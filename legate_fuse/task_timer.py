"""How long the tasks that ran unfused took, per kind, with LEGATE_FUSE_TIME_TASKS=1.

Legate runs tasks asynchronously and reports no task's time to the program, so the time of one
task can only be seen by waiting: before the task, for everything submitted earlier (a blocking
execution fence), and after it, for the task itself. The time between the two fences is the
task's submission and execution, as the program would wait for it alone. Every fused launch is
timed the same way, so that the report can say what share of the timed work ran fused.

This serialises the program: it is for finding what keeps a program from fusing, not for
measuring its speed. Disabled (the default), nothing here is called on a task's path.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from legate_fuse.counters import Stats


class TaskTimer:
    def __init__(self, stats: Stats, runtime: Callable[[], Any]) -> None:
        self._stats = stats  # its unfused_seconds and fused_seconds
        self._runtime = runtime  # Legate's own runtime, not the plugin's proxy of it

    def run_unfused(self, library: str, task_id: int, submit: Callable[[], None]) -> None:
        """Submits a task that runs as its library built it, and charges its time to its
        kind."""
        seconds = self._stats.unfused_seconds

        def charge(spent: float) -> None:
            seconds[library, task_id] += spent

        self._time(submit, charge)

    def run_fused(self, submit: Callable[[], None]) -> None:
        """Submits a fused task, and adds its time to the fused launches' total."""

        def charge(spent: float) -> None:
            self._stats.fused_seconds += spent

        self._time(submit, charge)

    def _time(self, submit: Callable[[], None], charge: Callable[[float], None]) -> None:
        """Charges the seconds from the end of everything submitted before to the end of
        `submit`'s task, even when it raises (the task ran)."""
        self._fence()
        start = time.perf_counter()
        try:
            submit()
            self._fence()
        finally:
            charge(time.perf_counter() - start)

    def _fence(self) -> None:
        self._runtime().issue_execution_fence(block=True)

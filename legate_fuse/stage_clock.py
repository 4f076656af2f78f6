"""Where the plugin's time goes: seconds per stage, measured when LEGATE_FUSE_PROFILE=1.

The seconds are the main thread's CPU time (`time.thread_time`): the work done in a stage, not
the waits inside Legate (a submission that waits for the runtime), which the program would wait
without the plugin as well.

Stages nest (a flush happens inside a task's `execute`, a launch inside a flush), and each is
charged only the time spent in it and not in a stage inside it, so the stages add up to the
plugin's whole time without counting anything twice. Disabled, `stage()` returns one shared
context manager that does nothing.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from types import TracebackType

# The stages, in the order a task meets them.
STAGES = (
    "record",      # the proxies' own bookkeeping of each call that builds a task
    "build_task",  # Legate building the real AutoTask (creation, arguments, constraints)
    "lift",        # recorded tasks to operations
    "encode",      # the window's encoding, store descriptions and what the program reaches
    "analysis",    # the C++ analysis: cut, plan, kernel specifications
    "kernel",      # building and registering a fused group's kernel, when first launched
    "launch",      # the plugin's part of launching fused tasks (their arguments, statistics)
    "submit",      # Legate building and submitting the fused tasks
    "run_unfused", # submitting the tasks that run as built
)

_NOTHING: AbstractContextManager[None] = nullcontext()


class StageClock:
    def __init__(self, seconds: dict[str, float], enabled: bool) -> None:
        self.seconds = seconds
        self.enabled = enabled
        self._stack: list[str] = []
        self._since = 0.0

    def stage(self, name: str) -> AbstractContextManager[None]:
        return _Stage(self, name) if self.enabled else _NOTHING

    def _enter(self, name: str) -> None:
        now = time.thread_time()
        if self._stack:
            self._charge(self._stack[-1], now)
        self._stack.append(name)
        self._since = now

    def _leave(self) -> None:
        now = time.thread_time()
        self._charge(self._stack.pop(), now)
        self._since = now

    def _charge(self, stage: str, now: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + now - self._since


class _Stage:
    __slots__ = ("clock", "name")

    def __init__(self, clock: StageClock, name: str) -> None:
        self.clock, self.name = clock, name

    def __enter__(self) -> None:
        self.clock._enter(self.name)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.clock._leave()

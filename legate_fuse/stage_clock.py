"""Where the plugin's time goes: seconds per stage, measured when LEGATE_FUSE_PROFILE=1.

The seconds are the main thread's CPU time (`time.thread_time`): the work done in a stage, not
the waits inside Legate (a submission that waits for the runtime), which the program would wait
without the plugin as well.

Stages nest (a flush happens inside a task's `execute`, a launch inside a flush), and each is
charged only the time spent in it and not in a stage inside it, so the stages add up to the
plugin's whole time without counting anything twice. Disabled, `stage()` returns one shared
context manager that does nothing.

Measuring costs time of its own: reading the thread's CPU clock is a system call (about a
microsecond on a 2-core AMD EPYC), twice per stage entered, and a stage entered for each call
that records a task. Uncorrected, a recorded task was charged about 15 microseconds it did not
spend. So the clock measures its own cost when made (`Calibration`), and takes each stage's
share of it off: what a stage is charged is the work done in it, whatever the measuring cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
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
    "release",     # letting a run window's records go (Legate frees the stores only they held)
)

_NOTHING: AbstractContextManager[None] = nullcontext()

# Stages entered, per calibration round; the least of the rounds' costs is kept (a round the
# scheduler interrupts measures more, never less).
_CALIBRATION_USES = 2000
_CALIBRATION_ROUNDS = 3


@dataclass(frozen=True)
class Calibration:
    """The clock's own CPU time per stage entered: `inside`, the part charged to the stage
    entered (from its clock reading on entry to its reading on exit, the body excluded);
    `outside`, the part charged to the stage around it (before the entry's reading, after the
    exit's)."""

    inside: float = 0.0
    outside: float = 0.0

    @staticmethod
    def measured(now: Callable[[], float] = time.thread_time) -> Calibration:
        """This clock's costs here: a stage with nothing in it entered many times, inside
        another."""
        best = Calibration(float("inf"), float("inf"))
        for _ in range(_CALIBRATION_ROUNDS):
            seconds: dict[str, float] = {}
            probe = StageClock(seconds, enabled=True, calibration=Calibration(), now=now)
            with probe.stage("around"):
                for _ in range(_CALIBRATION_USES):
                    with probe.stage("inside"):
                        pass
            best = Calibration(min(best.inside, seconds["inside"] / _CALIBRATION_USES),
                               min(best.outside, seconds["around"] / _CALIBRATION_USES))
        return best


class StageClock:
    """`now` reads the clock: the main thread's CPU time, or a test's clock whose readings
    are known."""

    def __init__(self, seconds: dict[str, float], enabled: bool,
                 calibration: Calibration | None = None,
                 now: Callable[[], float] = time.thread_time) -> None:
        self.seconds = seconds
        self.enabled = enabled
        self._now = now
        self._stack: list[str] = []
        self._since = 0.0
        if calibration is None:
            calibration = Calibration.measured(now) if enabled else Calibration()
        self.calibration = calibration
        self._inside, self._outside = calibration.inside, calibration.outside

    def stage(self, name: str) -> AbstractContextManager[None]:
        return _Stage(self, name) if self.enabled else _NOTHING

    def _enter(self, name: str) -> None:
        now = self._now()
        if self._stack:  # (the stage around pays for this entry and for the exit to come)
            self._charge(self._stack[-1], now - self._since - self._outside)
        self._stack.append(name)
        self._since = now

    def _leave(self) -> None:
        now = self._now()
        self._charge(self._stack.pop(), now - self._since - self._inside)
        self._since = now

    def _charge(self, stage: str, seconds: float) -> None:
        # (One charge may come out below zero, the clock's cost being an average; the sum of
        # many is the stage's work.)
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds


class _Stage:
    __slots__ = ("clock", "name")

    def __init__(self, clock: StageClock, name: str) -> None:
        self.clock, self.name = clock, name

    def __enter__(self) -> None:
        self.clock._enter(self.name)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.clock._leave()

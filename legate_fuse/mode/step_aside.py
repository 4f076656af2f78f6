"""Stepping aside: cuPyNumeric's tasks go straight to Legate while none of them is held.

A program whose operations the plugin cannot fuse (scans, sorts, clips...) pays the plugin's
work on each task for nothing: a proxy stands for the task so that it runs after what is held
(task_proxy.py), and a task of a kind the lifting knows has its call site looked up
(call_sites.py). After `after` tasks built at once with no fused launch meanwhile (tasks
recorded and run unfused are not counted), the plugin steps aside: the runtime object
cuPyNumeric was given (a RuntimeProxy of its own, see Session.install_runtime_proxy) creates
Legate's own tasks and stores, which cuPyNumeric uses without the plugin seeing them. Nothing is
held meanwhile: a task recorded earlier and submitted now runs at once. Any other caller of the
runtime goes through the plugin throughout: only cuPyNumeric, and the libraries whose lifting
says so, are known to submit each task within the call that created it
(direct_tasks.BUILT_IN_ONE_CALL).

The plugin comes back once `COME_BACK_FACTOR * after` more arrays have been created (the
liveness tracker counts them: an array is created for nearly every operation's result) or a
quarter as many values read back, so a program that moves on to operations that fuse is fused
again. Each time it comes back to find nothing to fuse (it steps aside again with no fused
launch since), it waits twice as long before looking again, up to `MOST_COME_BACK_FACTOR`
times `after` arrays: on a long stream that never fuses, the runs of tasks it sees to decide
become a vanishing share of the stream's tasks (on a stream of 16,000 clips and scans, one task
in six when the wait stays the same). A fused launch brings the wait back to the first.
cuPyNumeric's tasks go through
the plugin from then on, and tasks are held again once no function of cuPyNumeric that may have
received one of Legate's tasks can still be building it: as when fusion did not pay
(direct_tasks.py), the cuPyNumeric functions running on any thread when the plugin comes back
are remembered, and nothing is held while one of them still runs.

While running unfused because fusion was measured not to pay (mode/payoff.py), the plugin
also stands aside between two measurements (`at_read`): only the measurement brings it back
then, not the arrays created (they would bring it back fusing, where fusion was measured to
cost time). It also stands aside while kernels compile in the background after a window that
fused nothing for want of them (`begin_while_compiling`): its groups would run their original
tasks anyway, and a program's first run with an empty kernel cache then costs what it costs
without the plugin, not the plugin's work on every task on top. It looks again every
`COMPILE_CHECK_ARRAYS` arrays created and at every read, which also starts the builders queued
meanwhile, and comes back once no kernel is compiling.

Tasks cuPyNumeric submits while the plugin stands aside are not counted in `tasks_seen` (those
of other libraries are); the measurement of whether fusion pays (mode/payoff.py) starts its
current phase again at each change, as its time per task would count them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from legate_fuse.capture.direct_tasks import DirectTasks
from legate_fuse.counters import Stats
from legate_fuse.mode.machine import Mode, ModeMachine
from legate_fuse.mode.payoff import PayoffTuner

logger = logging.getLogger("legate_fuse")

# Arrays created while aside, per task of `after`, before the plugin looks again: the plugin's
# work is then paid on at most about one task in this many of a stream that never fuses.
COME_BACK_FACTOR = 8
# The longest wait, doubled from COME_BACK_FACTOR each time the plugin looked for nothing: a
# program that turns to work that fuses, after a long stream that did not, runs unfused for at
# most this many arrays per task of `after` (16,384 by default).
MOST_COME_BACK_FACTOR = 64
# Arrays created, while aside for kernels compiling, between two looks at the builders.
COMPILE_CHECK_ARRAYS = 64
# The runtime's methods that are Legate's own while the plugin stands aside.
_LEGATES_OWN = ("create_auto_task", "create_store")


class ArrayCounter(Protocol):
    """What stepping aside needs of the liveness tracker (window/liveness.ArrayTracker)."""

    def call_after(self, arrays: int, callback: Callable[[], None]) -> None: ...


class StepAside:
    def __init__(self, after: int, stats: Stats, direct_tasks: DirectTasks,
                 arrays: ArrayCounter, payoff: PayoffTuner | None, mode: ModeMachine) -> None:
        self.after = after  # tasks built at once, none fused, before stepping aside; 0: never
        self.run = 0  # tasks built at once so far (counted by RuntimeProxy.create_auto_task)
        self._fused_launches = 0  # stats.fused_launches when the run began
        self.mode = mode  # aside is its mode ASIDE, entered and left here only
        self.come_back_factor = COME_BACK_FACTOR  # the wait at the next step aside
        self._for_payoff = False  # aside because fusion does not pay (at_read)
        self._compiling: Callable[[], bool] | None = None  # aside while this says True
        self._reads_left = 0  # reads before coming back
        self.stats = stats
        self.direct_tasks = direct_tasks
        self.arrays = arrays
        self.payoff = payoff  # starts its phase again at each change, if measuring
        # The runtime object given to cuPyNumeric (and to the libraries that build their tasks
        # as it does: direct_tasks.py), and Legate's own.
        self._proxy: Any = None
        self._legate: Any = None

    @property
    def aside(self) -> bool:
        return self.mode.mode is Mode.ASIDE

    def attach(self, cupynumeric_runtime: Any, legate_runtime: Any) -> None:
        self._proxy = cupynumeric_runtime
        self._legate = legate_runtime

    def run_ended(self) -> None:
        """The run of tasks built at once reached `after`: steps aside, unless a fused task
        was launched meanwhile (then a new run begins)."""
        if self.stats.fused_launches != self._fused_launches:
            self.come_back_factor = COME_BACK_FACTOR
            self._new_run()
        else:
            self.begin()

    def begin(self) -> None:
        """Steps aside after a run of tasks built at once, none fused, until enough arrays
        are created or values read back."""
        if not self._step_aside("nothing fused"):
            return
        factor = self.come_back_factor
        self.arrays.call_after(factor * self.after, self._enough_arrays)
        self._reads_left = factor * self.after // 4
        # Stepping aside again before any fused launch means the last look found nothing.
        self.come_back_factor = min(2 * factor, MOST_COME_BACK_FACTOR)
        logger.debug("%d tasks built at once, none fused: stepping aside", self.run)

    def _step_aside(self, reason: str) -> bool:
        """cuPyNumeric's tasks go to Legate unseen from now; returns whether the plugin
        stepped aside (not if it already stands aside, never does, or is disabled)."""
        if self.aside or self._proxy is None or self.after <= 0:
            return False
        if not self.mode.fire("step_aside", reason):  # e.g. disabled: nothing to step out of
            return False
        # An instance attribute is found before the class's method: cuPyNumeric's next calls
        # go to Legate without a Python frame of the plugin's. Its stores too: nothing is held
        # (the window notes a new store only while it holds tasks, as untouched by them), and
        # no store is recycled.
        for name in _LEGATES_OWN:
            setattr(self._proxy, name, getattr(self._legate, name))
        self.stats.steps_aside += 1
        self._restart_payoff_phase()
        return True

    def _enough_arrays(self) -> None:
        """Enough arrays were created since stepping aside after a run of tasks built at once:
        the plugin looks again, unless it now stands aside because fusion does not pay (the
        measurement of whether it does decides when it comes back)."""
        if not self._for_payoff:
            self.come_back()

    def begin_while_compiling(self, compiling: Callable[[], bool]) -> None:
        """Steps aside until `compiling()` (which also starts queued builders) says no kernel
        is compiling any more; the wait of `begin` is left as it was."""
        if not self._step_aside("kernels compiling"):
            return
        self._compiling = compiling
        self.arrays.call_after(COMPILE_CHECK_ARRAYS, self._check_compiled)
        logger.debug("kernels compiling, none fused: stepping aside")

    def _check_compiled(self) -> None:
        compiling = self._compiling
        if compiling is None or not self.aside:
            return
        if compiling():
            self.arrays.call_after(COMPILE_CHECK_ARRAYS, self._check_compiled)
        else:
            self.come_back()

    def at_read(self, fusing: bool, settled: bool) -> None:
        """A value is read back, or the program waits at a task (after the measurement of
        whether fusion pays, if it is on).

        Running unfused because fusion does not pay, settled until the tuner's next round, no
        task need be seen (nothing is held, the tuner counts no tasks), so the plugin steps
        aside; measuring the unfused way, or fused again, it comes back. (Aside, it does not see
        the waits at tasks, only reads: a program that waits at tasks alone is measured again
        after as many comebacks as the tuner waits for reads.) Aside after a run of tasks built
        at once, it also comes back after a quarter as many reads as the arrays it waits for: a
        loop that writes only into arrays it has creates none."""
        if self._compiling is not None and self.aside:  # aside while kernels compile
            if not self._compiling():
                self.come_back()
            return
        if not fusing and settled:
            # (Already aside after a run of tasks built at once, it now stays aside for this
            # reason: the arrays it waited for no longer bring it back.)
            self._step_aside("fusion does not pay")
            self._for_payoff = self.aside
        elif self._for_payoff or not fusing:
            self.come_back(unfused=not fusing)
        elif self.aside:
            self._reads_left -= 1
            if self._reads_left <= 0:
                self.come_back()

    def come_back(self, unfused: bool = False) -> None:
        """cuPyNumeric's tasks go through the plugin again; none is held while a function of
        cuPyNumeric that may have received one of Legate's tasks still runs (mode RESUMING), or
        none at all if fusion does not pay (`unfused`: mode UNFUSED)."""
        if not self.aside:
            return
        for name in _LEGATES_OWN:
            vars(self._proxy).pop(name, None)
        self.direct_tasks.handed_to_every_running()
        self._for_payoff = False
        self._compiling = None
        self.mode.fire("come_back_unfused" if unfused else "come_back")
        self._new_run()
        logger.debug("coming back after stepping aside")
        self._restart_payoff_phase()

    def _new_run(self) -> None:
        self.run = 0
        self._fused_launches = self.stats.fused_launches

    def _restart_payoff_phase(self) -> None:
        if self.payoff is not None:
            self.payoff.restart_phase(self.stats.tasks_seen)

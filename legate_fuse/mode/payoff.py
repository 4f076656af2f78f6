"""Whether fusion pays in this program, measured by running its own work both ways.

Fusion saves Legate launches and memory traffic, and costs the plugin's own work: recording
each task, planning each window, building each fused task. On small arrays read back every few
operations (a convergence test, a printed loss), the windows are a few tasks long and that work
is not repaid; on large arrays it is, many times over. Where the line falls depends on the
machine, the sizes and the program, so it is measured: a program that reads values back repeats
the same work between reads, and the seconds per task between reads, with fusion on and with
every task run as cuPyNumeric built it, decide which way it runs.

- The first `warmup_reads` reads are not measured (plans are made and kernels compiled then).
  Nothing is measured while kernels compile in the background (their groups run unfused):
  a read then does not count towards the warm-up, and a measurement under way starts again.
- Only a program whose main thread is busy (`min_busy` of the time or more, its CPU time over
  the wall time) can gain by running unfused: the plugin's work is on that thread, and a
  program waiting for Legate's workers most of the time gains from the work fusion saves them.
  Fused and less busy, it is not probed (a probe of a program that fusion speeds up many times
  costs it as much).
- A round measures `phase_reads` reads the current way, then the same number the other way
  (the probe), and keeps the faster way; fusion is kept unless running unfused was faster by
  more than `margin` (none by default: measured within the program, running unfused gains
  less than it does over a whole run, e.g. 2% where whole runs differ by 4-5%).
- A probe clearly slower (`give_up` times the other way's time per task, after 2 reads) ends
  at once: where fusion pays many times over, a probe costs the program 2 reads' worth.
- Rounds repeat after `first_wait` reads, then 4 times as many each time (at most `most_wait`),
  and at once when the time per task changes `change` times over (the program moved on to
  other sizes). That change is against the first whole phase of `phase_reads` reads run the
  chosen way, not against the round's measurement: while the plugin stands aside (it does when
  running unfused), it sees only the tasks that do not come from cuPyNumeric (another
  library's), so its time per task is measured over other tasks than the round's. A phase
  begins again at each change of what the plugin sees (`restart_phase`), and the first whole
  phase after such a change is the new reference.

A program that never reads a value back is never measured: it runs fused throughout. Pure
Python and independent of Legate: the session reports reads and counts of tasks.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from legate_fuse.counters import Stats

logger = logging.getLogger("legate_fuse")

WARMUP, MEASURE, PROBE, SETTLED = "warmup", "measure", "probe", "settled"


@dataclass(frozen=True)
class TunerSettings:
    warmup_reads: int = 8
    min_busy: float = 0.5
    phase_reads: int = 6
    margin: float = 0.0
    give_up: float = 1.5
    change: float = 2.0
    first_wait: int = 48
    most_wait: int = 3072


class PayoffTuner:
    def __init__(self, settings: TunerSettings = TunerSettings(),
                 clock: Callable[[], float] = time.perf_counter,
                 cpu_clock: Callable[[], float] = time.thread_time) -> None:
        self.settings = settings
        self.clock = clock
        self.cpu_clock = cpu_clock  # this thread's CPU time
        self.fusing = True
        self.step = WARMUP
        self.rounds = 0  # rounds decided so far (for the statistics)
        self.rounds_unfused = 0  # of which running unfused won
        # Seconds per task of each way in the last round decided (None before): (fused, unfused).
        self.last_round: tuple[float, float] | None = None
        self._reads = 0
        self._start_time = 0.0
        self._start_tasks = 0
        self._start_cpu = 0.0
        self.busy = 0.0  # the main thread's CPU time over the wall time, last measured
        self._measured = 0.0  # seconds per task of the way measured before the probe
        # Seconds per task of the way chosen, over its first whole phase since it was chosen
        # or since the plugin's view of the tasks last changed (None until then).
        self._settled_rate: float | None = None
        self._wait = 0
        self._next_wait = settings.first_wait

    def at_read(self, stats: Stats) -> bool:
        """A value is read back (after every held task ran): returns whether to fuse from now
        on; counts the rounds decided in `stats`, and logs each decision."""
        if stats.kernels_compiling and self.step != SETTLED:
            self._wait_for_kernels(stats.tasks_seen)
            return self.fusing
        fusing = self._at_read(stats.tasks_seen)
        if self.rounds != stats.payoff_rounds:
            stats.payoff_rounds, stats.payoff_rounds_unfused = self.rounds, self.rounds_unfused
            logger.info("whether fusion pays: %s", self.describe_last_round())
        return fusing

    def _at_read(self, tasks_seen: int) -> bool:
        now = self.clock()
        self._reads += 1
        reads, s = self._reads, self.settings
        if self.step == WARMUP:
            if reads >= s.warmup_reads:
                self._begin(MEASURE, now, tasks_seen)
            return self.fusing
        tasks = tasks_seen - self._start_tasks
        rate = (now - self._start_time) / tasks if tasks > 0 else None
        if self.step == MEASURE:
            if reads >= s.phase_reads:
                self.busy = (self.cpu_clock() - self._start_cpu) / max(now - self._start_time,
                                                                        1e-9)
                if rate is None:  # no task between these reads: measure again
                    self._begin(MEASURE, now, tasks_seen)
                elif self.fusing and self.busy < s.min_busy:  # nothing to gain unfused
                    logger.info("whether fusion pays: not measured, the main thread is busy "
                                "%.0f%% of the time: running fused", 100 * self.busy)
                    self._settle(True, now, tasks_seen, probed=False)
                else:
                    self._measured = rate
                    self.fusing = not self.fusing
                    self._begin(PROBE, now, tasks_seen)
        elif self.step == PROBE:
            if rate is None:
                if reads >= s.phase_reads:  # no task while probing: the measured way stays
                    self.last_round = None
                    self._settle(not self.fusing, now, tasks_seen)
            elif reads >= s.phase_reads or (reads >= 2 and rate > s.give_up * self._measured):
                fused, unfused = ((rate, self._measured) if self.fusing
                                  else (self._measured, rate))
                self.last_round = (fused, unfused)
                if unfused < fused * (1 - s.margin):
                    self._settle(False, now, tasks_seen)
                else:
                    self._settle(True, now, tasks_seen)
        else:  # SETTLED
            self._wait -= 1
            if self._wait <= 0:
                self._begin(MEASURE, now, tasks_seen)
            elif reads >= s.phase_reads:
                if rate is not None and self._settled_rate is None:
                    self._settled_rate = rate
                if rate is not None and self._moved_on(rate):
                    self._begin(MEASURE, now, tasks_seen)
                else:
                    self._begin(SETTLED, now, tasks_seen)
        return self.fusing

    def _wait_for_kernels(self, tasks_seen: int) -> None:
        """Kernels are compiling in the background: the fused groups that wait for them run
        unfused, so the time per task is neither way's. The warm-up does not count this read;
        a measurement or a probe starts again, measuring the way it measured."""
        if self.step == PROBE:
            self.fusing = not self.fusing
        if self.step != WARMUP:
            self._begin(MEASURE, self.clock(), tasks_seen)

    @property
    def settled(self) -> bool:
        """Whether the way to run is chosen until the next round (no measurement under way)."""
        return self.step == SETTLED

    def restart_phase(self, tasks_seen: int) -> None:
        """Measures the current phase again from now: tasks were run that were not counted
        (the plugin stepped aside, mode/step_aside.py), or will be from now (it came back).
        Settled, the reference time per task is measured again too: it was over other tasks."""
        if self.step == SETTLED:
            self._settled_rate = None
        if self.step != WARMUP:
            self._begin(self.step, self.clock(), tasks_seen)

    def describe_last_round(self) -> str:
        way = "fused" if self.fusing else "unfused"
        if self.last_round is None:
            return f"nothing to measure: running {way}"
        fused, unfused = self.last_round
        return (f"measured {fused * 1e6:.1f} us per task fused, {unfused * 1e6:.1f} unfused "
                f"(main thread busy {self.busy:.0%} before the probe): running {way}")

    def _moved_on(self, rate: float) -> bool:
        """Whether the time per task is `change` times what it was over the first phase run
        the way chosen."""
        change, settled = self.settings.change, self._settled_rate
        return settled is not None and (rate > change * settled or rate * change < settled)

    def _begin(self, step: str, now: float, tasks_seen: int) -> None:
        self.step, self._reads = step, 0
        self._start_time, self._start_tasks = now, tasks_seen
        if step == MEASURE:
            self._start_cpu = self.cpu_clock()

    def _settle(self, fusing: bool, now: float, tasks_seen: int,
                probed: bool = True) -> None:
        self.fusing = fusing
        self.rounds += probed
        self.rounds_unfused += not fusing
        self._settled_rate = None  # measured over the first phase run this way
        self._wait = self._next_wait
        self._next_wait = min(4 * self._next_wait, self.settings.most_wait)
        self._begin(SETTLED, now, tasks_seen)

"""Whether fusion pays, measured at the program's reads (mode/payoff.py): a fake clock stands
for the program, advancing by a time per task that depends on whether tasks are fused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from legate_fuse.counters import Stats
from legate_fuse.mode.payoff import PayoffTuner, TunerSettings

SETTINGS = TunerSettings(warmup_reads=4, phase_reads=4, margin=0.02, give_up=1.5,
                         change=2.0, first_wait=20, most_wait=80)
TASKS_PER_READ = 10


class Program:
    """Reads a value every TASKS_PER_READ tasks; a task takes `fused` or `unfused` seconds."""

    def __init__(self, fused: float, unfused: float, busy: float = 1.0,
                 settings: TunerSettings = SETTINGS) -> None:
        self.fused, self.unfused = fused, unfused
        self.now, self.tasks = 0.0, 0
        self.busy = busy  # the main thread's CPU time over the wall time
        self.tuner = PayoffTuner(settings, clock=lambda: self.now,
                                 cpu_clock=lambda: self.busy * self.now)
        self.stats = Stats()
        self.ways: list[bool] = []  # the way each read's work ran

    def run(self, reads: int) -> list[bool]:
        for _ in range(reads):
            fusing = self.tuner.fusing
            self.ways.append(fusing)
            self.tasks += TASKS_PER_READ
            self.now += TASKS_PER_READ * (self.fused if fusing else self.unfused)
            self.stats.tasks_seen = self.tasks
            self.tuner.at_read(self.stats)
        return self.ways


def test_where_fusion_pays_the_program_runs_fused_after_one_short_probe() -> None:
    program = Program(fused=1.0, unfused=10.0)
    ways = program.run(200)
    # Warm-up and a measured phase fused, a probe given up after 2 reads, then fused.
    assert ways[:8] == [True] * 8 and ways[8:10] == [False, False]
    assert all(ways[10:30])
    assert program.tuner.rounds >= 1 and program.tuner.rounds_unfused == 0
    assert ways.count(False) <= 2 * program.tuner.rounds  # each probe costs 2 reads


def test_where_fusion_costs_time_the_program_runs_unfused() -> None:
    program = Program(fused=1.2, unfused=1.0)
    ways = program.run(200)
    assert ways[8:12] == [False] * 4  # the probe
    assert ways[12:].count(False) > 0.8 * len(ways[12:])
    assert program.tuner.rounds_unfused == program.tuner.rounds


def test_a_program_waiting_for_legate_most_of_the_time_is_not_probed() -> None:
    program = Program(fused=1.2, unfused=1.0, busy=0.3)
    ways = program.run(200)
    assert all(ways) and program.tuner.rounds == 0
    program.busy = 0.9  # now the plugin's work may be what it waits for
    assert not all(program.run(200)[200:])


def test_a_tie_keeps_fusion() -> None:
    program = Program(fused=1.0, unfused=0.99)  # within the margin
    program.run(200)
    assert program.tuner.fusing and program.tuner.rounds_unfused == 0


def test_rounds_repeat_ever_more_rarely_up_to_a_bound() -> None:
    program = Program(fused=1.2, unfused=1.0,
                      settings=replace(SETTINGS, first_wait=10, most_wait=160))
    ways = program.run(800)
    # A round measures the way chosen, then probes the other: fused runs are the probes.
    probes = [i for i in range(1, len(ways)) if ways[i] and not ways[i - 1]]
    gaps = [b - a for a, b in pairwise(probes)]
    # Waits of 10, 40, 160, 160... reads, each followed by a round of 8 reads.
    assert gaps[:3] == [40 + 8, 160 + 8, 160 + 8]


def test_a_program_that_moves_on_to_other_sizes_is_measured_again() -> None:
    # (A wait longer than the test: only the change can start a round.)
    program = Program(fused=1.2, unfused=1.0, settings=replace(SETTINGS, first_wait=100))
    program.run(30)
    assert not program.tuner.fusing
    program.fused, program.unfused = 1.0, 10.0  # larger arrays: fusion pays many times over
    ways = program.run(12)
    assert program.tuner.fusing and ways[-1]


def test_reads_without_tasks_between_them_decide_nothing() -> None:
    tuner = PayoffTuner(SETTINGS, clock=lambda: 0.0, cpu_clock=lambda: 0.0)
    assert all(tuner.at_read(Stats()) for _ in range(100))
    assert tuner.rounds == 0


def test_nothing_is_measured_while_kernels_compile_in_the_background() -> None:
    """While kernels compile, fused groups run unfused: a read then does not count towards the
    warm-up, and the measurement starts only once none compiles. Fused, with its kernels
    compiling, the program is as slow as unfused (10); measured then, fusion would have been
    judged not to pay."""
    program = Program(fused=10.0, unfused=9.0)
    program.stats.kernels_compiling = 3
    ways = program.run(30)
    assert all(ways) and program.tuner.step == "warmup" and program.tuner.rounds == 0
    program.stats.kernels_compiling = 0
    program.fused = 1.0  # the kernels are ready
    ways = program.run(60)
    assert program.tuner.rounds >= 1 and program.tuner.rounds_unfused == 0
    assert ways[-20:] == [True] * 20


def test_a_probe_under_way_when_kernels_start_compiling_starts_again() -> None:
    program = Program(fused=1.0, unfused=2.0)
    program.run(SETTINGS.warmup_reads + SETTINGS.phase_reads)  # warm-up, then measured fused
    assert program.tuner.step == "probe" and not program.tuner.fusing
    program.stats.kernels_compiling = 1
    program.run(1)
    assert program.tuner.step == "measure" and program.tuner.fusing
    assert program.tuner.rounds == 0


class StandingAside(Program):
    """A program of TASKS_PER_READ tasks per read, SEEN_ASIDE of them from a library other than
    cuPyNumeric: while `stands_aside(tuner)`, the plugin stands aside and counts those only
    (mode/step_aside.py), and it starts the tuner's phase again when it steps aside or back."""

    SEEN_ASIDE = 2

    def __init__(self, fused: float, unfused: float,
                 stands_aside: Callable[[PayoffTuner], bool],
                 settings: TunerSettings = SETTINGS) -> None:
        super().__init__(fused, unfused, settings=settings)
        self.stands_aside = stands_aside

    def run(self, reads: int) -> list[bool]:
        for _ in range(reads):
            fusing, aside = self.tuner.fusing, self.stands_aside(self.tuner)
            self.ways.append(fusing)
            self.tasks += self.SEEN_ASIDE if aside else TASKS_PER_READ
            self.now += TASKS_PER_READ * (self.fused if fusing else self.unfused)
            self.stats.tasks_seen = self.tasks
            self.tuner.at_read(self.stats)
            if self.stands_aside(self.tuner) != aside:
                self.tuner.restart_phase(self.tasks)
        return self.ways


def aside_while_unfused(tuner: PayoffTuner) -> bool:
    return tuner.settled and not tuner.fusing


def test_standing_aside_unfused_is_not_taken_for_a_program_that_moved_on() -> None:
    """Aside, the plugin counts a fifth of the tasks: five times the time per task. Rounds
    still come only after the waits (20, then 80 reads)."""
    program = StandingAside(fused=1.2, unfused=1.0, stands_aside=aside_while_unfused)
    ways = program.run(200)
    assert program.tuner.rounds == program.tuner.rounds_unfused == 3
    assert ways[12:].count(True) == 2 * SETTINGS.phase_reads  # the probes of two rounds


def test_a_program_standing_aside_that_moves_on_is_measured_again() -> None:
    # (A wait longer than the test: only the change can start a round.)
    program = StandingAside(fused=1.2, unfused=1.0, stands_aside=aside_while_unfused,
                            settings=replace(SETTINGS, first_wait=100))
    program.run(24)
    assert not program.tuner.fusing and program.tuner.settled
    program.fused, program.unfused = 1.0, 10.0  # larger arrays: fusion pays many times over
    ways = program.run(16)
    assert program.tuner.fusing and ways[-1]


def test_a_change_in_what_the_plugin_sees_while_settled_is_not_a_program_that_moved_on() -> None:
    """Settled fused, the plugin steps aside after a run of tasks built at once, and sees a
    fifth of the tasks: measured against the time per task seen before, the program would
    seem to have moved on."""
    stepped_aside = [False]
    program = StandingAside(fused=1.0, unfused=1.2, stands_aside=lambda _: stepped_aside[0])
    program.run(20)  # settled fused, the time per task of its way measured
    assert program.tuner.settled and program.tuner.fusing
    rounds = program.tuner.rounds
    stepped_aside[0] = True
    program.tuner.restart_phase(program.tasks)
    program.run(8)  # two phases, before the wait of 20 reads since the round ends
    assert program.tuner.rounds == rounds and program.tuner.settled

"""The stage clock charges each stage only its own time, nested stages excluded."""

from __future__ import annotations

import time

import pytest

from legate_fuse.counters import Stats, format_stats
from legate_fuse.stage_clock import StageClock


def work(seconds: float) -> None:
    """Keeps this thread busy for `seconds` of its CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_nested_stages_are_charged_their_own_time_only() -> None:
    seconds: dict[str, float] = {}
    clock = StageClock(seconds, enabled=True)
    with clock.stage("record"):
        work(0.02)
        with clock.stage("lift"):
            work(0.05)
        work(0.02)
    assert set(seconds) == {"record", "lift"}
    assert 0.05 <= seconds["lift"] < 0.09
    assert 0.04 <= seconds["record"] < 0.07  # not the 0.09 s it spanned


class ClockWithCost:
    """A clock whose every reading costs `cost` seconds of the time it measures, as a system
    call does, and whose work is known: the clock's correction is checked exactly, whatever the
    machine's load (a real clock's cost varies from run to run)."""

    def __init__(self, cost: float) -> None:
        self.cost = cost
        self.time = 0.0

    def __call__(self) -> float:
        reading = self.time
        self.time += self.cost
        return reading

    def work(self, seconds: float) -> None:
        self.time += seconds


def test_the_clocks_own_cost_is_not_charged() -> None:
    """20,000 stages, each inside another, each reading the clock twice: each stage is charged
    the work done in it, and none of the readings' cost."""
    clock_time = ClockWithCost(cost=1.5e-6)
    seconds: dict[str, float] = {}
    clock = StageClock(seconds, enabled=True, now=clock_time)
    # (The stage around the calibration's also pays for its own exit: one use in 2,000.)
    assert clock.calibration.inside == pytest.approx(1.5e-6, rel=1e-3)
    assert clock.calibration.outside == pytest.approx(1.5e-6, rel=1e-3)
    uses = 20_000
    with clock.stage("launch"):
        clock_time.work(0.25)
        for _ in range(uses):
            with clock.stage("submit"):
                clock_time.work(2e-6)
    # Uncorrected: 1.5 us per use charged to each of the two (30 ms).
    assert seconds["submit"] == pytest.approx(uses * 2e-6, abs=1e-7)
    assert seconds["launch"] == pytest.approx(0.25, abs=1e-4)


def test_the_real_clock_measures_its_own_cost() -> None:
    calibration = StageClock({}, enabled=True).calibration
    assert 0 < calibration.inside < 1e-4 and 0 < calibration.outside < 1e-4


def test_a_wait_is_not_charged() -> None:
    seconds: dict[str, float] = {}
    clock = StageClock(seconds, enabled=True)
    with clock.stage("submit"):
        time.sleep(0.05)  # as Legate waiting for the runtime: no work of the main thread
    assert seconds["submit"] < 0.01


def test_a_disabled_clock_measures_nothing() -> None:
    seconds: dict[str, float] = {}
    clock = StageClock(seconds, enabled=False)
    with clock.stage("record"):
        pass
    assert seconds == {}


def test_stages_are_reported_per_task_only_when_measured() -> None:
    stats = Stats(tasks_seen=4)
    assert "stage_seconds" not in stats.as_dict()
    assert "by stage" not in format_stats(stats.as_dict())
    stats.stage_seconds.update(record=4e-6, lift=8e-6)
    text = format_stats(stats.as_dict())
    assert "us per task, by stage" in text and "3.00" in text
    assert "record" in text and "1.00" in text and "2.00" in text

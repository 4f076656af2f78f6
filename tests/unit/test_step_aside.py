"""Stepping aside (mode/step_aside.py) without Legate: what it changes on the runtime object
given to cuPyNumeric, and when."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legate_fuse.capture.direct_tasks import DirectTasks
from legate_fuse.counters import Stats
from legate_fuse.mode.machine import ModeMachine
from legate_fuse.mode.step_aside import (
    COME_BACK_FACTOR,
    COMPILE_CHECK_ARRAYS,
    MOST_COME_BACK_FACTOR,
    StepAside,
)


class Runtime:
    def create_auto_task(self, library: Any, task_id: int) -> str:
        return "through the plugin"

    def create_store(self, *args: Any) -> str:
        return "through the plugin"


class Legate:
    def create_auto_task(self, library: Any, task_id: int) -> str:
        return "Legate's own"

    def create_store(self, *args: Any) -> str:
        return "Legate's own"


class Arrays:
    def __init__(self) -> None:
        self.calls: list[tuple[int, Callable[[], None]]] = []

    def call_after(self, arrays: int, callback: Callable[[], None]) -> None:
        self.calls.append((arrays, callback))


def stepping(after: int = 4) -> tuple[StepAside, Runtime, Arrays]:
    arrays, runtime = Arrays(), Runtime()
    mode = ModeMachine()
    mode.fire("hooks_ready")
    aside = StepAside(after, Stats(), DirectTasks(), arrays, None, mode)
    aside.attach(runtime, Legate())
    return aside, runtime, arrays


def test_stepping_aside_hands_legates_own_tasks_until_enough_arrays() -> None:
    aside, runtime, arrays = stepping()
    aside.run_ended()
    assert aside.aside and aside.stats.steps_aside == 1
    assert runtime.create_auto_task(None, 0) == "Legate's own"
    assert runtime.create_store() == "Legate's own"
    [(count, callback)] = arrays.calls
    assert count == COME_BACK_FACTOR * 4
    callback()
    assert not aside.aside
    assert runtime.create_auto_task(None, 0) == "through the plugin"
    assert runtime.create_store() == "through the plugin"


def test_a_fused_launch_during_the_run_begins_a_new_run() -> None:
    aside, _, _ = stepping()
    aside.run = 4
    aside.stats.fused_launches += 1
    aside.run_ended()
    assert not aside.aside and aside.run == 0
    aside.run = 4
    aside.run_ended()
    assert aside.aside


def test_never_with_zero() -> None:
    aside, runtime, _ = stepping(after=0)
    aside.run_ended()
    aside.at_read(fusing=False, settled=True)
    assert not aside.aside
    assert runtime.create_auto_task(None, 0) == "through the plugin"


def test_settled_unfused_stands_aside_until_measured_again() -> None:
    aside, runtime, _ = stepping()
    aside.at_read(fusing=True, settled=True)
    assert not aside.aside  # fused: the run of tasks built at once decides
    aside.at_read(fusing=False, settled=False)
    assert not aside.aside  # measuring the unfused way: its tasks are counted
    aside.at_read(fusing=False, settled=True)
    assert aside.aside
    aside.at_read(fusing=False, settled=False)
    assert not aside.aside
    assert runtime.create_auto_task(None, 0) == "through the plugin"
    aside.at_read(fusing=False, settled=True)
    aside.at_read(fusing=True, settled=False)  # fused again (a fake's decision)
    assert not aside.aside


def test_fused_reads_leave_a_run_s_stepping_aside_alone() -> None:
    aside, _, _ = stepping()
    aside.run_ended()
    aside.at_read(fusing=True, settled=True)
    aside.at_read(fusing=True, settled=False)
    assert aside.aside


def test_reads_bring_the_plugin_back_as_arrays_do() -> None:
    # A loop that writes only into arrays it has (`out=`, `+=`) creates no array.
    aside, _, _ = stepping(after=4)
    aside.run_ended()
    reads = COME_BACK_FACTOR * 4 // 4
    for _ in range(reads - 1):
        aside.at_read(fusing=True, settled=False)
    assert aside.aside
    aside.at_read(fusing=True, settled=False)
    assert not aside.aside


def test_each_look_that_finds_nothing_doubles_the_wait_until_a_fused_launch() -> None:
    aside, _, arrays = stepping()
    waits = []
    for _ in range(5):  # steps aside, comes back, finds nothing to fuse: again
        aside.run_ended()
        waits.append(arrays.calls[-1][0])
        arrays.calls[-1][1]()
    factors = [COME_BACK_FACTOR * 2**i for i in range(5)]
    assert waits == [4 * min(f, MOST_COME_BACK_FACTOR) for f in factors]
    aside.stats.fused_launches += 1  # the last look found work that fuses
    aside.run_ended()
    assert not aside.aside
    aside.run_ended()
    assert arrays.calls[-1][0] == 4 * COME_BACK_FACTOR


def test_the_reads_waited_for_double_with_the_arrays() -> None:
    aside, _, arrays = stepping()
    aside.run_ended()
    arrays.calls[-1][1]()
    aside.run_ended()  # the second wait: twice the first
    for _ in range(2 * COME_BACK_FACTOR * 4 // 4 - 1):
        aside.at_read(fusing=True, settled=True)
    assert aside.aside
    aside.at_read(fusing=True, settled=True)
    assert not aside.aside


def test_aside_while_kernels_compile_looks_again_until_none_is() -> None:
    aside, runtime, arrays = stepping()
    compiling = [True]
    looks: list[bool] = []

    def still_compiling() -> bool:
        looks.append(compiling[0])
        return compiling[0]

    aside.begin_while_compiling(still_compiling)
    assert aside.aside and runtime.create_auto_task(None, 0) == "Legate's own"
    assert aside.mode.last_reason[aside.mode.mode] == "kernels compiling"
    [(count, callback)] = arrays.calls
    assert count == COMPILE_CHECK_ARRAYS
    callback()  # still compiling: it looks again later
    assert aside.aside and len(arrays.calls) == 2
    aside.at_read(fusing=True, settled=False)  # nor at a read
    assert aside.aside
    compiling[0] = False
    arrays.calls[-1][1]()
    assert not aside.aside and runtime.create_auto_task(None, 0) == "through the plugin"
    assert looks == [True, True, False]
    assert COME_BACK_FACTOR * 4 not in [count for count, _ in arrays.calls]


def test_aside_while_kernels_compile_comes_back_at_a_read_once_built() -> None:
    aside, _, _ = stepping()
    aside.begin_while_compiling(lambda: False)
    aside.at_read(fusing=True, settled=False)
    assert not aside.aside


def test_never_aside_for_compiling_with_zero() -> None:
    aside, _, _ = stepping(after=0)
    aside.begin_while_compiling(lambda: True)
    assert not aside.aside


def test_aside_because_fusion_does_not_pay_only_the_measurement_brings_it_back() -> None:
    aside, runtime, arrays = stepping()
    aside.at_read(fusing=False, settled=True)
    assert aside.aside and arrays.calls == []  # no count of arrays to come back after
    aside.at_read(fusing=False, settled=True)
    assert aside.aside
    aside.at_read(fusing=False, settled=False)  # the next round measures the unfused way
    assert not aside.aside and runtime.create_auto_task(None, 0) == "through the plugin"


def test_arrays_counted_before_fusion_was_found_not_to_pay_do_not_bring_it_back() -> None:
    aside, _, arrays = stepping()
    aside.run_ended()  # aside after tasks built at once, until enough arrays are created
    aside.at_read(fusing=False, settled=True)  # and now because fusion does not pay
    [(_, enough_arrays)] = arrays.calls
    enough_arrays()
    assert aside.aside
    aside.at_read(fusing=False, settled=False)
    assert not aside.aside

from __future__ import annotations

from typing import Any

import pytest

from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.window.holding import Window, execute_in_order


class FakeStore:
    """A store over a set of element indices of one root."""

    def __init__(self, root: str, elements: range) -> None:
        self.root = root
        self.elements = set(elements)

    def overlaps(self, other: Any) -> bool:
        return self.root == other.root and bool(self.elements & other.elements)


class FakeTask:
    def __init__(self, name: str, log: list[str], fail: bool = False) -> None:
        self.name = name
        self.log = log
        self.fail = fail

    def execute(self) -> None:
        self.log.append(self.name)
        if self.fail:
            raise RuntimeError(f"{self.name} failed")


def record(name: str, log: list[str], *stores: FakeStore, fail: bool = False) -> TaskRecord:
    return TaskRecord(task=FakeTask(name, log, fail), stores=list(stores))


def test_tasks_are_held_until_flush_then_run_in_program_order() -> None:
    log: list[str] = []
    window = Window(capacity=10, stats=Stats())
    for name in ("a", "b", "c"):
        window.hold(record(name, log))
    assert log == [] and len(window) == 3
    window.flush("read")
    assert log == ["a", "b", "c"] and len(window) == 0
    assert window.stats.flushes == {"read": 1}


def test_window_flushes_when_full() -> None:
    log: list[str] = []
    window = Window(capacity=2, stats=Stats())
    window.hold(record("a", log))
    assert log == []
    window.hold(record("b", log))
    assert log == ["a", "b"]
    assert window.stats.flushes == {"window_full": 1}


def test_flushing_an_empty_window_is_not_counted() -> None:
    window = Window(capacity=4, stats=Stats())
    window.flush("read")
    assert window.stats.flushes == {}


def test_touches_checks_every_held_store() -> None:
    log: list[str] = []
    window = Window(capacity=8, stats=Stats())
    window.hold(record("w", log, FakeStore("x", range(0, 10)), FakeStore("y", range(0, 10))))
    assert window.touches([FakeStore("y", range(5, 6))])
    assert window.touches([FakeStore("q", range(0, 1)), FakeStore("x", range(9, 12))])
    assert not window.touches([FakeStore("x", range(10, 20))])
    assert not window.touches([FakeStore("fresh", range(0, 1))])
    assert not window.touches([])


def test_all_tasks_run_when_one_fails_and_the_first_error_is_raised() -> None:
    log: list[str] = []
    records = [record("a", log), record("b", log, fail=True), record("c", log, fail=True)]
    with pytest.raises(RuntimeError, match="b failed"):
        execute_in_order(records)
    assert log == ["a", "b", "c"]


def test_a_flush_triggered_while_flushing_sees_an_empty_window() -> None:
    log: list[str] = []
    window: Window

    def executor(records: Any) -> None:
        window.flush("nested")  # must not re-run the batch
        execute_in_order(records)

    window = Window(capacity=8, stats=Stats(), executor=executor)
    window.hold(record("a", log))
    window.flush("read")
    assert log == ["a"]
    assert window.stats.flushes == {"read": 1}


def test_capacity_must_be_positive() -> None:
    with pytest.raises(ValueError, match="capacity must be >= 1"):
        Window(capacity=0, stats=Stats())


class Freed:
    """A store that notes when its last reference goes."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def __del__(self) -> None:
        self.log.append(self.name)


def test_a_flushed_windows_stores_are_freed_in_program_order() -> None:
    """Each store only the window holds is freed when the last task that touches it is
    dropped, first task to last: Legate then recycles the fields of the stores the program
    made first for the stores it makes first next time (a temporary's for a temporary), as
    without the plugin. A list drops its items last to first."""
    freed: list[str] = []
    window = Window(capacity=16, stats=Stats(), executor=execute_in_order)
    a, b, c = Freed("a", freed), Freed("b", freed), Freed("c", freed)
    window.hold(TaskRecord(task=FakeTask("t0", []), stores=[a]))
    window.hold(TaskRecord(task=FakeTask("t1", []), stores=[a, b]))
    window.hold(TaskRecord(task=FakeTask("t2", []), stores=[b]))
    window.hold(TaskRecord(task=FakeTask("t3", []), stores=[c]))
    del a, b, c
    window.flush("read")
    assert freed == ["a", "b", "c"]


def test_the_recycler_keeps_a_windows_temporaries() -> None:
    """A window of N tasks makes up to about N temporaries; its recycler keeps them all (past
    its bound, the stores kept first go back to Legate, whose queue then gives their fields,
    without memory, to the loop's results)."""
    assert Window(capacity=1000, stats=Stats()).recycler.most_kept == 1000
    assert Window(capacity=4, stats=Stats()).recycler.most_kept >= 4

"""Where a full window is cut (legate_fuse/window/cut.py) and how the window keeps the rest."""

from __future__ import annotations

from typing import Any

from legate_fuse.stats import Stats
from legate_fuse.window.cut import choose_cut, written_stores
from legate_fuse.window.holding import StoreArg, TaskRecord, Window

from .test_window import FakeStore, FakeTask

KEPT: list[Any] = []  # stands for the program's variables: stores it can still reach


def task(log: list[str], name: str, reads: list[FakeStore], writes: list[FakeStore]
         ) -> TaskRecord:
    args = [StoreArg("add_input", s) for s in reads] + [StoreArg("add_output", s) for s in writes]
    return TaskRecord(task=FakeTask(name, log), stores=reads + writes, args=args)


def iteration_records(log: list[str], state: FakeStore, k: int, length: int
                      ) -> tuple[list[TaskRecord], FakeStore]:
    """One loop iteration: a chain of `length` tasks from `state` to a new state; its
    intermediate values are read by the next task only."""
    records, value = [], state
    for step in range(length):
        produced = FakeStore(f"v{k}.{step}", range(10))
        records.append(task(log, f"{k}.{step}", [value], [produced]))
        value = produced
    return records, value


def unit_weight(_store: Any) -> int:
    return 1


def test_cut_falls_between_iterations_where_only_the_state_crosses() -> None:
    log: list[str] = []
    state = FakeStore("s0", range(10))
    records: list[TaskRecord] = []
    for k in range(3):
        more, state = iteration_records(log, state, k, 5)
        records += more
    # The window filled up in the middle of the fourth iteration, whose values a function's
    # locals still reach.
    more, _ = iteration_records(log, state, 3, 5)
    middle = more[:3]
    KEPT[:] = [r.args[-1].store for r in middle]
    records += middle
    try:
        assert choose_cut(records, earliest=len(records) // 2, weight=unit_weight) == 15
    finally:
        KEPT.clear()


def test_without_a_better_cut_the_whole_window_runs() -> None:
    log: list[str] = []
    records, _ = iteration_records(log, FakeStore("s", range(10)), 0, 8)
    # A chain whose values nothing else reaches: every cut leaves exactly one value crossing,
    # the end none; the latest is taken.
    assert choose_cut(records, earliest=4, weight=unit_weight) == 8


def test_bytes_not_store_counts_decide_between_cuts() -> None:
    log: list[str] = []
    s1, s2 = FakeStore("s1", range(1)), FakeStore("s2", range(1))
    big, c = FakeStore("big", range(100)), FakeStore("c", range(50))
    records = [task(log, "t0", [], [s1]), task(log, "t1", [], [s2]),
               task(log, "t2", [s1, s2], [big]), task(log, "t3", [big], [c])]
    sizes = {"s1": 1, "s2": 1, "big": 100, "c": 50}
    KEPT[:] = [c]  # the program still reaches the last value
    del s1, s2, big, c
    try:
        # After 2 tasks: s1 and s2 cross (2 bytes); after 3: big (100); after 4: c (50).
        assert choose_cut(records, earliest=2, weight=lambda s: sizes[s.root]) == 2
        # Counting stores instead, the cuts after 3 and 4 tie at one store; the later wins.
        assert choose_cut(records, earliest=2, weight=unit_weight) == 4
    finally:
        KEPT.clear()


def test_tasks_without_argument_kinds_count_as_writing_all_they_touch() -> None:
    s = FakeStore("s", range(3))
    assert written_stores(TaskRecord(task=FakeTask("t", []), stores=[s])) == [s]


def test_a_full_window_runs_the_chosen_prefix_and_keeps_the_rest_in_order() -> None:
    log: list[str] = []
    window = Window(capacity=4, stats=Stats(), cut=lambda records: 3)
    for name in "abcd":
        window.hold(task(log, name, [], []))
    assert log == ["a", "b", "c"] and len(window) == 1
    window.hold(task(log, "e", [], []))
    window.flush("read")
    assert log == ["a", "b", "c", "d", "e"] and len(window) == 0
    assert window.stats.flushes == {"window_full": 1, "read": 1}


def test_a_failing_cut_chooser_runs_the_whole_window() -> None:
    log: list[str] = []

    def broken(_records: Any) -> int:
        raise RuntimeError("injected")

    window = Window(capacity=2, stats=Stats(), cut=broken)
    window.hold(task(log, "a", [], []))
    window.hold(task(log, "b", [], []))
    assert log == ["a", "b"] and len(window) == 0

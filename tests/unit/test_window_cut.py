"""Where a full window is cut (analysis/cut.h, through the planner's encoding) and how the
window keeps the rest."""

from __future__ import annotations

from typing import Any

from legate_fuse.capture.task_record import StoreArg, TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.plan.planner import opaque_writes
from legate_fuse.window.holding import Window

from .test_window import FakeStore, FakeTask
from .window_builder import WindowBuilder, region


def chain(w: WindowBuilder, state: str, k: int, length: int, first_root: int) -> list[str]:
    """One loop iteration: a chain of `length` tasks from `state` to a new state; each value is
    read by the next task only. Returns the values written, in order."""
    values, value = [], state
    for step in range(length):
        produced = region(first_root + step)
        w.task((produced, "W"), (value, "R"), op=f"UNARY_OP.STEP{k}")
        values.append(produced)
        value = produced
    return values


def cut(w: WindowBuilder, earliest: int) -> int:
    return w.analyzer.choose_cut(w.descriptions, w.live, w.encoded, earliest)


def test_cut_falls_between_iterations_where_only_the_state_crosses() -> None:
    w = WindowBuilder()
    state = region(0)
    for k in range(3):
        state = chain(w, state, k, 5, 1 + 5 * k)[-1]
    # The window filled up in the middle of the fourth iteration, whose values a function's
    # locals still reach, as the loop's variable still reaches its state.
    middle = chain(w, state, 3, 3, 16)
    w.keep_alive(state, *middle)
    assert cut(w, earliest=18 // 2) == 15


def test_without_a_better_cut_the_whole_window_runs() -> None:
    w = WindowBuilder()
    chain(w, region(0), 0, 8, 1)
    # A chain whose values nothing else reaches: every cut leaves exactly one value crossing,
    # the end none; the latest is taken.
    assert cut(w, earliest=4) == 8


def test_a_loop_is_cut_a_whole_number_of_iterations_in() -> None:
    """Three iterations of a loop of four steps, and two steps of the fourth: every cut leaves
    one value crossing. The latest whole number of iterations wins over the latest task, so
    that the next window starts at the loop's first step again."""
    w = WindowBuilder()
    value, root = region(0), 1
    for _ in range(3):
        for step in range(4):
            produced = region(root)
            w.task((produced, "W"), (value, "R"), op=f"UNARY_OP.STEP{step}")
            value, root = produced, root + 1
    for step in range(2):
        produced = region(root)
        w.task((produced, "W"), (value, "R"), op=f"UNARY_OP.STEP{step}")
        value, root = produced, root + 1
    w.keep_alive(value)  # (the loop's variable: the whole window costs one value too)
    assert cut(w, earliest=7) == 12  # (the latest such: not 8)
    assert cut(w, earliest=13) == 14  # (none from the earliest on)


def test_a_loop_is_not_cut_inside_an_iteration_where_more_crosses() -> None:
    """The window starts at a loop's last step, and a whole number of iterations in falls
    right after the step that writes a value ten times larger than the others: the cheaper
    cut is taken, and the next window starts where iterations do."""
    w = WindowBuilder()
    value = region(0, (1000,))  # (the last iteration's step 2 wrote it)
    for task in range(14):
        step = (3 + task) % 4
        produced = region(task + 1, (1000,) if step == 2 else (100,))
        w.task((produced, "W"), (value, "R"), op=f"UNARY_OP.STEP{step}")
        value = produced
    w.keep_alive(value)
    assert cut(w, earliest=7) == 14


def test_a_window_that_is_no_loop_is_cut_at_its_latest_cheapest_task() -> None:
    """Steps of one shape, every fourth reading a constant too, but one of other operations:
    no loop, whatever the shapes of the steps' arguments."""
    w = WindowBuilder()
    value, constant = region(0), region(99)
    for task, step in enumerate((0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 9, 3, 0, 1)):
        produced = region(task + 1)
        reads = ((value, "R"), (constant, "R")) if step == 1 else ((value, "R"),)
        w.task((produced, "W"), *reads, op=f"UNARY_OP.STEP{step}")
        value = produced
    w.keep_alive(value, constant)
    assert cut(w, earliest=7) == 14


def test_bytes_decide_between_cuts() -> None:
    s1, s2 = region(1, (1,)), region(2, (1,))
    big, c = region(3, (100,)), region(4, (50,))
    w = WindowBuilder()
    w.task((s1, "W"), op="FILL")
    w.task((s2, "W"), op="FILL")
    w.task((big, "W"), (s1, "R"), (s2, "R"), op="BINARY_OP.ADD")
    w.task((c, "W"), (big, "R"), op="UNARY_OP.EXP")
    w.keep_alive(c)  # the program still reaches the last value
    # After 2 tasks: s1 and s2 cross (16 bytes); after 3: big (800); after 4: c (400).
    assert cut(w, earliest=2) == 2


def test_a_value_the_program_reaches_crosses_every_later_cut() -> None:
    a, big, c = region(1, (1,)), region(2, (100,)), region(3, (1,))
    w = WindowBuilder()
    w.task((a, "W"), op="FILL")
    w.task((big, "W"), (a, "R"), op="UNARY_OP.EXP")
    w.task((c, "W"), (big, "R"), op="UNARY_OP.EXP")
    # Unreachable, `big` crosses only the cut after 2 tasks: running all 3 leaves nothing.
    assert cut(w, earliest=1) == 3
    # Reachable, it must be allocated after any cut past its write: the cut after 1 task is
    # the one that leaves only `a` (8 bytes) to allocate.
    w.keep_alive(big)
    assert cut(w, earliest=1) == 1


def test_tasks_without_argument_kinds_count_as_writing_all_they_touch() -> None:
    s, t = FakeStore("s", range(3)), FakeStore("t", range(3))
    assert opaque_writes(TaskRecord(task=FakeTask("t", []), stores=[s])) is None
    record = TaskRecord(task=FakeTask("t", []), stores=[s, t],
                        args=[StoreArg("add_input", s), StoreArg("add_output", t)])
    assert opaque_writes(record) == {id(t)}


def task(log: list[str], name: str) -> TaskRecord:
    return TaskRecord(task=FakeTask(name, log))


def test_a_full_window_runs_the_chosen_prefix_and_keeps_the_rest_in_order() -> None:
    log: list[str] = []
    window = Window(capacity=4, stats=Stats(), cut=lambda records: 3)
    for name in "abcd":
        window.hold(task(log, name))
    assert log == ["a", "b", "c"] and len(window) == 1
    window.hold(task(log, "e"))
    window.flush("read")
    assert log == ["a", "b", "c", "d", "e"] and len(window) == 0
    assert window.stats.flushes == {"window_full": 1, "read": 1}


def test_a_failing_cut_chooser_runs_the_whole_window() -> None:
    log: list[str] = []

    def broken(_records: Any) -> int:
        raise RuntimeError("injected")

    window = Window(capacity=2, stats=Stats(), cut=broken)
    window.hold(task(log, "a"))
    window.hold(task(log, "b"))
    assert log == ["a", "b"] and len(window) == 0

"""The rules of window/repeated_reductions.py on stand-ins for Legate's stores and the plugin's
records: which tasks are remembered after a window, which later task takes a value, and what
forgets one."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from legate_fuse.capture.task_record import StoreArg, TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.window.repeated_reductions import RepeatedReductions, repeatable

DOT = ("cupynumeric", 16)


_IDS = itertools.count()


@dataclass(eq=False)
class Store:
    """A store over the storage `root`, described by an id of its own (as Legate's are)."""

    root: str
    ndim: int = 1
    id: int = field(default_factory=lambda: next(_IDS))

    def __str__(self) -> str:
        return f"Store({self.id}) over {self.root}"

    def overlaps(self, other: Store) -> bool:
        return self.root == other.root

    def equal_storage(self, other: Store) -> bool:
        return self.root == other.root


def task(target: Store, *inputs: Store, kind: tuple[str, int] = DOT, shape: Any = "dot",
         lazy: bool = True, writes: Sequence[Store] = ()) -> TaskRecord:
    """A recorded task reducing `inputs` into `target` (or writing `writes`)."""
    args = [*(StoreArg("add_reduction", target, 0) for _ in [target] if not writes),
            *(StoreArg("add_input", store) for store in inputs),
            *(StoreArg("add_output", store) for store in writes)]
    return TaskRecord(task=None, stores=tuple(arg.store for arg in args),  # type: ignore[arg-type]
                      library_name=kind[0], task_id=kind[1], args=tuple(args),
                      shape=(shape,), lazy=lazy)


class Program:
    """The rules with every store visible to no one else, on one point."""

    def __init__(self) -> None:
        self.exported: set[str] = set()
        self.one_point = True
        self.stats = Stats()
        self.fills: list[tuple[Store, Store]] = []
        self.warnings: list[str] = []
        self.reductions = RepeatedReductions(
            self.stats, lambda store: store.root in self.exported,
            lambda target, value: self.fills.append((target, value)), self.warnings.append,
            lambda store: store.root, lambda: self.one_point,
            fill_key=lambda value: ("float64", bytes([value])))

    def reduction(self, target: Store, *inputs: Store, fill: int = 0, **how: Any) -> TaskRecord:
        """Fills `target`, then records the task: `value`, the store whose value it took, if
        a remembered task's (its target then filled with it, and the task counted)."""
        self.reductions.filled([target], fill)
        record = task(target, *inputs, **how)
        fills, reused = len(self.fills), self.stats.tasks_reused
        taken = self.reductions.takes_value(record)
        assert len(self.fills) == fills + taken
        assert self.stats.tasks_reused == reused + taken
        self.value = self.fills[-1][1] if taken else None
        assert not taken or self.fills[-1][0] is target
        return record

    def ran(self, records: Sequence[TaskRecord], held_back: Sequence[TaskRecord] = (),
            fused: Sequence[int] = (), written: Sequence[Store] = ()) -> None:
        self.reductions.window_ran(records, held_back, fused, written)


def remembered_dot() -> tuple[Program, Store, Store]:
    program = Program()
    r, norm = Store("r"), Store("norm", 0)
    program.ran([program.reduction(norm, r, r)])
    return program, r, norm


def test_a_dot_product_over_the_same_unchanged_array_takes_the_value() -> None:
    program, r, norm = remembered_dot()
    program.reduction(Store("rho", 0), r, r)
    assert program.value is norm


def test_another_task_or_call_shape_does_not() -> None:
    program, r, _ = remembered_dot()
    program.reduction(Store("a", 0), r, r, kind=("cupynumeric", 46))
    assert program.value is None
    program.reduction(Store("b", 0), r, r, shape="a sum")  # (the same task, another op code)
    assert program.value is None


def test_other_arrays_do_not() -> None:
    program, r, _ = remembered_dot()
    program.reduction(Store("a", 0), r, Store("s"))
    assert program.value is None
    program.reduction(Store("b", 0), Store("r"), Store("r"))  # another store over r: not known
    assert program.value is None


def test_a_target_filled_with_another_value_does_not() -> None:
    program, r, _ = remembered_dot()
    program.reduction(Store("rho", 0), r, r, fill=1)
    assert program.value is None


def test_a_target_written_between_its_fill_and_the_task_does_not() -> None:
    program, r, _ = remembered_dot()
    rho = Store("rho", 0)
    program.reductions.filled([rho], 0)
    program.reductions.recorded(task(Store("t"), r, writes=[rho]))
    assert program.reductions.value_for(task(rho, r, r)) is None


FORGETTING: dict[str, Callable[[RepeatedReductions, Store], None]] = {
    "a task writing the array": lambda reductions, r: reductions.recorded(
        task(Store("x"), r, writes=[Store("r")])),
    "a write of the value (an export of it, say)": lambda reductions, r: reductions.written(
        [Store("norm", 0)]),
    "what the plugin does not follow": lambda reductions, r: reductions.clear(),
    "a task whose writes are not known": lambda reductions, r: reductions.recorded(
        task(Store("x"), r, writes=[Store("q")], lazy=False)),
    "the next window": lambda reductions, r: reductions.window_ran(
        [task(Store("y"), r, writes=[Store("y")])], (), (), ()),
}


@pytest.mark.parametrize("event", sorted(FORGETTING))
def test_what_forgets_the_value(event: str) -> None:
    program, r, _ = remembered_dot()
    FORGETTING[event](program.reductions, r)
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None


def test_a_write_of_other_arrays_does_not_forget_it() -> None:
    program, r, norm = remembered_dot()
    program.reductions.recorded(task(Store("x"), r, writes=[Store("q")]))
    program.reduction(Store("rho", 0), r, r)
    assert program.value is norm


def test_an_array_the_program_can_write_without_a_task() -> None:
    program, r, norm = remembered_dot()
    program.exported.add("r")  # (a NumPy view of it alive)
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None
    program.exported.clear()
    program.reduction(Store("rho2", 0), r, r)
    assert program.value is norm  # (nothing wrote it meanwhile)
    fresh = Program()
    fresh.exported.add("r")
    fresh.ran([fresh.reduction(Store("n", 0), r, r)])
    fresh.exported.clear()
    fresh.reduction(Store("rho", 0), r, r)
    assert fresh.value is None  # (not remembered)


def test_nothing_is_remembered_on_more_than_one_point() -> None:
    program = Program()
    program.one_point = False
    r = Store("r")
    program.ran([program.reduction(Store("n", 0), r, r)])
    program.one_point = True
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None


def test_a_write_after_the_task_in_its_window_or_held_back() -> None:
    for later, held_back in (([Store("r")], []), ([], [Store("r")]), ([Store("n", 0)], [])):
        program = Program()
        r, n = Store("r"), Store("n", 0)
        dot = program.reduction(n, r, r)
        after = [task(Store("x"), r, writes=later)] if later else []
        kept = [task(Store("x"), r, writes=held_back)] if held_back else []
        program.ran([dot, *after], held_back=kept)
        program.reduction(Store("rho", 0), r, r)
        assert program.value is None, (later, held_back)


def test_a_task_whose_writes_are_not_known_after_it_in_its_window() -> None:
    program = Program()
    r = Store("r")
    dot = program.reduction(Store("n", 0), r, r)
    program.ran([dot, task(Store("x"), r, writes=[Store("q")], lazy=False)])
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None


def test_a_fused_task_is_remembered_only_if_its_launch_wrote_the_target() -> None:
    for written, remembered in (([], False), ([Store("n", 0)], True)):
        program = Program()
        r, n = Store("r"), Store("n", 0)
        program.ran([program.reduction(n, r, r)], fused=[0], written=written)
        program.reduction(Store("rho", 0), r, r)
        assert (program.value is n) is remembered


def test_a_target_not_filled_right_before_its_task_is_not_remembered() -> None:
    program = Program()
    r, n = Store("r"), Store("n", 0)
    program.reductions.filled([n], 0)
    program.reductions.recorded(task(Store("x"), r, writes=[Store("q")]))
    dot = task(n, r, r)
    program.reductions.recorded(dot)
    program.ran([dot])
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None


def test_what_is_repeatable() -> None:
    r = Store("r")
    assert repeatable(task(Store("n", 0), r, r)) is not None
    assert repeatable(task(Store("n", 0), r, r, lazy=False)) is None
    assert repeatable(task(Store("n"), r, r)) is None  # (into an array, not one value)
    assert repeatable(task(Store("x"), r, writes=[Store("y")])) is None
    assert repeatable(task(Store("n", 0))) is None  # (nothing read)


def test_a_task_kept_held_whose_writes_are_not_known() -> None:
    program = Program()
    r = Store("r")
    dot = program.reduction(Store("n", 0), r, r)
    program.ran([dot], held_back=[task(Store("x"), r, writes=[Store("q")], lazy=False)])
    program.reduction(Store("rho", 0), r, r)
    assert program.value is None


def test_the_last_fill_must_be_the_targets_own() -> None:
    program, r, _ = remembered_dot()
    program.reductions.filled([Store("other", 0)], 0)
    assert program.reductions.value_for(task(Store("rho", 0), r, r)) is None


def test_a_failure_inside_forgets_every_value_and_warns() -> None:
    program, r, _ = remembered_dot()

    def failing(target: Store, value: Store) -> None:
        raise RuntimeError("no fill")

    program.reductions._fill = failing
    rho = Store("rho", 0)
    program.reductions.filled([rho], 0)
    assert not program.reductions.takes_value(task(rho, r, r))
    assert program.stats.tasks_reused == 0
    assert len(program.warnings) == 1 and "no fill" in program.warnings[0]
    program.reductions._fill = lambda target, value: None
    program.reduction(Store("rho2", 0), r, r)
    assert program.value is None  # (forgotten)

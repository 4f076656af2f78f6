"""Lazy task creation: a task the lifting may fuse is recorded and built only if it runs unfused;
a call not understood builds it at once; a change of Legate's scope runs what is held first."""

from __future__ import annotations

import gc
from typing import Any

import cupynumeric as num
import numpy
import pytest
from cupynumeric.config import CuPyNumericOpCode
from legate.core import Scope, get_legate_runtime

import legate_fuse
from legate_fuse.capture.build_task import BuildAndExecute
from legate_fuse.capture.call_sites import CallSites
from legate_fuse.capture.lazy_task import LazyAutoTask
from legate_fuse.capture.pending import PendingVariable
from legate_fuse.session import Session
from legate_fuse.unfused import NOT_LIFTED_CALL

from .tasks_by_hand import add_task


def counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the real AutoTasks built from held lazy records, to run unfused."""
    built: list[int] = []
    original = BuildAndExecute.execute

    def execute(self: BuildAndExecute) -> None:
        record = self.record() if self.record is not None else None
        if record is not None:
            built.append(record.task_id)
        original(self)

    monkeypatch.setattr(BuildAndExecute, "execute", execute)
    return built


def test_fused_tasks_are_never_built(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    a = num.array(numpy.linspace(0.0, 1.0, 100))
    legate_fuse.flush()
    built = counting_builds(monkeypatch)
    fused = session.stats.tasks_fused
    result = numpy.asarray((a * 2.0 + 1.0) * a)
    assert session.stats.tasks_fused > fused
    assert built == []
    values = numpy.linspace(0.0, 1.0, 100)
    numpy.testing.assert_array_equal(result, (values * 2.0 + 1.0) * values)


def test_a_held_task_that_runs_unfused_is_built_then(session: Session,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    a = num.array(numpy.linspace(0.0, 1.0, 100))
    legate_fuse.flush()
    built = counting_builds(monkeypatch)
    b = a + 1.0  # one lifted task alone in its window: runs as built
    result = numpy.asarray(b)
    assert built == [int(CuPyNumericOpCode.BINARY_OP)]
    numpy.testing.assert_array_equal(result, numpy.linspace(0.0, 1.0, 100) + 1.0)


def binary_add(out: num.ndarray, lhs: num.ndarray, rhs: num.ndarray) -> Any:
    """A BINARY_OP task built as cuPyNumeric builds one, through the runtime proxy."""
    return add_task(get_legate_runtime(), out, lhs, rhs)


def test_align_over_a_lazy_task_is_recorded(session: Session) -> None:
    a = num.array(numpy.arange(10.0))
    out = num.zeros(10)
    task = binary_add(out, a, a)
    assert isinstance(task, LazyAutoTask)
    # Kept as plain values, each variable by its argument (no object for the cyclic garbage
    # collector to follow while the window holds the record).
    assert [call[1] for call in task.record.calls if call[0] == "add_constraint"] == [
        ("align", ("argument", 0), ("argument", 1)), ("align", ("argument", 0), ("argument", 2))]
    task.execute()
    # Held, the record is no work for the collector once it has passed over it a few times.
    record = task.record
    for _ in range(3):  # (a pass untracks a tuple once the tuples it holds are)
        gc.collect()
    assert not any(gc.is_tracked(part) for part in (record.stores, record.calls, record.shape,
                                                    *record.calls, *record.shape))
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


def test_a_call_not_understood_builds_the_task_at_once(session: Session) -> None:
    a = num.array(numpy.arange(10.0))
    out = num.zeros(10)
    legate_fuse.flush()
    task = binary_add(out, a, a)
    task.set_side_effect(True)  # not a call a lifted task is built with
    task.execute()
    assert len(session.window) == 0  # a side effect: run at once, after what was held
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


@pytest.mark.parametrize("argument", ["unbound output", "array input"])
def test_store_arguments_the_lifting_does_not_take_build_the_task(
        session: Session, argument: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from legate.core import types as ty

    # Not learned: the other case of this line must be recorded too.
    monkeypatch.setattr(session, "call_sites", CallSites(session.stats, enabled=False))
    runtime = get_legate_runtime()
    a = num.array(numpy.arange(10.0))
    task = runtime.create_auto_task(a._thunk.library, CuPyNumericOpCode.BINARY_OP)
    assert type(task) is LazyAutoTask
    task.add_input(a._thunk.base)
    if argument == "unbound output":  # its shape is not known before the task runs
        variable = task.add_output(runtime.create_store(ty.float64, ndim=1))
    else:  # a LogicalArray, not a LogicalStore
        variable = task.add_input(runtime.create_array(ty.float64, shape=(10,)))
    assert type(variable) is not PendingVariable  # Legate's own: the task is built
    assert len(task.record.args) == 1  # only the input before it was recorded


def test_a_second_submission_is_an_error(session: Session) -> None:
    a = num.array(numpy.arange(10.0))
    out = num.zeros(10)
    task = binary_add(out, a, a)
    task.execute()
    with pytest.raises(RuntimeError):
        task.execute()
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


def test_entering_and_leaving_a_scope_runs_what_is_held(session: Session) -> None:
    a = num.array(numpy.linspace(0.0, 1.0, 100))
    legate_fuse.flush()
    b = a * 3.0
    assert len(session.window) > 0
    with Scope(priority=1):
        assert len(session.window) == 0  # held under the outer scope: ran before entering
        c = b + 1.0
        assert len(session.window) > 0
    assert len(session.window) == 0  # created in the inner scope: ran before leaving
    numpy.testing.assert_array_equal(numpy.asarray(c), numpy.linspace(0.0, 1.0, 100) * 3 + 1)


def test_a_provenance_scope_keeps_the_window(session: Session) -> None:
    a = num.array(numpy.linspace(0.0, 1.0, 100))
    legate_fuse.flush()
    b = a * 3.0
    held = len(session.window)
    with Scope(provenance="a label"):
        assert len(session.window) == held
    del b


def test_a_task_built_at_once_runs_after_the_tasks_submitted_before_it(
        session: Session) -> None:
    # Built (by a call a lazy task does not understand) while nothing is held; a task writing
    # its input is submitted before it: it must run first.
    a = num.array(numpy.arange(10.0))
    out = num.zeros(10)
    legate_fuse.flush()
    task = binary_add(out, a, a)
    task.set_side_effect(False)
    a += 1.0
    assert len(session.window) == 1
    task.execute()
    assert len(session.window) == 0
    numpy.testing.assert_array_equal(numpy.asarray(out), (numpy.arange(10.0) + 1.0) * 2)


def test_a_task_built_at_once_is_never_held(session: Session) -> None:
    a = num.array(numpy.linspace(-1.0, 1.0, 100))
    legate_fuse.flush()
    b = a * a
    assert len(session.window) == 1
    c = num.cumsum(b)  # built at once: what is held runs first, then the scan, at once
    assert len(session.window) == 0
    values = numpy.linspace(-1.0, 1.0, 100)
    numpy.testing.assert_array_equal(numpy.asarray(c), numpy.cumsum(values * values))


def test_a_task_that_cannot_be_lifted_is_built_as_soon_as_that_is_known(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    # isclose's tolerances are scalar arguments after its operation code, which no lifted
    # binary operation takes: it is built at its second scalar, as cuPyNumeric builds it, not
    # replayed at the flush.
    a = num.array(numpy.linspace(-1.0, 1.0, 100))
    legate_fuse.flush()
    key = ("cupynumeric", int(CuPyNumericOpCode.BINARY_OP), NOT_LIFTED_CALL)
    before = session.stats.unfused[key]
    result = numpy.asarray(num.isclose(a, a * 1.0000001) * 2.0)
    assert session.stats.unfused[key] - before == 1  # the isclose
    numpy.testing.assert_array_equal(
        result, numpy.isclose(numpy.linspace(-1.0, 1.0, 100),
                              numpy.linspace(-1.0, 1.0, 100) * 1.0000001) * 2.0)


def test_a_reduction_legate_does_not_define_raises_in_its_statement(session: Session) -> None:
    """Legate defines no product reduction of complex numbers: num.prod raises its ValueError
    in the statement, as without the plugin, not later where the window runs."""
    values = numpy.linspace(-1.0, 1.0, 100) + 0.5j
    a = num.array(values)
    legate_fuse.flush()
    b = a * a
    with pytest.raises(ValueError):
        num.prod(b)
    numpy.testing.assert_allclose(numpy.asarray(b + 0), values * values, rtol=1e-15)


def test_a_lazy_task_is_freed_without_the_garbage_collector(session: Session) -> None:
    # No reference cycle through a lazy task, its record or its variables: the cyclic garbage
    # collector may run on any thread, and a LogicalStore freed on a thread Legate does not know
    # crashes the process.
    import gc
    import weakref

    a = num.array(numpy.arange(10.0))
    out = num.zeros(10)
    legate_fuse.flush()
    gc.disable()
    try:
        task = binary_add(out, a, a)
        record = weakref.ref(task.record)
        task.execute()
        del task
        legate_fuse.flush()
        assert record() is None
    finally:
        gc.enable()
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


def test_a_program_leaves_no_cycles_of_the_plugin_or_legate(session: Session) -> None:
    import gc

    def work() -> float:
        a, b = num.linspace(0.0, 1.0, 100), num.linspace(1.0, 2.0, 100)
        c = num.sqrt((a * 2.0 + b) ** 2) - a / 4.0  # fused
        d = num.cumsum(num.clip(c, 0.1, 0.5))  # unfused, a lazy writer read by a scan
        e = (d[1:] - d[:-1]) * 0.5  # views
        return float(num.dot(e, e)) + float(c.sum())

    work()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work()
        legate_fuse.flush()
        gc.collect()
        ours = [o for o in gc.garbage
                if type(o).__module__.startswith(("legate_fuse", "legate."))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert ours == []


def test_a_putmask_run_alone_is_built_with_its_inputs_partition(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """putmask writes the array it reads, passing the input's partition variable to
    add_output: recorded as such, and replayed with the real variable when it runs alone."""
    values = numpy.linspace(-1.0, 1.0, 100)
    a = num.array(values)
    mask = num.array(values > 0.25)
    legate_fuse.flush()
    built = counting_builds(monkeypatch)
    num.putmask(a, mask, 7.0)
    result = numpy.asarray(a)  # the window: the putmask alone
    assert int(CuPyNumericOpCode.PUTMASK) in built
    expected = values.copy()
    numpy.putmask(expected, values > 0.25, 7.0)
    numpy.testing.assert_array_equal(result, expected)

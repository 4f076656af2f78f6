"""One test per flush point. Each first proves a task is held (the window is not empty), then
reads through the flush point: without the flush the read would see stale data (or abort on a
held Future), so the value checks fail if the flush point is missed."""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session


def held_update(session: Session, size: int = 64) -> Any:
    """An array whose latest value (all 3.0) is produced by a task still held in the window."""
    a = cn.ones(size)
    legate_fuse.flush()
    a += 2.0
    assert len(session.window) == 1
    return a


def flushes(session: Session, reason: str) -> int:
    return session.stats.flushes[reason]


READS: dict[str, Callable[[Any], Any]] = {
    "asarray": lambda a: numpy.asarray(a),
    "array_method": lambda a: a.__array__(),
    "tolist": lambda a: numpy.array(a.tolist()),
    "item": lambda a: numpy.full(64, a[5].item()),
    "float": lambda a: numpy.full(64, float(a[7])),
    "int": lambda a: numpy.full(64, float(int(a[7]))),
    "index": lambda a: numpy.full(64, float([0, 1, 2, 3][a[3].astype(cn.int64)])),
    "str": lambda a: numpy.fromstring(str(a)[1:-1], sep=" "),
    "pickle": lambda a: numpy.asarray(pickle.loads(pickle.dumps(a))),
    "tobytes": lambda a: numpy.frombuffer(a.tobytes(), dtype=numpy.float64),
    "dlpack": lambda a: numpy.from_dlpack(a).copy(),  # of 65 elements, see below
}


@pytest.mark.parametrize("how", sorted(READS))
def test_reading_back_to_python_flushes(session: Session, how: str) -> None:
    # A DLPack consumer cannot be seen: the storage it exported stays external while any array
    # over it lives, and Legate gives the storage of a dead array to the next one of its shape,
    # which would then run at once. Its own shape keeps it from the other tests' arrays.
    a = held_update(session, 65 if how == "dlpack" else 64)
    before = sum(session.stats.flushes.values())
    values = READS[how](a)
    assert len(session.window) == 0
    # At least one: a read may also create a task built at once (cuPyNumeric copies some
    # element reads), which runs what is held first.
    assert sum(session.stats.flushes.values()) >= before + 1
    numpy.testing.assert_array_equal(values, numpy.full(len(a), 3.0))


def test_tofile_flushes(session: Session, tmp_path: Any) -> None:
    a = held_update(session)
    a.tofile(tmp_path / "a.bin")
    numpy.testing.assert_array_equal(numpy.fromfile(tmp_path / "a.bin"), numpy.full(64, 3.0))


def test_if_on_an_array_value_flushes(session: Session) -> None:
    a = held_update(session)
    before = flushes(session, "read")
    taken = bool(a[0] > 2.5)
    assert taken
    assert flushes(session, "read") == before + 1


def test_printing_flushes(session: Session, capsys: pytest.CaptureFixture[str]) -> None:
    a = held_update(session)
    print(a[:3])
    assert capsys.readouterr().out.strip() == "[3. 3. 3.]"


def test_legate_data_interface_flushes(session: Session) -> None:
    from legate.core import get_legate_runtime

    a = held_update(session)
    interface = a.__legate_data_interface__
    assert len(session.window) == 0
    (array,) = interface["data"].values()
    get_legate_runtime().issue_execution_fence(block=True)
    values = numpy.asarray(array.data.get_physical_store().get_inline_allocation())
    numpy.testing.assert_array_equal(values, numpy.full(64, 3.0))


def test_legate_timing_flushes(session: Session) -> None:
    from legate.timing import time

    held_update(session)
    before = flushes(session, "timing")
    time()
    assert len(session.window) == 0
    assert flushes(session, "timing") == before + 1


def test_fill_of_a_held_store_flushes_first(session: Session) -> None:
    b = cn.arange(64.0)
    a = b * 2.0  # a new store (Window.created), then the held task that writes it
    assert len(session.window) >= 1
    before = flushes(session, "issue_fill")
    a.fill(5.0)  # without the flush the held multiply would overwrite the fill
    assert flushes(session, "issue_fill") == before + 1
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full(64, 5.0))


def test_the_fill_of_a_new_store_asks_no_task_held_before_it(session: Session,
                                                              monkeypatch: Any) -> None:
    """cuPyNumeric zeroes a product's new result (and every `zeros`): the held tasks, made
    before the store, cannot touch it and are not asked, however many there are."""
    a = cn.arange(64.0)
    legate_fuse.flush()
    for _ in range(5):
        a = a * 2.0 + 1.0
    held = len(session.window)
    asked: list[int] = []
    touches = session.window.touches

    def counted(stores: Any, since: int = 0) -> bool:
        asked.append(len(session.window.tasks[since:]) if stores else 0)
        return touches(stores, since)

    monkeypatch.setattr(session.window, "touches", counted)
    z = cn.zeros(64)
    assert len(session.window) == held >= 10 and asked and not any(asked)
    numpy.testing.assert_array_equal(numpy.asarray(z + a), numpy.asarray(a))


def test_reduction_fill_does_not_cut_the_window(session: Session) -> None:
    a, b = cn.arange(100.0), cn.ones(100)
    legate_fuse.flush()
    before = dict(session.stats.flushes)
    total = cn.sum(a * b)
    dotted = cn.dot(a, b)
    # multiply, sum, dot held in one window; the fills of the fresh targets ran at once.
    assert len(session.window) >= 3
    assert dict(session.stats.flushes) == before
    assert float(total) == 4950.0
    assert float(dotted) == 4950.0


def test_a_stencil_hint_does_not_cut_the_window(session: Session) -> None:
    # cuPyNumeric's stencil_hint (Legate's prefetch_bloated_instances) changes no contents:
    # the tasks held before it stay held, and fuse with those after it.
    grid = cn.arange(100.0)
    legate_fuse.flush()
    grid *= 2.0
    grid.stencil_hint((1,), (1,))
    assert len(session.window) == 1
    interior = grid[:-2] + grid[2:]
    assert len(session.window) == 2
    numpy.testing.assert_array_equal(numpy.asarray(interior),
                                     numpy.arange(100.0)[:-2] * 2 + numpy.arange(100.0)[2:] * 2)


def test_manual_task_flushes(session: Session) -> None:
    m = cn.array(numpy.eye(4) * 2.0)
    rhs = cn.ones(4) * 4.0
    assert len(session.window) >= 1
    before = flushes(session, "manual_task")
    x = cn.linalg.solve(m, rhs)
    assert flushes(session, "manual_task") > before
    numpy.testing.assert_array_equal(numpy.asarray(x), numpy.full(4, 2.0))


def test_fence_flushes(session: Session) -> None:
    from legate.core import get_legate_runtime

    held_update(session)
    get_legate_runtime().issue_execution_fence()
    assert len(session.window) == 0
    assert session.stats.flushes["fence"] >= 1


def test_unknown_size_output_flushes_and_runs_at_once(session: Session) -> None:
    a = held_update(session)
    before = sum(session.stats.flushes.values())
    picked = a[a > 2.5]
    assert len(session.window) == 0
    assert sum(session.stats.flushes.values()) == before + 1
    assert picked.shape == (64,)


def test_task_that_throws_runs_at_once_and_raises(session: Session) -> None:
    a = held_update(session)
    with pytest.raises(IndexError):
        a[cn.array([0, 1000])]  # bounds-checked gather: its task throws
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full(64, 3.0))


def test_window_size_bound_flushes(session: Session) -> None:
    session.window.capacity = 3
    a = cn.zeros(16)
    legate_fuse.flush()
    before = flushes(session, "window_full")
    for _ in range(6):
        a += 1.0
    assert flushes(session, "window_full") == before + 2
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full(16, 6.0))


def test_explicit_flush(session: Session) -> None:
    held_update(session)
    before = flushes(session, "user")
    legate_fuse.flush()
    assert len(session.window) == 0
    assert flushes(session, "user") == before + 1


def test_disable_runs_held_tasks_and_stops_holding(session: Session) -> None:
    a = held_update(session)
    legate_fuse.disable()
    assert len(session.window) == 0 and not legate_fuse.is_enabled()
    a += 1.0
    assert len(session.window) == 0
    legate_fuse.enable()
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full(64, 4.0))


def test_stats_count_tasks_seen(session: Session) -> None:
    before = legate_fuse.stats()["tasks_seen"]
    a = cn.ones(8)
    a = a * 2 + 1
    assert legate_fuse.stats()["tasks_seen"] >= before + 3
    assert float(a[0]) == 3.0


def test_captured_stdout_is_not_a_flush_point(session: Session) -> None:
    # Control for the read tests: building a string without touching array data holds on.
    held_update(session)
    io.StringIO().write("no array read here")
    assert len(session.window) == 1

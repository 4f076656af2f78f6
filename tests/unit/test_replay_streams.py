"""Streams of held tasks read from their records, and their encodings remembered
(plan/replay.py), without Legate: records of plain objects standing for stores."""

from __future__ import annotations

from typing import Any

from legate_fuse import _core
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.plan.replay import Encoding, Encodings, read_stream


def record(task_id: int, *stores: Any, scalar: Any = 1) -> TaskRecord:
    shape = [("add_input", -1, "float64", True) for _ in stores]
    shape.append(("add_scalar_arg", (type(scalar), scalar)))
    return TaskRecord(task=None, stores=list(stores), library_name="lib",  # type: ignore[arg-type]
                      task_id=task_id, lazy=True, shape=shape)


def encoding(label: str, stores: int) -> Encoding:
    return Encoding(_core.TaskEncoding([], stores), (label,), (True,), (0,) * stores)


def test_windows_of_two_alternating_streams_each_find_their_own() -> None:
    encodings = Encodings()
    a, b, c = object(), object(), object()
    first, second = [record(1, a, b)], [record(1, a, a)]  # the same task, other stores
    encodings.remember(read_stream(first), encoding("first", 2))
    encodings.remember(read_stream(second), encoding("second", 1))
    for _ in range(3):
        found = encodings.get(read_stream([record(1, b, c)]))
        assert found is not None and found.labels == ("first",)
        found = encodings.get(read_stream([record(1, c, c)]))
        assert found is not None and found.labels == ("second",)
    assert encodings.get(read_stream([record(2, a, b)])) is None  # another task
    assert encodings.get(read_stream([record(1, a, b, scalar=2)])) is None  # another scalar


def test_an_unhashable_stream_is_never_remembered() -> None:
    encodings = Encodings()
    a = object()
    stream = read_stream([record(1, a, scalar=[1])])
    assert encodings.get(stream) is None and stream.key is None
    encodings.remember(stream, encoding("unhashable", 1))
    assert len(encodings) == 0


def test_forgotten_streams_include_the_last() -> None:
    encodings = Encodings()
    a = object()
    encodings.remember(read_stream([record(1, a)]), encoding("one", 1))
    encodings.clear()
    assert encodings.get(read_stream([record(1, a)])) is None

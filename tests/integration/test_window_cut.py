"""A full window runs only its first tasks; those that stay held run later and may read what
the first ones write, through store objects of their own (views Legate made for them)."""

from __future__ import annotations

from collections.abc import Sequence

import cupynumeric as num
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session
from legate_fuse.window.holding import TaskRecord


def test_a_result_read_only_by_a_task_held_back_is_computed(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    x = num.arange(12, dtype=numpy.float64).reshape(3, 4) * 1.0
    legate_fuse.flush()

    def run_the_first_two(records: Sequence[TaskRecord]) -> int:
        return 2

    monkeypatch.setattr(session.window, "cut", run_the_first_two)
    session.window.capacity = 4
    shifted = x + 1.0  # task 1
    total = shifted.sum()  # task 2: a Future only the next task reads, through its own view
    centred = x - total.reshape((1, 1))  # task 3
    del total, shifted
    z = x * 2.0  # task 4: the window is full and runs tasks 1 and 2, which fuse
    legate_fuse.flush()
    expected = numpy.arange(12.0).reshape(3, 4)
    numpy.testing.assert_array_equal(numpy.asarray(centred), expected - (expected + 1).sum())
    numpy.testing.assert_array_equal(numpy.asarray(z), expected * 2.0)

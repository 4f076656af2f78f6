"""A full window runs only its first tasks; those that stay held run later and may read what
the first ones write, through store objects of their own (views Legate made for them)."""

from __future__ import annotations

from collections.abc import Sequence

import cupynumeric as num
import numpy
import pytest

import legate_fuse
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.session import Session


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


def count_encodings(session: Session, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    planner = session.planner()
    calls = [0]
    encode = planner.encode

    def counted(records: Sequence[TaskRecord], prefix: int | None = None) -> object:
        calls[0] += 1
        return encode(records, prefix)

    monkeypatch.setattr(planner, "encode", counted)
    return calls


def test_a_full_window_is_encoded_once_for_its_cut_and_its_plan(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    x = num.arange(16, dtype=numpy.float64) * 1.0
    legate_fuse.flush()
    calls = count_encodings(session, monkeypatch)
    session.window.capacity = 4
    y = x + 1.0
    y = y * 2.0
    y = y - 3.0
    y = y / 4.0  # the window is full: one encoding chooses the cut and plans the first part
    assert calls[0] == 1
    assert session.planner()._cut_window is None  # no reference to the window's stores kept
    legate_fuse.flush()
    numpy.testing.assert_array_equal(numpy.asarray(y), ((numpy.arange(16.0) + 1) * 2 - 3) / 4)


def test_an_encoding_made_for_other_records_is_not_reused(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    x = num.arange(16, dtype=numpy.float64) * 1.0
    legate_fuse.flush()
    y = (x + 1.0) * 2.0 - 3.0
    records = list(session.window.records)
    assert len(records) == 3
    calls = count_encodings(session, monkeypatch)
    session.planner().choose_cut(records[:2], earliest=1)
    legate_fuse.flush()  # plans all three tasks: encoded afresh
    assert calls[0] == 2
    numpy.testing.assert_array_equal(numpy.asarray(y), (numpy.arange(16.0) + 1) * 2 - 3)

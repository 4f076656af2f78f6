"""`cupynumeric.array(host)` attaches a private copy of the NumPy data. cuPyNumeric attaches it
mutable, and every Legate task reading a mutable attachment waits for a copy of it; the plugin
attaches it read-only (LEGATE_FUSE_READ_ONLY_COPIES, on by default). Shared NumPy memory
(`asarray`, `out=`) stays mutable: writes must reach it. Either way the results are the same."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import cupynumeric as num
import numpy
import pytest

from legate_fuse.capture.proxies import RuntimeProxy
from legate_fuse.session import Session


class AttachRecorder:
    """Stands for Legate's runtime behind cuPyNumeric's proxy: records the `read_only` flag of
    every attachment, forwards everything."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.read_only: list[bool] = []

    def create_store_from_buffer(self, dtype: Any, shape: Any, data: Any, read_only: bool,
                                 *args: Any, **kwargs: Any) -> Any:
        self.read_only.append(read_only)
        return self.runtime.create_store_from_buffer(dtype, shape, data, read_only, *args,
                                                     **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.runtime, name)


@contextmanager
def recording_attachments() -> Iterator[AttachRecorder]:
    proxy = sys.modules["cupynumeric.runtime"].legate_runtime
    assert isinstance(proxy, RuntimeProxy)
    runtime = proxy._runtime
    recorder = proxy._runtime = AttachRecorder(runtime)
    try:
        yield recorder
    finally:
        proxy._runtime = runtime


@contextmanager
def read_only_copies(session: Session, value: bool) -> Iterator[None]:
    config = session.config
    session.config = dataclasses.replace(config, read_only_copies=value)
    try:
        yield
    finally:
        session.config = config


def program(host: numpy.ndarray) -> dict[str, numpy.ndarray]:
    """Reads, writes in place, writes through a NumPy view: what users do with arrays made
    from NumPy data."""
    matrix = num.array(host)
    vector = num.array(host[0])
    results = {"product": numpy.asarray(num.dot(matrix, vector) / 3.0)}
    matrix[1, :] = 2.5  # a write into the attached copy's store
    matrix += 1.0
    view = numpy.asarray(matrix)
    view[2, 3] = -4.0  # a write through the NumPy view of its store
    results["matrix"] = numpy.asarray(matrix * 2.0)
    results["sum"] = numpy.asarray(matrix.sum())
    results["host"] = host.copy()  # never written: the copy is private
    return results


@pytest.mark.parametrize("value", [True, False])
def test_results_are_the_same_either_way(session: Session, value: bool) -> None:
    host = numpy.random.default_rng(5).random((40, 40))
    before = session.stats.copies_attached_read_only
    with read_only_copies(session, value):
        got = program(host)
    assert session.stats.copies_attached_read_only == before + (2 if value else 0)
    numpy.testing.assert_array_equal(got["host"], numpy.random.default_rng(5).random((40, 40)))
    expected = host.copy()
    expected[1, :] = 2.5
    expected += 1.0
    expected[2, 3] = -4.0
    numpy.testing.assert_array_equal(got["matrix"], expected * 2.0)
    numpy.testing.assert_allclose(got["product"], host @ host[0] / 3.0, rtol=1e-13)
    numpy.testing.assert_allclose(got["sum"], expected.sum(), rtol=1e-13)


def test_a_private_copy_is_attached_read_only(session: Session) -> None:
    before = session.stats.copies_attached_read_only
    with recording_attachments() as recorder:
        num.array(numpy.arange(300.0))
    assert recorder.read_only == [True]
    assert session.stats.copies_attached_read_only == before + 1


def test_off_a_private_copy_is_attached_as_cupynumeric_attaches_it(session: Session) -> None:
    before = session.stats.copies_attached_read_only
    with read_only_copies(session, False), recording_attachments() as recorder:
        num.array(numpy.arange(300.0))
    assert recorder.read_only == [False]
    assert session.stats.copies_attached_read_only == before


def test_shared_numpy_memory_stays_mutable(session: Session) -> None:
    host = numpy.arange(300.0)
    with recording_attachments() as recorder:
        shared = num.asarray(host)
        shared += 1.0
        num.multiply(shared, 2.0, out=numpy.zeros(300))
    assert recorder.read_only and not any(recorder.read_only)
    numpy.testing.assert_array_equal(host, numpy.arange(300.0) + 1.0)

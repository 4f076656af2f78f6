"""A window in which no task is lifted has nothing to fuse or drop: its tasks run as built, and
the planner neither describes its stores nor analyses it."""

from __future__ import annotations

import cupynumeric as num
import numpy

import legate_fuse
from legate_fuse.session import Session


def test_a_window_without_a_lifted_task_is_not_planned(session: Session) -> None:
    values = numpy.linspace(-1.0, 1.0, 100)
    a = num.array(values)
    legate_fuse.flush()
    planned = session.stats.windows_planned
    clipped = num.clip(a, -0.5, 0.5)  # lifted, but alone
    scanned = num.cumsum(clipped)     # a scan: not lifted; its output's size is unknown
    result = numpy.asarray(scanned)
    assert session.stats.windows_planned == planned
    numpy.testing.assert_array_equal(result, numpy.cumsum(numpy.clip(values, -0.5, 0.5)))


def test_a_window_with_a_lifted_task_is_planned(session: Session) -> None:
    a = num.array(numpy.linspace(-1.0, 1.0, 100))
    legate_fuse.flush()
    planned = session.stats.windows_planned
    result = numpy.asarray(a * 2.0 + 1.0)
    assert session.stats.windows_planned == planned + 1
    numpy.testing.assert_array_equal(result, numpy.linspace(-1.0, 1.0, 100) * 2.0 + 1.0)

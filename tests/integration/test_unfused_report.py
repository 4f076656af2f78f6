"""The report of what ran unfused, and why (unfused.py), on a program with every kind of reason:
a task no lifting knows, tasks a legality rule keeps alone, a window that ends first; and it
accounts for every task the plugin saw."""

from __future__ import annotations

from typing import Any

import cupynumeric as num
import numpy
import pytest

import legate_fuse
from legate_fuse import unfused
from legate_fuse.session import Session


def step(xp: Any, a: Any) -> Any:
    ordered = xp.sort(a)  # no lifting knows a sort
    scaled = xp.abs(ordered * 3.0)
    return scaled / scaled.max()  # the division reads the maximum the group reduces into


@pytest.mark.usefixtures("always_fuse")
def test_each_task_kind_that_ran_unfused_is_reported_with_its_reason(session: Session) -> None:
    values = numpy.random.default_rng(5).uniform(-1.0, 1.0, 500)
    a, expected = num.array(values), values
    before = legate_fuse.stats()
    for _ in range(4):
        a = step(num, a)
        expected = step(numpy, expected)
        numpy.testing.assert_array_equal(numpy.asarray(a), expected)  # a read: the window ends
    after = legate_fuse.stats()
    report = after["unfused"]
    seen = after["tasks_seen"] - before["tasks_seen"]
    ran_unfused = (sum(e["tasks"] for e in report.values())
                   - sum(e["tasks"] for e in before["unfused"].values()))
    fused = after["tasks_fused"] - before["tasks_fused"]
    assert fused >= 4 * 3  # the product, the absolute value and the maximum
    assert ran_unfused == seen - fused  # every task is fused or reported
    assert report["cupynumeric.SORT"]["why"].get(unfused.NOT_LIFTED, 0) >= 4
    divisions = report["cupynumeric.BINARY_OP"]["why"]
    reduction_rule = "alone: accesses the reduction target store of the group"
    assert divisions.get(reduction_rule, 0) >= 1


def test_printed_at_exit_with_the_statistics(session: Session) -> None:
    text = legate_fuse.session.current().report()  # type: ignore[union-attr]
    from legate_fuse.counters import format_stats

    printed = format_stats(text)
    if text["unfused"]:
        assert "ran unfused" in printed
        first = next(iter(text["unfused"]))
        assert first in printed

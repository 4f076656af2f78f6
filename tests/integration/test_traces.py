"""Legate's traces: the tasks created inside a trace are issued inside it (capture/traces.py).
With tasks held across the boundary, a loop body in a trace hung the process."""

from __future__ import annotations

import cupynumeric as num
import numpy
from legate.core._lib.experimental.trace import Trace

from legate_fuse.session import Session


def test_a_trace_runs_what_it_holds_before_it_ends(session: Session) -> None:
    # Arrays created by cuPyNumeric (an attached NumPy buffer is remapped inside a trace, which
    # Legion refuses, with or without the plugin).
    values = numpy.linspace(0.0, 1.0, 1000)
    a, e = num.linspace(0.0, 1.0, 1000), num.zeros(1000)
    expected = numpy.zeros(1000)
    traces = session.stats.flushes["trace"]
    for _ in range(5):
        with Trace(11):
            e = (a + 1.0) * 2.0 + e * 0.5
            held_inside = len(session.window)
        assert held_inside > 0  # fused inside the trace...
        assert len(session.window) == 0  # ...and issued before it ended
        expected = (values + 1.0) * 2.0 + expected * 0.5
    numpy.testing.assert_array_equal(numpy.asarray(e), expected)
    assert session.stats.flushes["trace"] - traces >= 5

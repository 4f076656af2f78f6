"""Legate's traces: the tasks created inside a trace are issued inside it (capture/traces.py).
With tasks held across the boundary, a loop body in a trace hung the process."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cupynumeric as num
import numpy
from legate.core._lib.experimental.trace import Trace

from legate_fuse.session import Session

from .test_activation import run


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


# Arrays created before a trace, when nothing is held (each filled at once): the references the
# plugin keeps to new stores (window/recycling.py) must go at the flush that enters the trace, not
# at one inside it, where Legion refuses what the trace did not record (the program aborted: a
# read of a field Legion took as never written). A process of its own: an abort ends it.
CREATED_BEFORE_A_TRACE = """
import cupynumeric as num
import numpy
from legate.core._lib.experimental.trace import Trace

ones = [num.ones(9) for _ in range(3)]
a, e = num.linspace(0.0, 1.0, 1000), num.zeros(1000)
for _ in range(5):
    with Trace(11):
        e = (a + 1.0) * 2.0 + e * 0.5
expected = numpy.zeros(1000)
for _ in range(5):
    expected = (numpy.linspace(0.0, 1.0, 1000) + 1.0) * 2.0 + expected * 0.5
assert numpy.asarray(e).tobytes() == expected.tobytes()
print("OK")
"""


def test_a_trace_after_arrays_created_while_nothing_is_held() -> None:
    result = run([sys.executable, "-c", CREATED_BEFORE_A_TRACE], timeout=300, LEGATE_FUSE="1",
                 LEGATE_FUSE_PAYOFF="0")
    assert result.returncode == 0 and "OK" in result.stdout, result.stderr[-3000:]


def blend(xp: Any, a: Any, e: Any) -> Any:
    """One line making the same stores wherever it is called from (window/recycling.py hands
    the stores of temporaries back by the program's call site)."""
    return (a + 1.0) * 2.0 + e * 0.5


def test_a_trace_after_a_loop_whose_temporaries_stores_were_kept(session: Session) -> None:
    """Stores of the trace's shape kept from a loop before it (window/recycling.py), made at
    the lines the trace runs: entering the trace frees them, so that every iteration of the
    trace issues what the first recorded (Legion aborted the program, after other tests'
    windows: an iteration with fewer operations, a read of a field taken as never written)."""
    values = numpy.linspace(0.0, 1.0, 1000)
    a, e = num.linspace(0.0, 1.0, 1000), num.zeros(1000)
    expected = numpy.zeros(1000)
    reused = session.stats.stores_reused
    for _ in range(4):  # read each time: one window per iteration, its temporaries kept
        e = blend(num, a, blend(num, a, e))  # twice: more kept than a traced iteration takes
        expected = blend(numpy, values, blend(numpy, values, expected))
        assert float(e[7]) == expected[7]
    assert session.stats.stores_reused > reused, "nothing kept: the test proves nothing"
    assert session.window.recycler._kept_count > 0
    for _ in range(5):
        with Trace(11):
            assert session.window.recycler._kept_count == 0  # freed as the trace begins
            e = blend(num, a, e)
        expected = blend(numpy, values, expected)
    numpy.testing.assert_array_equal(numpy.asarray(e), expected)


# A program whose first tasks run in a trace: its arrays are made (filled, no task) before it.
# Fusion starts at the first store, so that the trace's first run issues what the others do
# (started at the first task, inside the trace, its first run issued one operation more:
# Legion aborted the program, "Trace violation"). The kernel cache is empty: inside a trace, a
# kernel is built before its group's launch (its first run unfused while the kernel compiled
# in the background, the program aborted: a read of a field taken as never written).
FIRST_TASKS_IN_A_TRACE = """
import cupynumeric as num
import legate_fuse
import numpy
from legate.core._lib.experimental.trace import Trace
from legate_fuse.backend import draw_probe

a, e = num.ones(1000), num.zeros(1000)
print("probes submitted before the trace:", len(draw_probe._submitted))
for _ in range(4):
    with Trace(12):
        e = (a + 1.0) * 2.0 + e * 0.5
expected = numpy.zeros(1000)
for _ in range(4):
    expected = (numpy.ones(1000) + 1.0) * 2.0 + expected * 0.5
assert numpy.asarray(e).tobytes() == expected.tobytes()
print("fused launches:", legate_fuse.stats()["fused_launches"])
"""


def test_a_program_whose_first_tasks_are_in_a_trace(tmp_path: Path) -> None:
    result = run([sys.executable, "-c", FIRST_TASKS_IN_A_TRACE], timeout=300, LEGATE_FUSE="1",
                 LEGATE_FUSE_PAYOFF="0", LEGATE_FUSE_COMPILE="background",
                 LEGATE_FUSE_CACHE_DIR=str(tmp_path / "kernels"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "fused launches: 4" in result.stdout, result.stdout
    # The generators' probe, submitted as fusion starts, before the trace: in its first run
    # only, it would be an operation the later runs do not issue.
    assert "probes submitted before the trace: 1" in result.stdout, result.stdout

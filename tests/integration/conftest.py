"""Integration tests run Legate on CPUs in this process, with fusion enabled before cuPyNumeric
is imported (exactly what LEGATE_FUSE=1 does at start-up), at the default settings: as shipped,
the plugin measures whether fusion pays in a program that reads values back (mode/payoff.py).
The tests that need every window fused ask for it (`always_fuse`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import legate_fuse
from legate_fuse import session as fusion_session
from legate_fuse.plan.summary import PlanSummary

# Kernels compile before their group's first launch (LEGATE_FUSE_COMPILE=wait): these tests
# check fused results from a program's first window. test_background_compile.py runs the
# default, a group unfused until its kernel is ready.
os.environ["LEGATE_FUSE_COMPILE"] = "wait"
legate_fuse.enable()
del os.environ["LEGATE_FUSE_COMPILE"]

import cupynumeric  # noqa: E402, F401  (must follow enable())


@pytest.fixture
def session() -> Iterator[fusion_session.Session]:
    """The fusion session, holding, with an empty window before and after the test, and the
    measurement of whether fusion pays started afresh."""
    current = fusion_session.current()
    assert current is not None
    measuring_afresh(current)
    # Each test a program of its own: its own one warning (an earlier test's failure, injected
    # on purpose, would silence the warning a later test expects).
    current._warned = False
    fusing(current)
    current.flush("test_setup")
    capacity = current.window.capacity
    yield current
    current.window.capacity = capacity
    fusing(current)
    current.flush("test_teardown")


def measuring_afresh(current: fusion_session.Session) -> None:
    """The payoff tuner as a new process starts with it, in its warm-up (it fuses through its
    first reads), and the call sites unknown: each test stands for a program of its own. One
    tuner measuring the hundreds of reads of all the tests would rightly run some tests'
    windows unfused. (Started afresh in place, with its settings: stepping aside holds it
    too.)"""
    payoff = current.payoff
    if payoff is not None:
        type(payoff).__init__(payoff, payoff.settings, payoff.clock, payoff.cpu_clock)
    current.waits_at_tasks = False
    # What was learned of call sites too: helpers shared by tests (tasks built by hand) have one
    # site, whose tasks one test runs alone and the next expects recorded.
    sites = current.call_sites
    type(sites).__init__(sites, sites.stats, sites.enabled)


def fusing(current: fusion_session.Session) -> None:
    """Brings the session back to holding tasks, whatever mode an earlier test left it in
    (disabled, stepped aside, unfused because fusion did not pay)."""
    legate_fuse.enable()
    current.step_aside.come_back()
    current.mode.fire("fusion_pays")
    current.update_mode()
    assert current.mode.holds, current.mode.mode


@pytest.fixture
def always_fuse(session: fusion_session.Session) -> Iterator[fusion_session.Session]:
    """Every window fused during the test, as with LEGATE_FUSE_PAYOFF=0: for the tests that
    count the plans or fused launches of each window of a program that reads values back
    more often than the payoff tuner's warm-up (past it, the tuner may run some windows
    unfused, which is right at the default settings but not what those tests count)."""
    tuner = session.payoff
    session.payoff = session.step_aside.payoff = None
    yield session
    session.payoff = session.step_aside.payoff = tuner


@pytest.fixture
def plans(session: fusion_session.Session) -> Iterator[list[PlanSummary]]:
    """Plans of the windows flushed during the test (collected from a clean window, in windows
    of up to 1,000 tasks)."""
    session.window.capacity = 1000
    collected: list[PlanSummary] = []
    listeners = session.planner().listeners
    listeners.append(collected.append)
    yield collected
    listeners.remove(collected.append)

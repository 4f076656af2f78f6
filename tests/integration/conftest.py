"""Integration tests run Legate on CPUs in this process, with fusion enabled before cuPyNumeric
is imported (exactly what LEGATE_FUSE=1 does at start-up)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import legate_fuse
from legate_fuse import session as fusion_session

# Every window fused, whatever fusion would save these small programs (mode/payoff.py): the
# tests are of fusion; integration/test_payoff_switching.py runs the measured switching.
os.environ.setdefault("LEGATE_FUSE_PAYOFF", "0")
legate_fuse.enable()

import cupynumeric  # noqa: E402, F401  (must follow enable())


@pytest.fixture
def session() -> Iterator[fusion_session.Session]:
    """The fusion session, holding, with an empty window before and after the test."""
    current = fusion_session.current()
    assert current is not None
    fusing(current)
    current.flush("test_setup")
    capacity = current.window.capacity
    yield current
    current.window.capacity = capacity
    fusing(current)
    current.flush("test_teardown")


def fusing(current: fusion_session.Session) -> None:
    """Brings the session back to holding tasks, whatever mode an earlier test left it in
    (disabled, stepped aside, unfused because fusion did not pay)."""
    legate_fuse.enable()
    current.step_aside.come_back()
    current.mode.fire("fusion_pays")
    current.update_mode()
    assert current.mode.holds, current.mode.mode

"""Programs give identical results with the window holding tasks and without, and NumPy's."""

from __future__ import annotations

import cupynumeric
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session

from .compare import assert_close, assert_identical
from .programs import PROGRAMS, to_numpy


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_pass_through_and_numpy(session: Session, name: str) -> None:
    program = PROGRAMS[name]
    seen_before = session.stats.tasks_seen
    flushes_before = sum(session.stats.flushes.values())
    launches_before = session.stats.fused_launches
    held = to_numpy(program(cupynumeric))
    assert session.stats.tasks_seen > seen_before
    # The window really held tasks back: something had to flush it.
    assert sum(session.stats.flushes.values()) > flushes_before

    # Equal results prove nothing unless the held run fused something.
    assert session.stats.fused_launches > launches_before

    legate_fuse.disable()
    unheld = to_numpy(program(cupynumeric))
    legate_fuse.enable()

    assert_identical(held, unheld)
    assert_close(held, to_numpy(program(numpy)))

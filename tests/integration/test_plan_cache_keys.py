"""The plan cache must key on every fact the legality rules read. A window of the same tasks
over an empty array (n = 0) must not reuse the plan of a window over a non-empty one: that
plan fuses a 0-d computation into the loop over the array, and over an empty array the loop
runs no element, so the 0-d value is never computed (found by the fuzzer)."""

from __future__ import annotations

import cupynumeric as np
import numpy

import legate_fuse
from legate_fuse.session import Session


def scaled(n: int, scale: float) -> tuple[float, numpy.ndarray]:
    s = np.array(numpy.array(scale))
    x = np.ones(n)
    legate_fuse.flush()
    y = x * 2.0  # the loop over x
    t = s * 3.0  # a 0-d computation that may join it
    legate_fuse.flush()
    return float(t), numpy.asarray(y)


def test_an_empty_array_gets_its_own_plan(session: Session) -> None:
    for n, scale in [(5, 1.0), (0, 2.0), (5, 3.0), (0, 4.0)]:
        t, y = scaled(n, scale)
        assert t == 3.0 * scale, (n, scale)
        numpy.testing.assert_array_equal(y, numpy.full(n, 2.0))

"""A fused task iterates over its block as rows of the innermost dimension, with the dimensions
every store steps through as one merged first (src/cpp/tasks/fused_task.cc, `coalesce`) and
each row's start advanced from the last one's (src/cpp/codegen/c_renderer.cc). Every layout a
program makes (dense, broadcast along any dimension, transposed, slices of rows, dimensions
of extent 1) gives the same bits as fusion off and as NumPy, and so do reductions over them,
whose order of accumulation must not change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session

# name -> (input shapes, program on two arrays of those shapes)
LAYOUTS: dict[str, tuple[tuple[tuple[int, ...], tuple[int, ...]], Callable[[Any, Any], Any]]] = {
    "dense 3-d": (((40, 8, 2), (40, 8, 2)), lambda a, b: (a - b) * (a - b)),
    "broadcast short last": (((40, 2), (8, 2)),
                             lambda a, b: (a[:, None, :] - b[None, :, :]) ** 2),
    "broadcast middle": (((40, 5), (40, 5)), lambda a, b: a[:, None, :] * 2.0 + b[:, None, :]),
    "broadcast outer": (((7, 9), (9,)), lambda a, b: (a + b[None, :]) * b),
    "transposed": (((12, 30), (30, 12)), lambda a, b: a.T * 3.0 - b),
    "offset slices": (((50, 40), (50, 40)), lambda a, b: a[3:, 1:-2] + b[:-3, 2:-1] * 0.5),
    "extent one": (((1, 33, 1), (1, 33, 1)), lambda a, b: a * b + 1.0),
    "column": (((64, 1), (64, 1)), lambda a, b: (a - 1.0) * b),
    "sum over broadcast": (((40, 2), (8, 2)),
                           lambda a, b: ((a[:, None, :] - b[None, :, :]) ** 2).sum()),
    "max over transposed": (((12, 30), (30, 12)), lambda a, b: (a.T * b + 1.0).max()),
    "sum over slices": (((50, 40), (50, 40)), lambda a, b: (a[3:, 1:-2] - b[:-3, 2:-1]).sum()),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_layout_fuses_to_the_same_bits(session: Session, layout: str) -> None:
    shapes, program = LAYOUTS[layout]
    rng = numpy.random.default_rng(len(layout))
    host = [rng.normal(size=shape) for shape in shapes]
    arrays = [cn.array(x) for x in host]
    legate_fuse.flush()
    launches = session.stats.fused_launches
    fused = numpy.asarray(program(*arrays))
    assert session.stats.fused_launches > launches
    legate_fuse.disable()
    try:
        unfused = numpy.asarray(program(*arrays))
    finally:
        legate_fuse.enable()
    assert fused.tobytes() == unfused.tobytes()
    numpy.testing.assert_allclose(fused, program(*host), rtol=1e-12)

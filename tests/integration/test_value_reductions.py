"""A reduction of a 0-d value (`np.prod(np.argmax(x))`, the sum of a sum) next to
element-wise work on an array. A fused kernel runs the 0-d computations of its group inside
its element loop, once per element: harmless for element-wise operations, wrong for a
reduction, which must contribute once (found by the fuzzer: 3 ** 7 instead of 3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session

CASES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "prod of argmax, scaled": lambda xp, v, m: m * xp.prod(xp.argmax(v)),
    "sum of a 0-d sum, added": lambda xp, v, m: xp.sum(xp.sum(v) * 2) + m,
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("size", [7, 300])
def test_a_value_reduced_next_to_an_element_loop(session: Session, name: str, size: int) -> None:
    values = numpy.arange(size, dtype=numpy.int32) % 5 + 1
    mask = numpy.arange(size) % 3 != 2
    case = CASES[name]
    v, m = np.array(values), np.array(mask)
    legate_fuse.flush()
    fused = numpy.asarray(case(np, v, m))
    legate_fuse.flush()
    numpy.testing.assert_array_equal(fused, case(numpy, values, mask))


@pytest.mark.parametrize("size", [7, 300])
def test_a_value_reduced_after_an_element_loop(session: Session, size: int) -> None:
    # The reduction of a 0-d value comes after a task over an array, in the same window: joined
    # to its group, the element loop would multiply it in once per element (4 ** 7 for 4).
    # Nothing else keeps it out: a reduction is not a write of a value read after the group.
    values = numpy.arange(size, dtype=numpy.int32) % 5 + 1
    v = np.array(values)
    top = np.argmax(v)  # a 0-d value computed before the window
    legate_fuse.flush()
    doubled = v * 2
    product = np.prod(top)
    legate_fuse.flush()
    assert int(product) == numpy.prod(numpy.argmax(values))
    numpy.testing.assert_array_equal(numpy.asarray(doubled), values * 2)


@pytest.mark.parametrize("size", [7, 300])
def test_an_element_loop_after_a_value_reduced(session: Session, size: int) -> None:
    # The reverse order: a task over an array after the reduction of a 0-d value, its result
    # kept by the program (no later task in the window that it feeds could take it into
    # another group). Joined to the reduction's group, its element loop would repeat it.
    values = numpy.arange(size, dtype=numpy.int32) % 5 + 1
    v = np.array(values)
    top = np.argmax(v)
    legate_fuse.flush()
    product = np.prod(top)
    doubled = v * 2
    legate_fuse.flush()
    assert int(product) == numpy.prod(numpy.argmax(values))
    numpy.testing.assert_array_equal(numpy.asarray(doubled), values * 2)

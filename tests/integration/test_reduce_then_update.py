"""A reduction of an array and an in-place update of it, fused into one kernel (`s = x.sum();
x *= np.exp(y)`): the kernel stores into the memory the reduction reads, and the sum must be
that of the values before the update, as with fusion off. The exp makes the contiguous rows run
tile by tile (256 elements), so the sizes go across a tile; transposed arrays take the strided
rows."""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session


def reduce_then_update(shape: tuple[int, ...], transposed: bool) -> list[numpy.ndarray]:
    size = int(numpy.prod(shape))
    # Computed by Legate tasks, so the update writes over a store of the library's own.
    base = np.arange(size, dtype=np.float64) / size - 0.25
    x: Any = base.reshape(shape[::-1]).T if transposed else base.reshape(shape)
    y = np.sin(np.arange(size, dtype=np.float64)).reshape(shape)
    legate_fuse.flush()
    total = x.sum()
    x *= np.exp(y)
    return [numpy.asarray(total).copy(), numpy.asarray(x).copy()]


# Contiguous rows around the tile size, and 2-D arrays whose rows are contiguous (short or
# long) or, transposed, strided.
CASES = [((255,), False), ((257,), False), ((1000,), False), ((3, 257), False),
         ((3, 257), True), ((300, 7), False), ((300, 7), True)]


@pytest.mark.parametrize(("shape", "transposed"), CASES,
                         ids=lambda c: "x".join(map(str, c)) if isinstance(c, tuple)
                         else ("transposed" if c else "rows"))
def test_sum_before_an_in_place_update_equals_fusion_off(session: Session,
                                                         shape: tuple[int, ...],
                                                         transposed: bool) -> None:
    before = session.stats.fused_launches
    fused = reduce_then_update(shape, transposed)
    assert session.stats.fused_launches > before
    legate_fuse.disable()
    try:
        unfused = reduce_then_update(shape, transposed)
    finally:
        legate_fuse.enable()
    for name, on, off in zip(("sum", "updated x"), fused, unfused, strict=True):
        assert on.tobytes() == off.tobytes(), f"{name}: fused {on!r} unfused {off!r}"

"""Stores the program lets go are freed when it lets them go, not later: Legate gives a new store
the field of one freed before it, with the memory Legion made for that field, so a reference
the plugin keeps a moment too long makes the next store of that shape take a new field and
memory not yet touched (cuPyNumeric's `astype` microbenchmark: one conversion of 2e7 elements
took 80 ms instead of 13, and the peak memory grew by one array). Checked by the fields the
results take, fusion on against off."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import cupynumeric as np
from legate.core import get_legate_runtime

import legate_fuse
from legate_fuse import session as fusion_session
from legate_fuse.capture.compat import STORE_ATTRIBUTE

# Legate recycles the fields of a shape first freed, first reused: a shape no other test uses
# starts with none free.
N = 1_237
RESULTS = 8


def field_of(array: Any) -> int:
    """The field of the array's store (Legate prints it in the store's description)."""
    found = re.search(r"field: (\d+)", str(getattr(array._thunk, STORE_ATTRIBUTE)))
    assert found is not None, "Legate's description of a store no longer names its field"
    return int(found.group(1))


def fields_taken(make: Callable[[], Any], fence: bool) -> list[int]:
    """The fields of RESULTS results of `make`, each let go before the next is made."""
    legate_fuse.flush()
    fields = []
    for _ in range(RESULTS):
        result = make()
        fields.append(field_of(result))
        del result
        if fence:
            get_legate_runtime().issue_execution_fence(block=False)
    return fields


def fields_unfused_and_fused(make: Callable[[], Any], fence: bool) -> tuple[list[int], ...]:
    """Unfused first: it leaves one free field of the shape, which the fused run takes first."""
    legate_fuse.disable()
    try:
        unfused = fields_taken(make, fence)
    finally:
        legate_fuse.enable()
    return unfused, fields_taken(make, fence)


def test_results_built_at_once_take_the_field_of_the_result_let_go(
        session: fusion_session.Session) -> None:
    """cuPyNumeric's `astype` microbenchmark: a conversion, let go, then a fence, again and
    again. After the first windows its conversions are built at once, with nothing held; the
    store created last was kept (for a fill that might follow) until the next was created."""
    source = np.arange(N, dtype=np.int64)

    def convert() -> Any:
        return source.astype(np.float64)

    before = session.stats.tasks_built_at_once
    unfused, fused = fields_unfused_and_fused(convert, fence=True)
    assert session.stats.tasks_built_at_once > before, "no conversion was built at once"
    assert len(set(unfused)) == 1
    assert len(set(fused)) == len(set(unfused)), (fused, unfused)


def references_left(make: Callable[[], Any]) -> int:
    """References to the store of `make`'s result left once the program let the result go
    (this function's own and `getrefcount`'s counted)."""
    result = make()
    store = getattr(result._thunk, STORE_ATTRIBUTE)
    del result
    return sys.getrefcount(store)


def test_no_reference_outlives_a_task_run_as_built_with_nothing_held(
        session: fusion_session.Session) -> None:
    """A task no lifting knows runs as built, nothing held: the stores created since the last
    flush were kept until the next flush, and a loop of such tasks with no flush (no read, no
    fence) kept every result it let go."""

    source = np.arange(N, 0, -1, dtype=np.float64)
    legate_fuse.flush()

    def sort() -> Any:  # no lifting knows cuPyNumeric's SORT task
        return np.sort(source)

    before = session.stats.unfused.total()
    fused = references_left(sort)
    assert session.stats.unfused.total() > before and not session.window.tasks
    legate_fuse.disable()
    try:
        unfused = references_left(sort)
    finally:
        legate_fuse.enable()
    assert fused == unfused

"""Fused outputs written over inputs that die in the same group (legate_fuse/in_place.py):
reused only when the program cannot tell, and the results are those of fusion off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import numpy

import legate_fuse
from legate_fuse import _core
from legate_fuse.session import Session


def run_both(session: Session, program: Callable[[], Any]) -> tuple[Any, Any, int]:
    """The program's values (as NumPy) with fusion on and off, and the outputs written in
    place with fusion on."""
    legate_fuse.flush()
    before = session.stats.outputs_in_place
    fused = program()
    legate_fuse.flush()
    reused = session.stats.outputs_in_place - before
    fused = [numpy.asarray(v).copy() for v in fused]
    legate_fuse.disable()
    try:
        unfused = [numpy.asarray(v).copy() for v in program()]
    finally:
        legate_fuse.enable()
    for a, b in zip(fused, unfused, strict=True):
        assert a.tobytes() == b.tobytes()
    return fused, unfused, reused


def inputs() -> tuple[Any, Any]:
    # Copied in from NumPy: no fused group (and no reuse) creates them.
    return np.array(numpy.linspace(0.0, 1.0, 1000)), np.array(numpy.full(1000, 0.25))


def root_of(array: Any) -> str:
    desc = _core.parse_store_desc(str(array._thunk.base))
    assert desc is not None
    return desc.root_key


def test_a_loop_state_is_updated_in_place(session: Session) -> None:
    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        for _ in range(3):
            x = x * 0.5 + y
        legate_fuse.flush()
        storage = root_of(x)
        x = x * 0.5 + y  # the old x dies inside the group: its storage is reused
        legate_fuse.flush()
        assert root_of(x) == storage or not legate_fuse.is_enabled()
        return [x]

    _, _, reused = run_both(session, program)
    # The first x is over a NumPy copy (attached): never written over. x after the first
    # window is Legate's own, and dies in the last group.
    assert reused == 1


def test_an_old_value_still_referenced_is_not_overwritten(session: Session) -> None:
    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        old = x
        x = x * 0.5 + y
        return [old, x, y]  # y stays reachable too: no input dies

    fused, _, reused = run_both(session, program)
    assert reused == 0
    numpy.testing.assert_array_equal(fused[0], numpy.linspace(0.0, 1.0, 1000))


def test_a_live_view_of_the_old_value_prevents_reuse(session: Session) -> None:
    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        view = x[10:20]
        x = x * 0.5 + y
        return [view, x, y]

    fused, _, reused = run_both(session, program)
    assert reused == 0
    numpy.testing.assert_array_equal(fused[0], numpy.linspace(0.0, 1.0, 1000)[10:20])


def test_a_view_of_the_new_value_prevents_reuse(session: Session) -> None:
    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        x = x * 0.5 + y
        view = x[10:20]  # taken before the group runs: it must see the new values
        del y  # dead: its storage could be reused, but not for an array with a live view
        return [view, x]

    fused, _, reused = run_both(session, program)
    assert reused == 0
    numpy.testing.assert_allclose(fused[0], numpy.linspace(0.0, 1.0, 1000)[10:20] * 0.5 + 0.25)


def test_a_store_held_outside_cupynumeric_prevents_reuse(session: Session) -> None:
    held: list[Any] = []

    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        x = x * 0.5 + y
        held.append(x._thunk.base)  # another library keeps the new store
        del y
        return [x]

    _, _, reused = run_both(session, program)
    assert reused == 0


def test_an_input_read_through_another_view_is_not_overwritten(session: Session) -> None:
    def program() -> list[Any]:
        x = np.array(numpy.linspace(0.0, 1.0, 900).reshape(30, 30))
        legate_fuse.flush()
        x = x + x.T  # element (i, j) reads element (j, i) of the old x
        return [x]

    _, _, reused = run_both(session, program)
    assert reused == 0


def test_a_later_task_of_the_window_reading_the_old_value_prevents_reuse(
    session: Session,
) -> None:
    def program() -> list[Any]:
        x, y = inputs()
        legate_fuse.flush()
        new = x * 0.5 + y
        total = np.sort(x)  # an opaque task after the group reads the old x
        del x
        return [new, total]

    run_both(session, program)


def test_switched_off_by_the_setting(session: Session) -> None:
    fuser = session.fuser()
    fuser.in_place = False
    try:
        def program() -> list[Any]:
            x, y = inputs()
            legate_fuse.flush()
            x = x * 0.5 + y
            return [x]

        _, _, reused = run_both(session, program)
        assert reused == 0
    finally:
        fuser.in_place = True


def test_an_array_over_numpy_memory_is_never_written_over(session: Session) -> None:
    host = numpy.arange(1000.0)

    def program() -> list[Any]:
        x = np.asarray(host)  # shares the NumPy array's memory
        legate_fuse.flush()
        x = x * 2.0 + 1.0  # the attached x dies here
        return [x]

    _, _, reused = run_both(session, program)
    assert reused == 0
    numpy.testing.assert_array_equal(host, numpy.arange(1000.0))

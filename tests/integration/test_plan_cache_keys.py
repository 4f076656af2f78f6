"""The plan cache must key on every fact the legality rules read. A window of the same tasks
over an empty array (n = 0) must not reuse the plan of a window over a non-empty one: that
plan fuses a 0-d computation into the loop over the array, and over an empty array the loop
runs no element, so the 0-d value is never computed (found by the fuzzer)."""

from __future__ import annotations

import cupynumeric as np
import numpy
import pytest

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


def test_a_task_is_lifted_from_its_cached_form_as_afresh(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lifting is looked up by a task's shape (its calls, argument types and dimensions):
    every fact lifting reads must be in it. float64 and complex128 additions differ only in
    their stores' type, and only the first has a kernel; a 0-d and a 1-d store differ in
    whether they are partitioned."""
    from legate_fuse import lift as lifting
    from legate_fuse.plan import planner

    compared: list[str] = []
    differing: list[tuple[object, object]] = []  # (cached, afresh); the plugin catches errors
    original = planner.lift

    def checked(record: object) -> object:
        lifted = original(record)  # type: ignore[arg-type]
        fresh = lifting._lift(record)  # type: ignore[arg-type]
        if lifted != fresh:
            differing.append((lifted, fresh))
        compared.append(lifted.op if lifted is not None else "opaque")
        return lifted

    monkeypatch.setattr(planner, "lift", checked)
    for _ in range(2):
        for dtype in ("float64", "complex128", "float64"):
            x = np.ones(8, dtype=dtype)
            y = np.array(numpy.array(2.0, dtype=dtype))
            numpy.asarray(np.clip(x.real, 0.0, 0.5) + (x + x) * y + y.sum())
    assert differing == []
    assert "opaque" in compared and "BINARY_OP.ADD" in compared

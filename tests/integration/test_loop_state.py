"""`x = f(x)` and programs whose arrays die inside a fused group: new arrays are never given
another array's storage (a task already built against the new store would then read memory
nothing wrote), and the results are those of fusion off."""

from __future__ import annotations

import sys
from typing import Any

import cupynumeric as np
import numpy

import legate_fuse
from legate_fuse.session import Session

from .compare import run_both
from .test_activation import run


def owned_inputs() -> tuple[Any, Any]:
    """Arrays computed by Legate tasks (not over NumPy memory)."""
    x = np.arange(1000, dtype=np.float64) / 1000.0
    y = np.full(1000, 0.25)
    legate_fuse.flush()
    return x, y


def test_a_loop_state_keeps_its_values(session: Session) -> None:
    def program() -> list[Any]:
        x, y = owned_inputs()
        for _ in range(4):
            x = x * 0.5 + y
        return [x]

    run_both(program)


def test_an_old_value_still_referenced_keeps_its_values(session: Session) -> None:
    def program() -> list[Any]:
        x, y = owned_inputs()
        old = x
        x = x * 0.5 + y
        return [old, x, y]

    fused = run_both(program)
    numpy.testing.assert_array_equal(fused[0], numpy.arange(1000.0) / 1000.0)


def test_views_of_old_and_new_values(session: Session) -> None:
    def program() -> list[Any]:
        x, y = owned_inputs()
        old_view = x[10:20]
        x = x * 0.5 + y
        new_view = x[10:20]
        del y
        x = x + x[5:15].sum()
        return [old_view, new_view, x]

    run_both(program)


def test_an_input_read_through_its_transpose(session: Session) -> None:
    def program() -> list[Any]:
        x = np.arange(900, dtype=np.float64).reshape(30, 30) / 7.0
        legate_fuse.flush()
        x = x + x.T
        return [x]

    run_both(program, fuses=False)  # one addition after the flush: nothing to fuse it with


def test_a_store_taken_by_another_library_keeps_its_values(session: Session) -> None:
    held: list[Any] = []

    def program() -> list[Any]:
        x, y = owned_inputs()
        x = x * 0.5 + y
        held.append(x._thunk.base)
        del y
        return [x]

    run_both(program)


SOLVE_AFTER_FUSED = """
import cupynumeric as np
A = np.eye(50) * 4.0 + np.ones((50, 50)) * 0.01
print("RESULT", float(np.linalg.solve(A, np.arange(50, dtype=np.float64)).sum()))
"""


def test_solve_after_a_fused_expression() -> None:
    """The solver's task is built against the fused expression's result before the window
    runs: that store must be the one the fused kernel writes."""
    results = []
    for fused in ("0", "1"):
        done = run([sys.executable, "-c", SOLVE_AFTER_FUSED], LEGATE_FUSE=fused)
        assert done.returncode == 0, done.stderr[-3000:]
        results.append(next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT")))
    assert results[0] == results[1]

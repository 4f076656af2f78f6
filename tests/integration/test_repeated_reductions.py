"""A reduction computed again over unchanged arrays takes the value computed before
(window/repeated_reductions.py): scipy's CG reads `norm(r)`, then takes `dot(r, r)`. Every
result here is compared, bit for bit, with the same program run with fusion disabled, and
each case that must not reuse a value changes the arrays in a way the rule has to see."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as np
import legate.core
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session

SIZE = 10_007  # more than a kernel's part, not a multiple of any tile


def residual() -> Any:
    return np.array(numpy.linspace(0.1, 2.0, SIZE) ** 1.5)


def fused_and_unfused(program: Callable[[], list[float]]) -> tuple[list[float], list[float]]:
    fused = program()
    legate_fuse.disable()
    try:
        unfused = program()
    finally:
        legate_fuse.enable()
    return fused, unfused


def bits(values: list[float]) -> list[bytes]:
    return [numpy.float64(value).tobytes() for value in values]


def reused(session: Session) -> int:
    return session.stats.tasks_reused


def assert_same_bits_none_reused(session: Session, program: Callable[[], list[float]]
                                 ) -> list[float]:
    """Runs `program` fused and unfused: the same bits, no value taken; the fused results."""
    before = reused(session)
    fused, unfused = fused_and_unfused(program)
    assert reused(session) == before
    assert bits(fused) == bits(unfused)
    return fused


@pytest.mark.usefixtures("always_fuse")
def test_scipy_style_cg_reuses_the_residuals_dot_product(session: Session) -> None:
    """CG's steps as scipy takes them, on a tridiagonal matrix applied by slices."""

    def program() -> list[float]:
        b = residual()
        x = np.zeros(SIZE)
        r = b.copy()
        p: Any = None
        rho_prev: Any = None
        seen = []
        for _ in range(6):
            seen.append(float(np.linalg.norm(r)))
            rho = np.dot(r, r)
            p = r.copy() if p is None else r + (rho / rho_prev) * p
            q = 4.0 * p
            q[1:] -= p[:-1]
            q[:-1] -= p[1:]
            alpha = rho / np.dot(p, q)
            x += alpha * p
            r -= alpha * q
            rho_prev = rho
        return [*seen, float(np.sum(x))]

    before = reused(session)
    fused, unfused = fused_and_unfused(program)
    assert reused(session) - before >= 5  # every iteration's dot product after the first
    assert bits(fused) == bits(unfused)


CHANGES: dict[str, Callable[[Any], None]] = {
    # A task writing the array, recorded after the norm.
    "in-place multiply": lambda r: r.__imul__(2.0),
    # A task writing one element (a view of the array).
    "element write": lambda r: r.__setitem__(3, 50.0),
    # A runtime fill.
    "fill": lambda r: r.fill(0.5),
    # A runtime copy into a slice.
    "slice copy": lambda r: r.__setitem__(slice(0, 5), r[10:15]),
    # NumPy's own write through a view of the array's memory, no task at all.
    "NumPy write": lambda r: numpy.asarray(r).__setitem__(0, 7.0),
    # A copy by Legate's runtime, no task (a Legate library's own).
    "runtime copy": lambda r: legate.core.get_legate_runtime().issue_copy(
        r._thunk.base, np.full(SIZE, 2.0)._thunk.base),
}


@pytest.mark.usefixtures("always_fuse")
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_between_the_two_reductions_is_seen(session: Session, change: str) -> None:
    def program() -> list[float]:
        r = residual()
        norm = float(np.linalg.norm(r))
        CHANGES[change](r)
        return [norm, float(np.dot(r, r))]

    fused = assert_same_bits_none_reused(session, program)
    assert fused[1] != fused[0] ** 2  # (the change changed the dot product)


@pytest.mark.usefixtures("always_fuse")
def test_the_value_of_a_reduction_nothing_read_is_not_reused(session: Session) -> None:
    """A reduction whose value no one reads is a dead task of its group: its target was
    never written, and holds only its fill."""

    def program() -> list[float]:
        r = residual()
        doubled = r * 2.0
        np.dot(r, r)  # dropped at once
        first = float(np.linalg.norm(doubled + 1.0))
        return [first, float(np.dot(r, r))]

    launches = session.stats.fused_launches
    fused, unfused = fused_and_unfused(program)
    assert session.stats.fused_launches > launches
    assert bits(fused) == bits(unfused)


@pytest.mark.usefixtures("always_fuse")
def test_a_write_later_in_the_reductions_own_window_is_seen(session: Session) -> None:
    def program() -> list[float]:
        r = residual()
        norm = np.linalg.norm(r)
        r *= 2.0  # held after the norm's dot product, in its window
        return [float(norm), float(np.dot(r, r))]

    assert_same_bits_none_reused(session, program)


@pytest.mark.usefixtures("always_fuse")
def test_a_reduction_over_other_arrays_is_not_reused(session: Session) -> None:
    def program() -> list[float]:
        r, s = residual(), residual() * 3.0
        norm = float(np.linalg.norm(r))
        return [norm, float(np.dot(r, s)), float(np.dot(s, r)), float(np.dot(s, s))]

    assert_same_bits_none_reused(session, program)


@pytest.mark.usefixtures("always_fuse")
def test_a_value_is_reused_within_its_window_only_after_it_ran(session: Session) -> None:
    """The same reduction twice in one window, nothing read between: the first has not run
    when the second is recorded."""

    def program() -> list[float]:
        r = residual()
        first = np.dot(r, r)
        second = np.dot(r, r)
        return [float(first), float(second)]

    assert_same_bits_none_reused(session, program)


def test_a_fill_while_nothing_is_recorded_is_not_followed(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Disabled (as when unfused or aside), a fill goes straight to Legate: no task recorded
    later can start from it, so it is not noted (noting a 0-d fill's value cost each dot
    product some 15 us), and what was noted before is forgotten; results as without the
    plugin."""
    noted: list[Any] = []
    monkeypatch.setattr(session.reductions, "filled", lambda *args: noted.append(args))
    legate_fuse.disable()
    try:
        r = residual()
        total = float(np.dot(r, r))
        np.full((3,), 2.0)  # a fill of a new array
    finally:
        legate_fuse.enable()
    assert noted == [] and session.reductions._last_fill is None
    want = numpy.linspace(0.1, 2.0, SIZE) ** 1.5
    numpy.testing.assert_allclose(total, numpy.dot(want, want), rtol=1e-12)

"""Repeated windows are recognised from their raw records (plan/replay.py): a stream seen before
is encoded without lifting, and launched from the steps of its cached plan. What the stream
does not say (which stores alias, which the program still reaches) is read for every window:
windows with the same stream but different aliasing or liveness get the plan of what they are.
"""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.session import Session


def test_a_loop_encodes_its_stream_once_and_replays_it(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    planner = session.planner()
    lifted: list[object] = []
    original = planner.lifted_form
    # (ids: a record kept here would keep its stores, reachable, after its window)
    monkeypatch.setattr(planner, "lifted_form", lambda r: lifted.append(id(r)) or original(r))
    x = np.array(numpy.linspace(0.0, 1.0, 50))
    expected = numpy.linspace(0.0, 1.0, 50)
    legate_fuse.flush()
    launches = session.stats.fused_launches
    temporaries = session.stats.temporaries_eliminated
    for _ in range(4):
        x = (x * 0.5 + 1.0) * 2.0
        expected = (expected * 0.5 + 1.0) * 2.0
        legate_fuse.flush()
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)
    assert len(lifted) <= 3  # the first window's tasks only
    assert session.stats.fused_launches == launches + 4  # every window fused
    # Both intermediates of every window unallocated: the first window's too, whose records
    # hold lifted forms (references to their stores that are the window's own).
    assert session.stats.temporaries_eliminated == temporaries + 8


def test_the_same_stream_on_other_stores_is_told_apart(session: Session) -> None:
    """`a * b` and `a * a` are the same operations on the same types; the stream differs in
    which store each argument is."""
    a = np.array(numpy.arange(6.0))
    b = np.array(numpy.arange(6.0) + 10.0)
    for second in (b, a, b, a):
        legate_fuse.flush()
        launches = session.stats.fused_launches
        c = (a * second) + 1.0
        legate_fuse.flush()
        # Fused each time: planned from an encoding of this window's stream, not another's
        # (which the analysis would reject, and the window would run unfused).
        assert session.stats.fused_launches == launches + 1
        numpy.testing.assert_array_equal(
            numpy.asarray(c), numpy.arange(6.0) * numpy.asarray(second) + 1.0)


def test_a_replayed_stream_keeps_a_reachable_intermediate(session: Session) -> None:
    """The same stream, its intermediate dropped in one window and held by the program in the
    next: only the first may leave it unallocated."""
    x = np.array(numpy.arange(8.0))
    for keep in (False, True, False, True):
        legate_fuse.flush()
        t = x * 2.0
        y = t + 1.0
        kept = t if keep else None
        del t
        legate_fuse.flush()
        numpy.testing.assert_array_equal(numpy.asarray(y), numpy.arange(8.0) * 2.0 + 1.0)
        if kept is not None:
            numpy.testing.assert_array_equal(numpy.asarray(kept), numpy.arange(8.0) * 2.0)


def test_a_replayed_stream_over_overlapping_views_is_planned_for_them(session: Session) -> None:
    """The same stream reading one view and writing another: the views are of different
    arrays, then shifted views of one array, then different arrays again. Where they overlap,
    fusing the read and the write into one loop would read elements it already wrote."""
    for overlapping in (False, True, False, True):
        x = np.array(numpy.arange(10.0))
        out = x if overlapping else np.zeros(10)
        expected_x = numpy.arange(10.0)
        expected_out = expected_x.copy() if overlapping else numpy.zeros(10)
        legate_fuse.flush()
        source, target = x[:-1], out[1:]
        np.add(source * 2.0, 1.0, out=target)
        expected_out[1:] = expected_x[:-1] * 2.0 + 1.0
        legate_fuse.flush()
        numpy.testing.assert_array_equal(numpy.asarray(out), expected_out)


def lstm_steps(xp: Any, steps: int) -> Any:
    """The forward pass of cuPyNumeric's LSTM example, small: 17 tasks a step, slices of
    arrays made before the loop written each step, nothing read back."""
    n, b, d = steps + 1, 4, 8
    rng = numpy.random.default_rng(1)
    x = xp.array(rng.normal(size=(n, b, d)))
    w = xp.array(rng.normal(size=(2 * d, 4 * d)) / 4.0)
    hin, hout = xp.zeros((n, b, 2 * d)), xp.zeros((n, b, d))
    ifog, ifogf = xp.zeros((n, b, 4 * d)), xp.zeros((n, b, 4 * d))
    c, ct = xp.zeros((n, b, d)), xp.zeros((n, b, d))
    legate_fuse.flush()
    for t in range(1, n):
        hin[t, :, :d] = x[t]
        hin[t, :, d:] = hout[t - 1]
        ifog[t] = hin[t].dot(w)
        ifogf[t, :, :3 * d] = 1.0 / (1.0 + xp.exp(-ifog[t, :, :3 * d]))
        ifogf[t, :, 3 * d:] = xp.tanh(ifog[t, :, 3 * d:])
        c[t] = ifogf[t, :, :d] * ifogf[t, :, 3 * d:] + ifogf[t, :, d:2 * d] * c[t - 1]
        ct[t] = xp.tanh(c[t])
        hout[t] = ifogf[t, :, 2 * d:3 * d] * ct[t]
    return hout


def test_a_loop_without_reads_is_cut_whole_iterations_apart(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop that reads nothing back fills window after window. Each full window is cut a
    whole number of iterations in (analysis/cut.h), so that the next starts at the same point of
    the loop and replays the plan of the one before. Cut at the latest cheapest task, this
    loop's windows (of 100 tasks) started at four points of it in turn: five windows were
    planned anew, against three."""
    monkeypatch.setattr(session.window, "capacity", 100)
    planned, hits = session.stats.windows_planned, session.stats.plan_cache_hits
    launches = session.stats.fused_launches
    hout = lstm_steps(np, 39)
    legate_fuse.flush()
    windows = session.stats.windows_planned - planned
    new = windows - (session.stats.plan_cache_hits - hits)
    numpy.testing.assert_allclose(numpy.asarray(hout), lstm_steps(numpy, 39), rtol=1e-12)
    assert session.stats.fused_launches > launches + 100
    assert windows >= 10
    assert new <= 3  # the first (the loop's first step), the second, and the last (a part)

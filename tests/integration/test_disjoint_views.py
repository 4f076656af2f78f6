"""Views of one array that share no element (`C[t]` and `C[t - 1]`, column blocks) fuse in
one group: the analysis splits a root into memory classes by the box each view addresses
(src/cpp/ir/view_box.h). Checked against Legate's own overlap test and against fusion off."""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from legate_fuse import _core
from legate_fuse.plan.summary import PlanSummary
from legate_fuse.session import Session
from legate_fuse.unfused import KERNEL_FAILED

from .compare import run_both

SHAPE = (6, 5, 4)

# Hypothesis seeds NumPy's global generator, which Legate warns about (ranks could diverge).
pytestmark = pytest.mark.filterwarnings("ignore:(?s).*Seeding the random number generator")


def store_of(array: Any) -> Any:
    return array._thunk.base


def described(array: Any) -> Any:
    desc = _core.parse_store_desc(str(store_of(array)))
    assert desc is not None
    return desc


@st.composite
def views(draw: st.DrawFn) -> tuple[Any, ...]:
    """An index of basic indexing into SHAPE: per dimension an integer or a slice, and maybe a
    new axis (a Promote transform)."""
    def one(extent: int) -> Any:
        if draw(st.booleans()):
            return draw(st.integers(0, extent - 1))
        start = draw(st.integers(0, extent - 1))
        return slice(start, draw(st.integers(start + 1, extent)))
    index: list[Any] = [one(extent) for extent in SHAPE]
    if draw(st.booleans()):
        index.insert(draw(st.integers(0, len(index))), None)
    return tuple(index)


@settings(max_examples=150, deadline=None)
@given(views(), views(), st.booleans())
def test_views_apart_never_overlap_in_legates_own_test(first: tuple[Any, ...],
                                                       second: tuple[Any, ...],
                                                       transposed: bool) -> None:
    """What the analysis takes to be apart, Legate finds disjoint (LogicalStore.overlaps), and
    so does NumPy (the elements' offsets); for integers and slices, Legate's test and the
    analysis's agree exactly."""
    root = np.zeros(SHAPE)
    a, b = root[first], root[second]
    if transposed:
        b = b.T
    if described(a).root_key != described(b).root_key:
        return  # a copy (all indices integers: a 0-d value), not a view
    apart = _core.views_apart(described(a), described(b))
    legate_apart = not store_of(a).overlaps(store_of(b))
    if apart:
        assert legate_apart, (first, second, str(store_of(a)), str(store_of(b)))
    if not transposed:  # a transform the boxes do not read: never apart
        assert apart == legate_apart, (first, second, str(store_of(a)), str(store_of(b)))
    offsets = numpy.arange(numpy.prod(SHAPE)).reshape(SHAPE)
    other = offsets[second].T if transposed else offsets[second]
    assert not apart or numpy.intersect1d(offsets[first], other).size == 0


def lstm_steps(n: int = 5, b: int = 6, d: int = 4) -> list[Any]:
    """The cell of cuPyNumeric's LSTM example (examples/lstm_forward.py), on fixed inputs."""
    ifog = np.sin(np.arange(n * b * 4 * d, dtype=np.float64)).reshape(n, b, 4 * d)
    ifogf = np.zeros((n, b, 4 * d))
    c = np.zeros((n, b, d))
    ct = np.zeros((n, b, d))
    hout = np.zeros((n, b, d))
    for t in range(n):
        ifogf[t, :, :3 * d] = 1.0 / (1.0 + np.exp(-ifog[t, :, :3 * d]))
        ifogf[t, :, 3 * d:] = np.tanh(ifog[t, :, 3 * d:])
        c[t] = ifogf[t, :, :d] * ifogf[t, :, 3 * d:]
        if t > 0:
            c[t] += ifogf[t, :, d:2 * d] * c[t - 1]
        ct[t] = np.tanh(c[t])
        hout[t] = ifogf[t, :, 2 * d:3 * d] * ct[t]
    return [ifogf, c, ct, hout]


def lstm_backward_steps(n: int = 4, b: int = 5, d: int = 3, word: int = 3) -> list[Any]:
    """The backward pass of cuPyNumeric's LSTM example (examples/lstm_backward.py), on fixed
    inputs: blocks of columns written one by one, then read as one block."""
    def filled(*shape: int, phase: float) -> Any:
        size = int(numpy.prod(shape))
        return np.sin(np.arange(size, dtype=np.float64) + phase).reshape(shape)
    wlstm = filled(word + d, 4 * d, phase=0.5)
    dhout, ifogf = filled(n, b, d, phase=1.0), filled(n, b, 4 * d, phase=2.0)
    c, ct = filled(n, b, d, phase=3.0), filled(n, b, d, phase=4.0)
    difog, difogf = np.zeros((n, b, 4 * d)), np.zeros((n, b, 4 * d))
    dhin, dc, dh0 = np.zeros((n, b, word + d)), np.zeros((n, b, d)), np.zeros((1, d))
    for t in reversed(range(n)):
        tanh_ct = ct[t]
        difogf[t, :, 2 * d:3 * d] = tanh_ct * dhout[t]
        dc[t] += (1 - tanh_ct**2) * (ifogf[t, :, 2 * d:3 * d] * dhout[t])
        if t > 0:
            difogf[t, :, d:2 * d] = c[t - 1] * dc[t]
            dc[t - 1] += ifogf[t, :, d:2 * d] * dc[t]
        difogf[t, :, :d] = ifogf[t, :, 3 * d:] * dc[t]
        difogf[t, :, 3 * d:] = ifogf[t, :, :d] * dc[t]
        difog[t, :, 3 * d:] = (1 - ifogf[t, :, 3 * d:] ** 2) * difogf[t, :, 3 * d:]
        y = ifogf[t, :, :3 * d]
        difog[t, :, :3 * d] = (y * (1.0 - y)) * difogf[t, :, :3 * d]
        dhin[t] = difog[t].dot(wlstm.transpose())
        if t > 0:
            dhout[t - 1, :] += dhin[t, :, word:]
        else:
            dh0[0] += np.sum(dhin[t, :, word:], 0)
    return [difog, difogf, dhin, dc, dhout, dh0]


def test_the_lstm_backward_pass_keeps_its_values() -> None:
    run_both(lstm_backward_steps)


def test_the_lstm_cell_fuses_across_time_steps_of_one_array(plans: list[PlanSummary]) -> None:
    run_both(lstm_steps)
    fused_plans = [p for p in plans if any(kind == "fused" for kind, *_ in p.groups)]
    assert fused_plans
    reasons = [reason for p in fused_plans for *_, reason in p.groups]
    assert not [r for r in reasons if "another view of a root" in r], reasons


def test_disjoint_halves_read_and_written_in_turn_keep_their_values() -> None:
    def program() -> list[Any]:
        x = np.arange(100, dtype=np.float64) / 7.0
        x[50:] = x[:50] * 2.0   # apart: may fuse with what follows
        x[:50] = x[50:] + 1.0   # reads the half just written
        y = x[:50] * x[50:]
        x[1:] = x[:-1] * 3.0    # overlapping views: never in one group
        x[:10] = np.sqrt(x[90:]) - y[:10]
        return [x, y]

    run_both(program)


def test_periodic_ends_copied_after_an_interior_update_fuse_and_keep_their_values(
        plans: list[PlanSummary], session: Session) -> None:
    """The ends of each row copied from the columns next to the opposite end (CFD's periodic
    boundary), after an update of the interior that overlaps them all: the two copies touch
    views apart from each other and run as one fused task."""
    def program() -> list[Any]:
        p = np.sin(np.arange(12 * 9, dtype=np.float64)).reshape(12, 9)
        for _ in range(3):
            p[1:-1, 1:-1] = 0.25 * (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2])
            p[:, 0] = p[:, -2]
            p[:, -1] = p[:, 1]
            p[0, :] = p[1, :]
            p[-1, :] = p[-2, :]
        return [p]

    failed = sum(n for (_, _, why), n in session.stats.unfused.items() if why == KERNEL_FAILED)
    run_both(program)
    # Every group launched its own kernel (none fell back to the copies as built).
    assert sum(n for (_, _, why), n in session.stats.unfused.items()
               if why == KERNEL_FAILED) == failed
    fused_copies = [tasks for plan in plans for kind, tasks, *_ in plan.groups
                    if kind == "fused" and all(plan.ops[t] == "UNARY_OP.COPY" for t in tasks)]
    assert len(fused_copies) >= 3 and all(len(tasks) == 2 for tasks in fused_copies), plans

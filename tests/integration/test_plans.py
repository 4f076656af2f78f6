"""Plans of the DESIGN.md examples equal the groups derived by hand (see each test)."""

from __future__ import annotations

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse.backend.launch import runs_one_point
from legate_fuse.plan.summary import PlanSummary
from legate_fuse.session import Session

from . import plan_programs as programs


def flushed(plans: list[PlanSummary]) -> list[PlanSummary]:
    legate_fuse.flush()
    result = list(plans)
    plans.clear()
    return result


def kinds_and_tasks(summary: PlanSummary) -> list[tuple[str, tuple[int, ...]]]:
    return [(kind, tasks) for kind, tasks, _, _ in summary.groups]


def test_elementwise_chain_is_one_group(plans: list[PlanSummary]) -> None:
    a, b = programs.chain_inputs(np)
    flushed(plans)
    d = programs.chain(np, a, b)
    (plan,) = flushed(plans)
    # a*2, b*3, +, a/4, -: one group; the four intermediates are temporaries, d is kept.
    assert plan.ops == ("BINARY_OP.MULTIPLY", "BINARY_OP.MULTIPLY", "BINARY_OP.ADD",
                        "BINARY_OP.DIVIDE", "BINARY_OP.SUBTRACT")
    assert plan.groups == (("fused", (0, 1, 2, 3, 4), 4, "end of window"),)
    assert float(d[10]) == pytest.approx(10 / 999 * 1.75 + (1 + 10 / 999) * 3.0)


def test_jacobi_steps_split_where_a_step_reads_the_grid_the_previous_one_wrote(
    plans: list[PlanSummary],
) -> None:
    a, b = programs.jacobi_grids(np)
    flushed(plans)
    programs.jacobi_step(a, b)
    programs.jacobi_step(b, a)
    (plan,) = flushed(plans)
    # Each step: three additions, the multiply by 0.25 and the copy into the interior view.
    step = ("BINARY_OP.ADD", "BINARY_OP.ADD", "BINARY_OP.ADD", "BINARY_OP.MULTIPLY",
            "UNARY_OP.COPY")
    assert plan.ops == step + step
    # The second step reads b through shifted views; the first wrote b's interior: rule 3.
    assert kinds_and_tasks(plan) == [("fused", (0, 1, 2, 3, 4)), ("fused", (5, 6, 7, 8, 9))]
    assert [temporaries for _, _, temporaries, _ in plan.groups] == [4, 4]
    assert "another view of a root the group writes" in plan.groups[0][3]


def test_black_scholes_pricing_is_one_group(plans: list[PlanSummary]) -> None:
    inputs = programs.black_scholes_inputs(np)
    flushed(plans)
    call, put = programs.price(np, inputs)
    (plan,) = flushed(plans)
    # All 65 tasks are element-wise on the same shape; the scalar conversions for `d > 0` are
    # 0-d prologue tasks. Only call and put are kept: every other result is a temporary.
    assert len(plan.ops) == 65
    assert plan.ops.count("CONVERT.NOOP") == 2
    assert kinds_and_tasks(plan) == [("fused", tuple(range(65)))]
    assert plan.groups[0][2] == 63
    assert float(call[0]) >= 0 and float(put[0]) >= 0


def test_cg_iteration_groups(plans: list[PlanSummary]) -> None:
    state = programs.cg_state(np)
    flushed(plans)
    converged = programs.cg_until_test(np, state)
    (first,) = [p for p in plans]
    plans.clear()
    programs.cg_after_test(np, state)
    (second,) = flushed(plans)
    assert not converged
    # Ap = 4p - p_n - p_s - p_w - p_e and sum(p * Ap): one group ending in the reduction.
    # alpha = rsold / sum reads the reduction target (rule 5). The program keeps alpha, a 0-d
    # value: where each fused task runs as one point, the group of the x and r updates and
    # sum(r * r) computes and writes it; over several points, each would write it, and it runs
    # alone. sqrt(rsnew) < tol reads that reduction: a group of 0-d tasks. The read of its
    # result flushed the window.
    assert first.ops == ("BINARY_OP.MULTIPLY", "BINARY_OP.SUBTRACT", "BINARY_OP.SUBTRACT",
                         "BINARY_OP.SUBTRACT", "BINARY_OP.SUBTRACT", "BINARY_OP.MULTIPLY",
                         "SCALAR_UNARY_RED.SUM", "BINARY_OP.DIVIDE", "BINARY_OP.MULTIPLY",
                         "BINARY_OP.ADD", "BINARY_OP.MULTIPLY", "BINARY_OP.SUBTRACT",
                         "BINARY_OP.MULTIPLY", "SCALAR_UNARY_RED.SUM", "UNARY_OP.SQRT",
                         "BINARY_OP.LESS")
    if runs_one_point():
        assert kinds_and_tasks(first) == [("fused", (0, 1, 2, 3, 4, 5, 6)),
                                          ("fused", (7, 8, 9, 10, 11, 12, 13)),
                                          ("fused", (14, 15))]
        assert [t for _, _, t, _ in first.groups] == [5, 3, 1]
    else:
        assert kinds_and_tasks(first) == [("fused", (0, 1, 2, 3, 4, 5, 6)), ("single", (7,)),
                                          ("fused", (8, 9, 10, 11, 12, 13)), ("fused", (14, 15))]
        assert "writes a 0-d value read after" in first.groups[1][3]
        assert [t for _, _, t, _ in first.groups] == [5, 0, 3, 1]
    # beta = rsnew / rsold, then p = r + beta * p into the interior view: one group.
    assert second.ops == ("BINARY_OP.DIVIDE", "BINARY_OP.MULTIPLY", "BINARY_OP.ADD",
                          "UNARY_OP.COPY")
    assert kinds_and_tasks(second) == [("fused", (0, 1, 2, 3))]


# Every window planned: past the payoff tuner's warm-up, the 200 convergence tests would let
# it run some iterations unfused (no window planned), which is right at the default settings.
@pytest.mark.usefixtures("always_fuse")
def test_loop_windows_come_from_the_plan_cache(session: Session) -> None:
    state = programs.cg_state(np, m=24)
    for _ in range(2):  # the first iteration's windows are new
        programs.cg_until_test(np, state)
        programs.cg_after_test(np, state)
    before = legate_fuse.stats()
    for _ in range(200):
        programs.cg_until_test(np, state)  # its convergence test flushes the window
        programs.cg_after_test(np, state)
    after = legate_fuse.stats()
    windows = after["windows_planned"] - before["windows_planned"]
    hits = after["plan_cache_hits"] - before["plan_cache_hits"]
    assert windows == 200
    assert hits / windows >= 0.99


def test_unused_result_is_dead_and_a_reachable_one_is_not(plans: list[PlanSummary]) -> None:
    a = np.ones(100)
    flushed(plans)
    t = a * 2.0 + 1.0
    del t  # nothing can observe the product or the sum any more
    (plan,) = flushed(plans)
    assert plan.dead_tasks == (0, 1)
    assert plan.groups == (("single", (), 2, "end of window"),)


def test_a_view_keeps_its_root_reachable(plans: list[PlanSummary]) -> None:
    a = np.ones(100)
    flushed(plans)
    t = a * 2.0 + 1.0
    v = t[2:]
    del t
    (plan,) = flushed(plans)
    assert plan.dead_tasks == ()
    assert plan.groups == (("fused", (0, 1), 1, "end of window"),)  # the product: temporary
    assert float(v[0]) == 3.0


def test_a_store_held_outside_cupynumeric_stays_reachable(plans: list[PlanSummary]) -> None:
    a = np.ones(100)
    flushed(plans)
    t = a * 2.0 + 1.0
    store = t._thunk.base  # held by code that is not a cuPyNumeric array
    del t
    (plan,) = flushed(plans)
    assert plan.dead_tasks == ()
    assert plan.groups == (("fused", (0, 1), 1, "end of window"),)
    assert store.volume == 100


def test_a_full_window_is_cut_between_loop_iterations(plans: list[PlanSummary],
                                                      session: Session) -> None:
    def step(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        scaled = x * 0.5  # locals the function still holds while the window fills up
        shifted = scaled + y
        squared = shifted * shifted
        return squared * 0.25 + y  # five tasks per iteration

    x, y = np.ones(1000), np.full(1000, 0.5)
    expected = numpy.ones(1000)
    for _ in range(7):
        expected = (expected * 0.5 + 0.5) ** 2 * 0.25 + 0.5
    flushed(plans)
    session.window.capacity = 12  # not a multiple of the iteration's five tasks
    for _ in range(7):
        x = step(x, y)
    plans_seen = flushed(plans)
    # Each full window ran whole iterations (two of them: at least half the window), so no
    # value inside an iteration had to be allocated; the last iteration ran at the read.
    assert [len(p.ops) for p in plans_seen] == [10, 10, 10, 5]
    assert all(temporaries == len(tasks) - 1 for p in plans_seen
               for _, tasks, temporaries, _ in p.groups)
    numpy.testing.assert_allclose(numpy.asarray(x), expected)

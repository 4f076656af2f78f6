"""Random draws in the analysis (lift/random_draws.py, DESIGN.md's *Random draws*), on
synthetic windows: a draw's result written whole before the kernel, which reads it; a draw
never dead; the draws of a group listed in program order."""

from __future__ import annotations

from legate_fuse import _core

from .window_builder import WindowBuilder, groups, region

R, S = region(0), region(1)  # the draws' results
Y, P, Q = region(3), region(4), region(5)


def draw(w: WindowBuilder, result: str = R) -> int:
    return w.task((result, "W_WHOLE"), op="BITGENERATOR", fused_alone=True, draws=True)


def test_a_draw_and_the_work_on_its_numbers_are_one_group() -> None:
    w = WindowBuilder()
    draw(w)
    w.task((P, "W"), (R, "R"), (Y, "R"), op="BINARY_OP.SUBTRACT")
    w.keep_alive(Y, P)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    (group,) = plan.groups
    descs = w.descriptions
    assert [(descs[result], task) for result, task in group.draws] == [(R, 0)]
    assert group.products == []
    roles = [(descs[a.store], a.privilege) for a in group.args]
    assert roles == [(Y, _core.Privilege.READ), (R, _core.Privilege.WRITE_WHOLE),
                     (P, _core.Privilege.WRITE)]
    assert group.temporaries == []  # the draw's result is memory the draw writes
    assert "BITGENERATOR" not in group.kernel_text


def test_a_draw_nothing_reads_is_not_dead() -> None:
    """It moves its generator on: the draws after it get the numbers after its own."""
    w = WindowBuilder()
    draw(w)  # its result dropped
    draw(w, S)
    w.task((P, "W"), (S, "R"), op="UNARY_OP.EXP")
    w.keep_alive(P)
    plan = w.plan()
    assert [list(g.dead_tasks) for g in plan.groups] == [[]] * len(plan.groups)
    assert sorted(t for g in plan.groups for t in g.tasks) == [0, 1, 2]
    assert [task for g in plan.groups for _, task in g.draws] == [0, 1]


def test_a_draw_alone_is_a_fused_task_that_only_draws() -> None:
    w = WindowBuilder()
    draw(w)
    w.keep_alive(R)
    plan = w.plan()
    assert groups(plan) == [("fused", [0])]
    assert [task for _, task in plan.groups[0].draws] == [0]


def test_draws_in_one_group_in_program_order() -> None:
    w = WindowBuilder()
    draw(w)
    w.task((P, "W"), (R, "R"), op="UNARY_OP.EXP")
    draw(w, S)
    w.task((Q, "W"), (S, "R"), (P, "R"), op="BINARY_OP.ADD")
    w.keep_alive(Q)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1, 2, 3])]
    descs = w.descriptions
    assert [(descs[r], t) for r, t in plan.groups[0].draws] == [(R, 0), (S, 2)]


def test_a_result_written_whole_by_anything_else_is_a_product_s() -> None:
    """Only a draw's result is read as it is written: the same task not drawing is a
    product's result without its promotion, which the window does not have."""
    w = WindowBuilder()
    w.task((R, "W_WHOLE"), op="BITGENERATOR", fused_alone=True)
    w.task((P, "W"), (R, "R"), op="UNARY_OP.EXP")
    w.keep_alive(P)
    assert groups(w.plan()) == [("opaque", [0]), ("single", [1])]


def test_a_draw_s_result_takes_the_memory_of_one_let_go() -> None:
    """A draw writes all of its result before anything reads it: like any array first written
    whole, it runs in the memory of one of its shape the window is done with (a loop's draws
    each iteration, in one window, need not each get new memory)."""
    from .test_shared_storage import shared

    w = WindowBuilder()
    for result, flags in ((region(10), region(12)), (region(11), region(13))):
        draw(w, result)
        w.task((flags, "W"), (result, "R"), op="UNARY_OP.EXP")
        w.task((flags, "R"), op=-1)  # read by a task the plan does not launch
    assert shared(w) == [(region(11), region(10))]

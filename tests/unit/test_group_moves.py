"""Tasks at the end of a group that only feed the task closing it start the next group instead:
their results are then never allocated (src/cpp/analysis/grouping.cc, tasks_to_move)."""

from __future__ import annotations

from .window_builder import WindowBuilder, groups, region, shifted

P = region(0)  # p, padded: the program keeps it
R = region(1, (98,))
TWICE = region(4, (98,))  # 2 * p[1:-1]
STENCIL = region(5, (98,))  # 2 * p[1:-1] - p[:-2]


def cg_window(*, twice_live: bool = False, stencil_op: int | str = "BINARY_OP.SUBTRACT"
              ) -> WindowBuilder:
    """CG's update of p, then the start of the stencil on the new p."""
    w = WindowBuilder()
    w.task((shifted(0, 1), "W"), (R, "R"), op="BINARY_OP.ADD")     # p[1:-1] = r + ...
    w.task((TWICE, "W"), (shifted(0, 1), "R"), op="BINARY_OP.MULTIPLY")  # 2 * p[1:-1]
    w.task((STENCIL, "W"), (TWICE, "R"), (shifted(0, 0), "R"), op=stencil_op)  # ... - p[:-2]
    w.keep_alive(P, R, STENCIL, *([TWICE] if twice_live else []))
    return w


def test_a_task_feeding_only_the_closing_task_moves_to_its_group() -> None:
    w = cg_window()
    plan = w.plan()
    # Kept with the update of p, 2 * p[1:-1] would be written out for the stencil to read.
    assert groups(plan) == [("single", [0]), ("fused", [1, 2])]
    assert [w.descriptions[s] for s in plan.groups[1].temporaries] == [TWICE]
    assert "tasks from 1 join it in the next group" in plan.groups[0].end_reason


def test_a_result_the_program_keeps_does_not_move() -> None:
    plan = cg_window(twice_live=True).plan()
    assert groups(plan) == [("fused", [0, 1]), ("single", [2])]


def test_nothing_moves_when_the_closing_task_could_not_join_them() -> None:
    plan = cg_window(stencil_op=-1).plan()  # an opaque task: it joins no group
    assert groups(plan) == [("fused", [0, 1]), ("opaque", [2])]


def test_the_move_writing_out_the_fewest_bytes_is_taken() -> None:
    w = WindowBuilder()
    scaled = region(6, (98,))
    w.task((shifted(0, 1), "W"), (R, "R"), op="BINARY_OP.ADD")
    w.task((TWICE, "W"), (shifted(0, 1), "R"), op="BINARY_OP.MULTIPLY")
    w.task((scaled, "W"), (TWICE, "R"), op="BINARY_OP.MULTIPLY")  # reads 2 * p[1:-1]
    w.task((STENCIL, "W"), (scaled, "R"), (shifted(0, 0), "R"), op="BINARY_OP.SUBTRACT")
    w.keep_alive(P, R, STENCIL)
    plan = w.plan()
    # Moving only the last task would write 2 * p[1:-1] out instead: both move.
    assert groups(plan) == [("single", [0]), ("fused", [1, 2, 3])]
    assert sorted(w.descriptions[s] for s in plan.groups[1].temporaries) == sorted(
        [TWICE, scaled])

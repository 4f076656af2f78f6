"""The kernel specification the analysis builds for each fused group (analysis/kernel_builder.h),
on synthetic windows."""

from __future__ import annotations

from legate_fuse import _core
from legate_fuse.plan.kernel_spec import (
    ARG,
    NO_OPERAND,
    REGISTER,
    ROLE_INPUT,
    ROLE_OUTPUT,
    ROLE_REDUCTION,
    SCALAR,
    kernel_id,
)

from .window_builder import WindowBuilder, region, value

A, B, C, T = region(0), region(1), region(2), region(3)
SUM_REDOP = 400  # any id: the kernel builder passes redops through


def fused(plan: _core.Plan) -> _core.Group:
    (group,) = [g for g in plan.groups if g.kind == "fused"]
    return group


def test_a_chain_keeps_its_intermediate_in_a_register() -> None:
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((C, "W"), (T, "R"), (A, "R"), op="BINARY_OP.MULTIPLY")
    w.keep_alive(A, B, C)
    group = fused(w.plan())
    spec = group.kernel
    assert spec is not None and group.kernel_error == ""
    assert spec.args == [(ROLE_INPUT, "float64", False), (ROLE_INPUT, "float64", False),
                         (ROLE_OUTPUT, "float64", False)]
    assert [w.descriptions[a.store] for a in group.args] == [A, B, C]
    assert spec.nodes == [("BINARY_OP.ADD", "float64", [(ARG, 0), (ARG, 1)]),
                          ("BINARY_OP.MULTIPLY", "float64", [(REGISTER, 0), (ARG, 0)])]
    assert spec.stores == [(2, 1)]
    assert spec.reductions == []


def test_arguments_are_inputs_then_outputs_then_reductions() -> None:
    total = value(50)
    w = WindowBuilder()
    w.task((C, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((total, "RED", SUM_REDOP), (C, "R"), (A, "R"), op="DOT")
    w.keep_alive(A, B, C, total)
    group = fused(w.plan())
    spec = group.kernel
    assert spec is not None
    assert [role for role, _, _ in spec.args] == [ROLE_INPUT, ROLE_INPUT, ROLE_OUTPUT,
                                                  ROLE_REDUCTION]
    assert spec.args[3] == (ROLE_REDUCTION, "float64", True)
    assert group.args[3].redop == SUM_REDOP
    # DOT multiplies, then sums into the accumulator of argument 3.
    assert spec.nodes[1] == ("BINARY_OP.MULTIPLY", "float64", [(REGISTER, 0), (ARG, 0)])
    # (a dot product: each product folded by a fused multiply-add, as cuPyNumeric folds it)
    assert spec.reductions == [(3, "SUM_PRODUCT", (REGISTER, 1), NO_OPERAND)]


def test_a_masked_reduction_names_its_mask() -> None:
    total, mask = value(50), region(4, dtype="bool")
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((total, "RED", SUM_REDOP), (T, "R"), (mask, "R"), op="SCALAR_UNARY_RED.MAX.WHERE")
    w.keep_alive(A, B, mask, total)
    spec = fused(w.plan()).kernel
    assert spec is not None
    assert spec.reductions == [(3, "MAX", (REGISTER, 0), (ARG, 2))]


def test_a_future_read_through_two_views_is_one_argument() -> None:
    one = value(40)
    promoted = ("Store(41) {shape: [100], transform: Promote(extra_dim: 0, dim_size: 100), "
                "type: float64, storage: Storage(40) {kind: Future, level: 0}}")
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (one, "R"), op="BINARY_OP.ADD")
    w.task((C, "W"), (T, "R"), (promoted, "R"), op="BINARY_OP.MULTIPLY")
    w.keep_alive(A, C)
    group = fused(w.plan())
    spec = group.kernel
    assert spec is not None, group.kernel_error
    assert spec.args == [(ROLE_INPUT, "float64", False), (ROLE_INPUT, "float64", True),
                         (ROLE_OUTPUT, "float64", False)]
    assert spec.nodes[1][2] == [(REGISTER, 0), (ARG, 1)]


def test_a_cached_plan_carries_kernels_of_the_windows_own_dtypes() -> None:
    # Plans are cached with their kernels: a window differing only in its dtypes is planned
    # again, and found again the next time.
    analyzer = _core.Analyzer()
    specs = []
    for dtype in ("float64", "float32", "float32", "float64"):
        a, b, c, t = (region(r, dtype=dtype) for r in range(4))
        w = WindowBuilder(analyzer=analyzer)
        w.task((t, "W"), (a, "R"), (b, "R"), op="BINARY_OP.ADD")
        w.task((c, "W"), (t, "R"), (a, "R"), op="BINARY_OP.MULTIPLY")
        w.keep_alive(a, b, c)
        plan, hit = analyzer.analyze(w.descriptions, w.live, w.encoded)
        assert hit == (len(specs) >= 2)
        spec = fused(plan).kernel
        assert spec is not None
        specs.append(spec)
    assert [[node[1] for node in spec.nodes] for spec in specs] == [
        ["float64", "float64"], ["float32", "float32"], ["float32", "float32"],
        ["float64", "float64"]]
    assert kernel_id(specs[0]) != kernel_id(specs[1])
    assert kernel_id(specs[1]) == kernel_id(specs[2])


def test_a_group_a_kernel_cannot_express_says_why() -> None:
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((C, "W"), (T, "R"), (A, "R"), op=7)  # an op id the analyzer never named
    w.keep_alive(A, B, C)
    group = fused(w.plan())
    assert group.kernel is None
    assert "not lifted" in group.kernel_error


def test_the_kernel_id_is_a_hash_of_the_canonical_text() -> None:
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((C, "W"), (T, "R"), (A, "R"), op="BINARY_OP.MULTIPLY")
    w.keep_alive(A, B, C)
    spec = fused(w.plan()).kernel
    assert spec is not None
    assert spec.describe() == ("arg 0: input float64\narg 1: input float64\n"
                               "arg 2: output float64\n"
                               "r0 = BINARY_OP.ADD -> float64 (arg 0, arg 1)\n"
                               "r1 = BINARY_OP.MULTIPLY -> float64 (r0, arg 0)\n"
                               "arg 2 <- r1\n")
    again = _core.KernelSpec(spec.args, spec.scalar_types, spec.nodes, spec.stores,
                             spec.reductions)
    assert kernel_id(again) == kernel_id(spec)
    assert len(kernel_id(spec)) == 32


def test_run_time_scalars_get_slots_named_by_their_task() -> None:
    """Each clip takes two scalar slots of its result type, in program order; the group says
    which task's which value fills each slot (its launch reads them from that task)."""
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), (B, "R"), op="BINARY_OP.ADD")
    w.task((C, "W"), (T, "R"), op="UNARY_OP.CLIP")
    w.task((T, "W"), (C, "R"), op="UNARY_OP.CLIP")
    w.task((C, "W"), (T, "R"), (A, "R"), op="BINARY_OP.MULTIPLY")
    w.keep_alive(A, B, C)
    group = fused(w.plan())
    spec = group.kernel
    assert spec is not None
    assert spec.scalar_types == ["float64"] * 4
    assert spec.nodes[1] == ("UNARY_OP.CLIP", "float64", [(REGISTER, 0), (SCALAR, 0), (SCALAR, 1)])
    assert spec.nodes[2] == ("UNARY_OP.CLIP", "float64", [(REGISTER, 1), (SCALAR, 2), (SCALAR, 3)])
    assert group.scalar_sources == [(1, 0), (1, 1), (2, 0), (2, 1)]


def test_a_value_computed_twice_is_computed_once() -> None:
    """Two tasks of the same operation on the same operands share one register (a common
    subexpression): the product reads it twice."""
    w = WindowBuilder()
    w.task((T, "W"), (A, "R"), op="UNARY_OP.SQRT")
    w.task((B, "W"), (A, "R"), op="UNARY_OP.SQRT")
    w.task((C, "W"), (T, "R"), (B, "R"), op="BINARY_OP.MULTIPLY")
    w.keep_alive(A, C)
    spec = fused(w.plan()).kernel
    assert spec is not None
    assert spec.nodes == [("UNARY_OP.SQRT", "float64", [(ARG, 0)]),
                          ("BINARY_OP.MULTIPLY", "float64", [(REGISTER, 0), (REGISTER, 0)])]


def two_tasks_on_one_array(op: str) -> _core.KernelSpec:
    """The kernel of B = op(A); C = op(A), both kept."""
    w = WindowBuilder()
    w.task((B, "W"), (A, "R"), op=op)
    w.task((C, "W"), (A, "R"), op=op)
    w.keep_alive(A, B, C)
    spec = fused(w.plan()).kernel
    assert spec is not None
    return spec


def test_values_stored_twice_come_from_one_register() -> None:
    spec = two_tasks_on_one_array("UNARY_OP.EXP")
    assert spec.nodes == [("UNARY_OP.EXP", "float64", [(ARG, 0)])]
    assert sorted(spec.stores) == [(1, 0), (2, 0)]


def test_operations_on_run_time_scalars_are_never_shared() -> None:
    """Two clips of one array have scalar slots of their own, whose values may differ."""
    assert len(two_tasks_on_one_array("UNARY_OP.CLIP").nodes) == 2

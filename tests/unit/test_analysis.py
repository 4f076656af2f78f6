"""The fusion analysis, rule by rule, on synthetic windows (no Legate)."""

from __future__ import annotations

import pytest

from legate_fuse import _core

from .window_builder import WindowBuilder, groups, region, shifted, value

A, B, C, D, T1, T2, T3 = (region(i) for i in range(7))


def test_elementwise_chain_is_one_group_with_temporaries() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))          # t1 = a * 2
    w.task((T2, "W"), (B, "R"))          # t2 = b * 3
    w.task((T3, "W"), (T1, "R"), (T2, "R"))  # t3 = t1 + t2
    w.task((D, "W"), (T3, "R"), (A, "R"))    # d = t3 - a / 4 (folded)
    w.keep_alive(A, B, D)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1, 2, 3])]
    (group,) = plan.groups
    descs = w.descriptions
    assert sorted(descs[s] for s in group.temporaries) == sorted([T1, T2, T3])
    assert plan.group_bytes == [3 * 100 * 8]
    reads = [descs[a.store] for a in group.args if a.privilege == _core.Privilege.READ]
    writes = [descs[a.store] for a in group.args if a.privilege == _core.Privilege.WRITE]
    assert reads == [A, B] and writes == [D]


def test_rule1_opaque_task_splits_the_window() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((T2, "W"), (T1, "R"), op=-1)
    w.task((D, "W"), (T2, "R"))
    w.keep_alive(D)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("opaque", [1]), ("single", [2])]
    assert plan.groups[0].end_reason == "task 1: opaque task"


def test_rule2_different_shapes_split() -> None:
    small = region(9, (50,))
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((small, "W"), (region(8, (50,)), "R"))
    w.keep_alive(T1, small)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1])]
    assert "shape" in plan.groups[0].end_reason


def test_rule2_a_task_over_an_empty_array_is_not_fusible() -> None:
    # Its launch runs no point: a 0-d value computed in its group would never be computed.
    a, t, d = (region(20 + i, (0,)) for i in range(3))
    w = WindowBuilder()
    w.task((t, "W"), (a, "R"))
    w.task((d, "W"), (t, "R"))
    w.keep_alive(a, d)
    plan = w.plan()
    assert groups(plan) == [("opaque", [0]), ("opaque", [1])]
    assert "empty" in plan.groups[0].end_reason


def test_a_value_read_after_the_group_is_written_by_it_only_from_one_point() -> None:
    # alpha = rho / pq, then x += alpha * p; the program keeps alpha. Over several points each
    # would write alpha: its task runs alone. A launch of one point writes it once.
    rho, pq, alpha, x, p, t = value(60), value(61), value(62), region(63), region(64), region(65)
    analyzer = _core.Analyzer()  # one plan cache: the two windows differ only in one_point
    for one_point, expected in ((False, [("single", [0]), ("fused", [1, 2])]),
                                (True, [("fused", [0, 1, 2])])):
        w = WindowBuilder(one_point=one_point, analyzer=analyzer)
        w.task((alpha, "W"), (rho, "R"), (pq, "R"))
        w.task((t, "W"), (alpha, "R"), (p, "R"))
        w.task((x, "RW"), (t, "R"))
        w.keep_alive(rho, pq, alpha, x, p)
        plan = w.plan()
        assert groups(plan) == expected, one_point
        assert list(plan.groups[-1].prologue) == ([] if not one_point else [0])


def test_rule2_unaligned_task_is_not_fusible() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((T2, "W"), (T1, "R"), aligned=False)
    w.keep_alive(T2)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("opaque", [1])]
    assert plan.groups[1].end_reason == "arguments not aligned"


def test_rule3_stencil_reading_a_written_root_through_a_shift_splits() -> None:
    w = WindowBuilder()
    w.task((shifted(0, 1), "W"), (shifted(1, 1), "R"))  # a[1:-1] = f(b[1:-1])
    w.task((shifted(5, 0), "W"), (shifted(0, 0), "R"), (shifted(0, 2), "R"))  # c = a[:-2]+a[2:]
    w.keep_alive(A, shifted(5, 0))
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1])]
    assert "another view of a root the group writes" in plan.groups[0].end_reason


def test_rule3_reading_through_the_written_view_joins() -> None:
    w = WindowBuilder()
    w.task((shifted(0, 1), "W"), (shifted(1, 1), "R"))
    w.task((shifted(2, 1), "W"), (shifted(0, 1), "R"))
    w.keep_alive(shifted(2, 1), A)
    assert groups(w.plan()) == [("fused", [0, 1])]


def test_rule3_views_apart_within_a_class_of_overlapping_views_join() -> None:
    # Periodic ends copied after an update of the interior, which overlaps all four ends:
    # one memory class; the two copies touch four views apart from each other and fuse.
    def ends(offset: int) -> str:
        return shifted(0, offset, (10,))
    w = WindowBuilder()
    interior, t = shifted(0, 5, (90,)), region(4, (90,))
    w.task((interior, "W"), (t, "R"))        # a[5:95] = t
    w.task((ends(0), "W"), (ends(80), "R"))  # a[:10] = a[80:90]
    w.task((ends(90), "W"), (ends(10), "R"))  # a[90:] = a[10:20]
    w.keep_alive(A, t)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("fused", [1, 2])]
    w.task((ends(5), "W"), (ends(0), "R"))  # a[5:15] = a[:10]: overlaps both copies' views
    w.keep_alive(ends(5))
    assert groups(w.plan()) == [("single", [0]), ("fused", [1, 2]), ("single", [3])]


def test_plan_cache_distinguishes_views_apart_from_views_that_overlap() -> None:
    def window(first_source: int, second_source: int) -> WindowBuilder:
        w = WindowBuilder(analyzer=analyzer)
        w.task((shifted(0, 5, (90,)), "W"), (region(4, (90,)), "R"))
        w.task((shifted(0, 0, (10,)), "W"), (shifted(0, first_source, (10,)), "R"))
        w.task((shifted(0, 90, (10,)), "W"), (shifted(0, second_source, (10,)), "R"))
        w.keep_alive(A)
        return w
    analyzer = _core.Analyzer()
    # The two sources overlap each other: both are read, the copies fuse.
    assert groups(window(20, 25).plan()) == [("single", [0]), ("fused", [1, 2])]
    # As many pairs of views apart, but a[90:] = a[5:15] reads what a[:10] = ... wrote.
    assert groups(window(20, 5).plan()) == [("single", [0]), ("single", [1]), ("single", [2])]


def test_rule4_write_after_read_through_another_view_splits() -> None:
    w = WindowBuilder()
    t1 = region(4, (98,))
    w.task((t1, "W"), (shifted(0, 2), "R"))   # t1 = a[2:]
    w.task((shifted(0, 0), "W"), (t1, "R"))   # a[:-2] = t1
    w.keep_alive(A)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1])]
    assert "another view of a root the group reads" in plan.groups[0].end_reason


def test_rule4_in_place_update_through_the_same_view_joins() -> None:
    one = value(40)
    w = WindowBuilder()
    w.task((A, "W"), (A, "R"), (one, "R"))   # z += 1
    w.task((A, "W"), (A, "R"), (B, "R"))     # z *= b
    w.keep_alive(A, B)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    privileges = [(w.descriptions[a.store], a.privilege) for a in plan.groups[0].args]
    # In the fused task's order: inputs, then outputs.
    assert privileges == [(A, _core.Privilege.READ), (one, _core.Privilege.READ),
                          (B, _core.Privilege.READ), (A, _core.Privilege.WRITE)]
    assert list(plan.groups[0].temporaries) == []


def step(root: int, t: int, columns: tuple[int, int] = (0, 3)) -> str:
    """C[t, :, first:last] of a root C of shape (n, 4, 3), as Legate describes it."""
    first, last = columns
    shift = f"Shift(dim: 1, offset: -{first}) >> " if first else ""
    return region(root, (4, last - first), space=40 + 4 * t + first,
                  transform=f"{shift}Project(dim: 0, coord: {t})")


def test_rule3_a_view_apart_from_the_written_one_joins_and_is_read_from_memory() -> None:
    # C[1] = C[0] * b; H[1] = C[1] + C[0]: LSTM's cell update. C[1] and C[0] share no element.
    b = region(2, (4, 3))
    w = WindowBuilder()
    w.task((step(0, 1), "W"), (step(0, 0), "R"), (b, "R"), op="BINARY_OP.MULTIPLY")
    w.task((step(1, 1), "W"), (step(0, 1), "R"), (step(0, 0), "R"), op="BINARY_OP.ADD")
    w.keep_alive(region(0, (5, 4, 3)), region(1, (5, 4, 3)), b)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    reads = [w.descriptions[a.store] for a in plan.groups[0].args
             if a.privilege == _core.Privilege.READ]
    assert reads == [step(0, 0), b]  # C[0] from memory, never C[1]'s value
    assert plan.groups[0].kernel is not None, plan.groups[0].kernel_error


def test_rule4_writing_a_view_apart_from_one_read_joins() -> None:
    # IFOGf[:, :2] = sigmoid(IFOG[:, :2]); IFOGf[:, 2:] = tanh(IFOG[:, 2:]); and the same with
    # the output read before its other columns are written.
    w = WindowBuilder()
    w.task((step(1, 0, (0, 2)), "W"), (step(0, 0, (0, 2)), "R"), op="UNARY_OP.EXP")
    w.task((step(1, 0, (2, 3)), "W"), (step(0, 0, (2, 3)), "R"), op="UNARY_OP.TANH")
    w.task((step(1, 1, (0, 2)), "W"), (step(1, 0, (0, 2)), "R"), op="UNARY_OP.TANH")
    w.keep_alive(region(0, (5, 4, 3)), region(1, (5, 4, 3)))
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1]), ("single", [2])]  # shapes differ
    w = WindowBuilder()
    w.task((region(3, (4, 2)), "W"), (step(1, 0, (0, 2)), "R"), op="UNARY_OP.TANH")
    w.task((step(1, 0, (1, 3)), "W"), (region(4, (4, 2)), "R"), op="UNARY_OP.EXP")
    w.task((step(1, 1, (0, 2)), "W"), (region(4, (4, 2)), "R"), op="UNARY_OP.EXP")
    w.keep_alive(region(1, (5, 4, 3)), region(3, (4, 2)), region(4, (4, 2)))
    plan = w.plan()
    # Columns 1-2 overlap columns 0-1 of row 0 (rule 4); row 1 is apart from both.
    assert groups(plan) == [("single", [0]), ("fused", [1, 2])]
    assert "another view of a root the group reads" in plan.groups[0].end_reason


@pytest.mark.parametrize("other", [
    # C[3].T of a root of shape (5, 3, 4): a transform not understood is never apart
    region(0, (4, 3), space=70, transform="Transpose(axes: 1, 0) >> Project(dim: 0, coord: 3)"),
    step(0, 1, (0, 3)).replace("float64", "int64"),  # another type over the same field
], ids=["transposed", "other-type"])
def test_views_not_known_to_be_apart_still_split(other: str) -> None:
    w = WindowBuilder()
    w.task((step(0, 0), "W"), (region(2, (4, 3)), "R"))
    w.task((region(3, other_shape(other)), "W"), (other, "R"))
    w.keep_alive(region(0, (5, 4, 3)), region(2, (4, 3)), region(3, other_shape(other)))
    plan = w.plan()
    assert [kind for kind, _ in groups(plan)] == ["single", "single"]
    assert "another view of a root the group writes" in plan.groups[0].end_reason


def other_shape(desc: str) -> tuple[int, ...]:
    parsed = _core.parse_store_desc(desc)
    assert parsed is not None
    return tuple(parsed.shape)


def test_rule5_reading_a_reduction_target_splits() -> None:
    total = value(50)
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"), (B, "R"))
    w.task((total, "RED", 0), (T1, "R"))      # s = sum(a * b)
    w.task((C, "W"), (A, "R"), (total, "R"))  # c = a / s
    w.keep_alive(A, B, C)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1]), ("single", [2])]
    assert "reduction target" in plan.groups[0].end_reason


def test_rule5_same_reduction_twice_joins_other_operator_splits() -> None:
    total = value(50)
    w = WindowBuilder()
    w.task((total, "RED", 0), (A, "R"))
    w.task((total, "RED", 0), (B, "R"))
    w.task((total, "RED", 4), (C, "R"))
    w.keep_alive(total)
    assert groups(w.plan()) == [("fused", [0, 1]), ("single", [2])]


def test_an_axis_reduction_joins_its_producers_and_its_target_is_read_after_the_group() -> None:
    # s = (x * 2).sum(axis=0); y = x - s: the reduction folds into s promoted along axis 0
    # (a partitioned target of the group's shape), and reading s ends the group (rule 5).
    x, tmp, y = region(0, (4, 6)), region(1, (4, 6)), region(3, (4, 6))
    promoted = region(2, (4, 6), transform="Promote(extra_dim: 0, dim_size: 4)")
    two = value(40)
    w = WindowBuilder()
    w.task((tmp, "W"), (x, "R"), (two, "R"), op="BINARY_OP.MULTIPLY")
    w.task((tmp, "R"), (promoted, "RED", 0), op="UNARY_RED.SUM")
    w.task((y, "W"), (x, "R"), (promoted, "R"), op="BINARY_OP.SUBTRACT")
    w.keep_alive(x, y, region(2, (6,)))
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1]), ("single", [2])]
    assert "reduction target" in plan.groups[0].end_reason
    assert [w.descriptions[s] for s in plan.groups[0].temporaries] == [tmp]
    kernel = plan.groups[0].kernel
    assert kernel is not None, plan.groups[0].kernel_error
    assert [(int(role), value) for role, _, value in kernel.args] == [
        (int(_core.ArgRole.INPUT), False), (int(_core.ArgRole.INPUT), True),
        (int(_core.ArgRole.REDUCTION), False)]


def test_two_views_of_one_root_read_together_join() -> None:
    w = WindowBuilder()
    w.task((shifted(5, 0), "W"), (shifted(0, 0), "R"), (shifted(0, 2), "R"))
    w.task((shifted(6, 0), "W"), (shifted(5, 0), "R"), (shifted(0, 1), "R"))
    w.keep_alive(shifted(6, 0), A)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    assert len([a for a in plan.groups[0].args if a.privilege == _core.Privilege.READ]) == 3


def test_broadcast_and_promoted_views_join_on_the_same_shape() -> None:
    row = region(1, (4, 6), transform="Promote(extra_dim: 0, dim_size: 4)")
    scalar = region(2, (4, 6), space=30, transform="Promote(extra_dim: 0, dim_size: 4) >> "
                    "Promote(extra_dim: 1, dim_size: 6)")
    grid, out = region(3, (4, 6)), region(4, (4, 6))
    w = WindowBuilder()
    w.task((region(5, (4, 6)), "W"), (grid, "R"), (row, "R"))
    w.task((out, "W"), (region(5, (4, 6)), "R"), (scalar, "R"))
    w.keep_alive(grid, out)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    assert [w.descriptions[s] for s in plan.groups[0].temporaries] == [region(5, (4, 6))]


def test_same_store_passed_twice_is_one_argument() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"), (A, "R"))  # a * a
    w.task((D, "W"), (T1, "R"), (A, "R"))
    w.keep_alive(A, D)
    plan = w.plan()
    assert [w.descriptions[a.store] for a in plan.groups[0].args] == [A, D]


def test_zero_d_values_feed_the_group_as_a_prologue() -> None:
    rho, pap, alpha = value(60), value(61), value(62)
    w = WindowBuilder()
    w.task((alpha, "W"), (rho, "R"), (pap, "R"))  # alpha = rho / pap
    w.task((A, "W"), (A, "R"), (B, "R"), (alpha, "R"))  # x += alpha * p
    w.keep_alive(A, B, rho, pap)
    plan = w.plan()
    assert groups(plan) == [("fused", [0, 1])]
    assert list(plan.groups[0].prologue) == [0]
    assert [w.descriptions[s] for s in plan.groups[0].temporaries] == [alpha]


def test_an_array_task_does_not_join_a_group_reducing_0d_values() -> None:
    # Its element loop would repeat the reduction once per element (the product of a value:
    # 3 ** 7 instead of 3).
    top, product = value(70), value(71)
    w = WindowBuilder()
    w.task((product, "RED", 0), (top, "R"))  # product = prod(top)
    w.task((C, "W"), (A, "R"))               # c = a * 2
    w.keep_alive(A, C, top, product)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1])]
    assert "reduces 0-d values" in plan.groups[0].end_reason


def test_a_0d_store_in_a_region_is_data_not_a_0d_value() -> None:
    # NumPy memory attached as a 0-d array: a kernel addresses it as data (its element loop
    # would re-read it after a write); only a Future is a value read once, before the loop.
    attached, scaled = region(40, ()), value(63)
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))                       # t1 = a * 2
    w.task((scaled, "W"), (attached, "R"))            # scaled = attached * 3
    w.task((D, "W"), (T1, "R"), (scaled, "R"))        # d = t1 * scaled
    w.keep_alive(A, D, attached)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("single", [1]), ("single", [2])]
    assert "shape" in plan.groups[0].end_reason


@pytest.mark.parametrize("keeper", ["name", "view", "later_task"])
def test_a_store_kept_alive_is_never_eliminated(keeper: str) -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), (T1, "R"))
    if keeper == "name":
        w.keep_alive(T1)
    elif keeper == "view":
        w.keep_alive(shifted(4, 4))  # a slice of T1's root is still reachable
    else:
        w.task((C, "W"), (T1, "R"), op=-1)  # read after an opaque task
    w.keep_alive(A, D)
    plan = w.plan()
    fused = plan.groups[0]
    assert list(fused.tasks) == [0, 1]
    assert T1 not in [w.descriptions[s] for s in fused.temporaries]
    assert (T1, _core.Privilege.WRITE) in [(w.descriptions[a.store], a.privilege)
                                           for a in fused.args]


def test_dead_computations_are_removed() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))   # dead: nothing reads t1
    w.task((D, "W"), (A, "R"))
    w.task((T2, "W"), (D, "R"))   # dead
    w.keep_alive(A, D)
    plan = w.plan()
    (group,) = plan.groups
    assert list(group.tasks) == [1] and list(group.dead_tasks) == [0, 2]
    assert group.kind == "single"
    assert sorted(w.descriptions[s] for s in group.temporaries) == sorted([T1, T2])


def test_unknown_store_makes_its_task_opaque() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), ("Store(1) {something new}", "R"))
    w.keep_alive(D, T1)
    plan = w.plan()
    assert groups(plan) == [("single", [0]), ("opaque", [1])]
    assert plan.groups[1].end_reason.startswith("unknown store")


def test_plan_cache_hits_on_the_same_structure_with_new_arrays() -> None:
    analyzer = _core.Analyzer()

    def window(first_root: int, size: int) -> WindowBuilder:
        a, t, d = (region(first_root + i, (size,)) for i in range(3))
        w = WindowBuilder()
        w.task((t, "W"), (a, "R"))
        w.task((d, "W"), (t, "R"), (a, "R"))
        w.keep_alive(a, d)
        return w

    first = window(0, 100)
    _, hit = analyzer.analyze(first.descriptions, first.live, first.encoded)
    assert not hit
    again = window(10, 100)
    plan, hit = analyzer.analyze(again.descriptions, again.live, again.encoded)
    assert hit and groups(plan) == [("fused", [0, 1])]
    bigger = window(20, 1000)  # shapes are not part of the signature; bytes are recomputed
    plan, hit = analyzer.analyze(bigger.descriptions, bigger.live, bigger.encoded)
    assert hit and plan.group_bytes == [1000 * 8]
    assert analyzer.cached_plans == 1


def test_plan_cache_distinguishes_liveness_and_shape_relations() -> None:
    analyzer = _core.Analyzer()
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), (T1, "R"))
    w.keep_alive(A, D)
    analyzer.analyze(w.descriptions, w.live, w.encoded)
    w.keep_alive(T1)
    plan, hit = analyzer.analyze(w.descriptions, w.live, w.encoded)
    assert not hit and list(plan.groups[0].temporaries) == []


def test_plan_cache_distinguishes_empty_arrays() -> None:
    # Same tasks, same shape relations: only emptiness differs, and it decides rule 2.
    analyzer = _core.Analyzer()
    for size, want in [(100, [("fused", [0, 1])]), (0, [("opaque", [0]), ("opaque", [1])])]:
        a, t, d = (region(30 + i, (size,)) for i in range(3))
        w = WindowBuilder()
        w.task((t, "W"), (a, "R"))
        w.task((d, "W"), (t, "R"))
        w.keep_alive(a, d)
        plan, hit = analyzer.analyze(w.descriptions, w.live, w.encoded)
        assert not hit and groups(plan) == want, size


@pytest.mark.parametrize("encoded", [[1, 1], [1, 1, 1, 5, 0, -1], [1, 1, 1, 0, 9, -1],
                                     [1, 1, -2]])
def test_malformed_encoding_is_an_error(encoded: list[int]) -> None:
    with pytest.raises(ValueError, match="legate-fuse"):
        _core.TaskEncoding(encoded, 1)


def test_a_window_must_match_its_encoding() -> None:
    encoding = _core.TaskEncoding([1, 1, 1, 0, 1, -1], 1)
    with pytest.raises(ValueError, match="another number of stores"):
        _core.Analyzer().analyze([region(0), region(1)], [], encoding)
    with pytest.raises(ValueError, match="live store index out of range"):
        _core.Analyzer().analyze([region(0)], [1], encoding)


def test_describe_lists_groups_and_reasons() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), (T1, "R"), op=-1)
    w.keep_alive(A, D)
    text = w.plan().describe()
    assert "group 0 single tasks [0]" in text and "ended: task 1: opaque task" in text
    assert "group 1 opaque tasks [1]" in text

"""Which arrays of a window run in the memory of another (src/cpp/analysis/storage_sharing.h),
on synthetic windows planned by the analysis, and the stores a window's launches then use."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from legate_fuse import _core
from legate_fuse.backend.shared_storage import launch_stores
from legate_fuse.capture.task_record import StoreArg, TaskRecord
from legate_fuse.counters import Stats

from .window_builder import WindowBuilder, region, shifted

GRID = region(0)
NORTH, CENTER = shifted(0, 0), shifted(0, 1)  # overlapping views of the grid
T1, T2, T3 = (region(i, (98,)) for i in (1, 2, 3))


def updates(*temporaries: str, views: tuple[str, str] = (NORTH, CENTER)) -> WindowBuilder:
    """An in-place stencil, one update per temporary: t = f(grid[:-2], grid[1:-1]) computed
    into `t`, then copied back, grid[1:-1] = t; each copy ends a group (it writes a view of the
    root the next computation reads)."""
    w = WindowBuilder()
    north, center = views
    for t in temporaries:
        w.task((t, "W"), (north, "R"), (center, "R"), op="BINARY_OP.ADD")
        w.task((center, "W"), (t, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID)
    return w


def shared(w: WindowBuilder) -> list[tuple[str, str]]:
    descs = [*w.descriptions, *w.spares]
    return [(descs[store], descs[owner]) for store, owner in w.plan().shared_storage]


def free_at_end(w: WindowBuilder) -> list[str]:
    descs = [*w.descriptions, *w.spares]
    return [descs[store] for store in w.plan().free_at_end]


def test_a_temporary_dead_before_the_next_takes_its_memory() -> None:
    w = updates(T1, T2, T3)
    assert all(len(g.tasks) == 1 for g in w.plan().groups)  # four groups, one per task
    assert shared(w) == [(T2, T1), (T3, T1)]


def test_an_array_the_program_holds_keeps_its_memory() -> None:
    w = updates(T1, T2)
    w.keep_alive(T2)
    assert shared(w) == []
    w = updates(T1, T2)
    w.keep_alive(T1)  # and the memory of one it holds is never given away
    assert shared(w) == []


def test_an_array_whose_first_access_reads_it_keeps_its_memory() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T1, "R"), op="UNARY_OP.COPY")
    w.task((T2, "W"), (T2, "R"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")  # t2 += ...
    w.task((CENTER, "W"), (T2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID)
    assert [list(g.tasks) for g in w.plan().groups] == [[0], [1], [2], [3]]
    assert shared(w) == []


def test_an_array_an_opaque_task_touches_keeps_its_memory() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T1, "R"), op=-1)  # built at once, with t1 itself
    w.task((T2, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID)
    assert shared(w) == []


def test_memory_is_free_only_after_the_group_of_its_last_access() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T1, "R"), op="UNARY_OP.COPY")
    w.task((T2, "W"), (T1, "R"), op="BINARY_OP.MULTIPLY")  # fuses with the copy
    w.task((T3, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T2, "R"), (T3, "R"), op="BINARY_OP.ADD")
    w.keep_alive(GRID)
    assert [list(g.tasks) for g in w.plan().groups] == [[0], [1, 2], [3], [4]]
    # t1's last access and t2's first are one group: t2 keeps its memory, t3 takes t1's.
    assert shared(w) == [(T3, T1)]


def test_only_memory_of_the_same_shape_and_type_is_shared() -> None:
    w = updates(T1, region(2, (98,), dtype="float32"))
    assert len(w.plan().groups) == 4 and shared(w) == []
    w = updates(T1)  # then the same on a smaller grid
    north, center, t2 = shifted(5, 0, (58,)), shifted(5, 1, (58,)), region(2, (58,))
    w.task((t2, "W"), (north, "R"), (center, "R"), op="BINARY_OP.ADD")
    w.task((center, "W"), (t2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(region(5, (60,)))
    assert len(w.plan().groups) == 4 and shared(w) == []


def read_first(old: str = region(4, (98,))) -> WindowBuilder:
    """A loop's state of the iteration before (`old`), read by the window's first group and
    let go, then a new array the window writes whole: t1 = old + grid[1:-1] (held by the
    program), grid[1:-1] = t1 (one group), t2 = grid[:-2] + grid[1:-1], grid[1:-1] = t2."""
    w = WindowBuilder(foreign=set())
    w.task((T1, "W"), (old, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T1, "R"), op="UNARY_OP.COPY")
    w.task((T2, "W"), (NORTH, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID, T1)
    return w


def test_an_array_read_first_gives_its_memory_once_let_go() -> None:
    old = region(4, (98,))
    w = read_first(old)
    assert [list(g.tasks) for g in w.plan().groups] == [[0, 1], [2], [3]]
    assert shared(w) == [(T2, old)]


def test_an_array_read_first_keeps_memory_not_legates_own() -> None:
    old = region(4, (98,))
    w = read_first(old)
    parsed = _core.parse_store_desc(old)
    assert parsed is not None
    w.foreign = {parsed.root_key}  # a buffer attached to a store, say
    assert shared(w) == []
    w.foreign = None  # not known: none is Legate's own
    assert shared(w) == []


def test_an_array_read_first_the_program_holds_keeps_its_memory() -> None:
    old = region(4, (98,))
    w = read_first(old)
    w.keep_alive(old)
    assert shared(w) == []


def test_an_array_read_first_only_through_a_view_keeps_its_memory() -> None:
    w = read_first(shifted(4, 1))  # no whole store of it to rebuild a view over
    assert shared(w) == []


def test_an_array_read_first_gives_its_memory_only_after_its_last_access() -> None:
    old = region(4, (98,))
    w = WindowBuilder(foreign=set())
    w.task((T1, "W"), (old, "R"), (CENTER, "R"), op="BINARY_OP.ADD")
    w.task((CENTER, "W"), (T1, "R"), op="UNARY_OP.COPY")
    w.task((T2, "W"), (NORTH, "R"), (old, "R"), op="BINARY_OP.ADD")  # old read here too
    w.task((CENTER, "W"), (T2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID, T1)
    assert [list(g.tasks) for g in w.plan().groups] == [[0, 1], [2], [3]]
    assert shared(w) == []


SPARE = region(5, (98,))


def test_an_array_takes_the_memory_of_a_spare_store() -> None:
    w = updates(T1, T2)
    w.foreign = set()
    w.spares = [SPARE]  # an array an earlier window let go
    assert shared(w) == [(T1, SPARE), (T2, SPARE)]
    assert free_at_end(w) == [SPARE]  # and it is free again at the end


def test_a_spare_store_no_array_takes_is_let_go_not_handed_on() -> None:
    """Spares nothing took are not free memory the window leaves: handed on, the spares of
    every window would pile up, memory kept for ever."""
    w = updates(T1, T2)
    w.foreign = set()
    untaken = region(6, (98,))
    w.spares = [untaken, SPARE]
    assert shared(w) == [(T1, SPARE), (T2, SPARE)]  # the spare given last is taken first
    assert free_at_end(w) == [SPARE]


def test_a_spare_store_of_another_shape_or_not_legates_own_is_not_taken() -> None:
    w = updates(T1, T2)
    w.foreign = set()
    w.spares = [region(5, (50,))]
    assert shared(w) == [(T2, T1)]
    w.spares = [SPARE]
    parsed = _core.parse_store_desc(SPARE)
    assert parsed is not None
    w.foreign = {parsed.root_key}
    assert shared(w) == [(T2, T1)]


def test_the_memory_free_at_the_end_is_of_arrays_let_go_and_legates_own() -> None:
    w = updates(T1, T2)
    w.foreign = set()
    assert free_at_end(w) == [T1]  # t2 ran in t1's memory
    w.keep_alive(T2)
    assert free_at_end(w) == [T1]  # t2 kept its own, held by the program
    w = updates(T1, T2)
    parsed = _core.parse_store_desc(T1)
    assert parsed is not None
    w.foreign = {parsed.root_key}
    assert free_at_end(w) == []  # t1's memory is not Legate's: never handed on


def test_an_array_seen_through_slices_shares_every_view() -> None:
    w = updates(T1, T2)
    t3, t2_slice = region(3, (97,)), shifted(2, 1, (97,))
    w.task((t3, "W"), (t2_slice, "R"), op="UNARY_OP.COPY")  # a slice of t2 read
    w.keep_alive(t3)
    assert w.plan().groups[-1].kind == "single"
    assert shared(w) == [(T2, T1), (t2_slice, T1)]


def test_an_array_seen_through_another_view_keeps_its_memory() -> None:
    w = updates(T1, T2)
    t2_transposed = region(2, (98,), transform="Transpose(axes: 0)")
    w.task((T3, "W"), (t2_transposed, "R"), op="UNARY_OP.COPY")
    w.keep_alive(T3)
    assert shared(w) == []
    # First written through a slice, not all of it (the size of a dead array's memory).
    t1, north, south = region(1, (97,)), shifted(0, 1, (97,)), shifted(0, 2, (97,))
    w = WindowBuilder()
    w.task((t1, "W"), (north, "R"), op="UNARY_OP.COPY")
    w.task((south, "W"), (t1, "R"), op="UNARY_OP.COPY")
    w.task((shifted(2, 1, (97,)), "W"), (north, "R"), op="UNARY_OP.COPY")
    w.task((CENTER, "W"), (T2, "R"), op="UNARY_OP.COPY")
    w.keep_alive(GRID)
    assert [list(g.tasks) for g in w.plan().groups] == [[0], [1], [2], [3]]
    assert shared(w) == []


def _record(store: Any, lazy: bool) -> TaskRecord:
    return TaskRecord(task=SimpleNamespace(execute=lambda: None), lazy=lazy,
                      args=(StoreArg("add_output", store),))


def test_a_task_built_with_its_stores_keeps_every_store_as_given() -> None:
    # The analysis rules out a store an opaque task touches; a task that cannot be rebuilt
    # with other stores still leaves the window's stores as the program gave them.
    t1, t2 = (SimpleNamespace(shape=(98,), transformed=False),
              SimpleNamespace(shape=(98,), transformed=False))
    plan = SimpleNamespace(shared_storage=[(1, 0)])
    planned: Any = SimpleNamespace(plan=plan, stores=[t1, t2], descriptions=[T1, T2],
                                   records=[_record(t1, lazy=True), _record(t2, lazy=False)])
    stats = Stats()
    assert launch_stores(planned, stats) == [t1, t2]
    assert stats.arrays_in_shared_memory == 0
    assert all(record.storage is None for record in planned.records)

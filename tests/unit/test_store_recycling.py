"""The stores of eliminated temporaries, kept and handed back (window/recycling.py), without
Legate: a store is any object, its kind what `create_store` was asked for."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from legate_fuse.window import recycling
from legate_fuse.window.recycling import StoreRecycler

FLOAT64 = "float64"  # (any hashable stands for a Legate type here)


def kind(shape: tuple[int, ...] = (1000,)) -> Any:
    found = StoreRecycler.kind((FLOAT64,), {"shape": shape, "optimize_scalar": True})
    assert found is not None
    return found


class Store:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def window(recycler: StoreRecycler, created: list[Store], temporaries: list[Store],
           sites: list[str] | None = None, held: Any = ()) -> list[Any]:
    """One window: asks for a store at each of `created` (taking a kept one when offered),
    made at `sites` (by default, each at a site of its own, in order), keeps the stores of
    `temporaries` (by name) after it ran; returns the stores given out. `held`: records of
    tasks the window keeps held."""
    given = []
    for n, store in enumerate(created):
        site = sites[n] if sites is not None else f"line {n}"
        got, reused = recycler.new_store(lambda *args, new=store, **kwargs: new, (FLOAT64,),
                                         {"shape": (1000,), "optimize_scalar": True},
                                         lambda site=site: site)
        assert reused == (got is not store)
        given.append(got)
    names = {t.name for t in temporaries}
    recycler.keep(s for s in given if s.name in names)
    recycler.window_flushed(held)
    return given


def note(recycler: StoreRecycler, store: Store, site: str = "a line") -> None:
    recycler.note_created(store, kind(), (kind(), site, 0))


def test_only_a_store_of_known_type_and_shape_can_be_stood_in_for() -> None:
    assert StoreRecycler.kind((FLOAT64,), {"shape": (4, 5), "optimize_scalar": True}) == (
        FLOAT64, (4, 5))
    # One element: a Future-backed store with optimize_scalar; an unbound store; other calls.
    assert StoreRecycler.kind((FLOAT64,), {"shape": (1,), "optimize_scalar": True}) is None
    assert StoreRecycler.kind((FLOAT64,), {"shape": (), "optimize_scalar": False}) is None
    assert StoreRecycler.kind((FLOAT64,), {"ndim": 1}) is None
    assert StoreRecycler.kind((FLOAT64, (4,)), {}) is None


def test_a_temporary_is_handed_back_where_a_temporary_was_created_last_time() -> None:
    """Windows of a loop: t1, t2 (temporaries) and a result. The temporaries' stores come back
    as the next window's temporaries; the result always comes from Legate (a free field with
    memory), never from the stores kept."""
    recycler = StoreRecycler()
    first = window(recycler, [Store("t1"), Store("t2"), Store("r1")],
                   [Store("t1"), Store("t2")])
    second = window(recycler, [Store("u1"), Store("u2"), Store("r2")], [])
    assert second[:2] == first[:2]  # the kept stores, in the order they were created
    assert second[2].name == "r2"  # Legate's


def test_nothing_is_handed_back_where_no_temporary_was_made() -> None:
    recycler = StoreRecycler()
    window(recycler, [Store("r1"), Store("t1")], [Store("t1")])
    given = window(recycler, [Store("r2"), Store("t2")], [])
    assert [s.name for s in given] == ["r2", "t1"]


def test_where_is_the_call_site_wherever_the_window_begins() -> None:
    """A full window runs its first part and keeps the rest held: a loop's next window begins
    at another step. Its temporaries still get the temporaries' stores, its result Legate's."""
    recycler = StoreRecycler()
    first = window(recycler, [Store("t1"), Store("t2"), Store("r1")],
                   [Store("t1"), Store("t2")], sites=["t", "t", "r"])
    # The next window begins with the result's line, then a temporary's, then the other.
    second = window(recycler, [Store("r2"), Store("u1"), Store("u2")], [],
                    sites=["r", "t", "t"])
    assert second[0].name == "r2"
    assert second[1:] == first[:2]


def test_the_stores_of_tasks_held_after_a_cut_are_kept_when_they_run() -> None:
    """The stores of the tasks a cut window keeps held were made before that flush: they stay
    noted, and become temporaries when the next window runs them."""
    recycler = StoreRecycler()
    held_store = Store("h")
    record = SimpleNamespace(stores=(held_store,))
    given = window(recycler, [held_store], [], held=[record])
    assert id(given[0]) in recycler.created
    recycler.keep([held_store])
    recycler.window_flushed()
    assert recycler._kept_count == 1 and not recycler.created


def test_only_stores_created_since_the_flush_are_kept() -> None:
    """A store not created through the recycler (one the program had, a view) is never kept;
    nor one created in an earlier window."""
    recycler = StoreRecycler()
    early, new = Store("early"), Store("new")
    note(recycler, early)
    recycler.window_flushed()
    note(recycler, new)
    recycler.keep([early, Store("foreign"), new])
    assert recycler._kept_count == 1
    recycler.window_flushed()
    assert recycler.reuse(kind(), (kind(), "a line", 0)) is new


def test_the_references_held_are_counted_for_the_window() -> None:
    """The analysis counts the references the window's own structures hold: a store created
    since the flush is referenced once more here."""
    recycler = StoreRecycler()
    a, b, c = Store("a"), Store("b"), Store("c")
    note(recycler, a)
    note(recycler, c)
    index = {id(a): 0, id(b): 1, id(c): 2}
    assert sorted(recycler.held_numbers(index)) == [0, 2]
    recycler.window_flushed()
    assert recycler.held_numbers(index) == []


def test_the_stores_kept_are_bounded_and_freed_at_exit() -> None:
    recycler = StoreRecycler()
    stores = [Store(f"t{i}") for i in range(recycling.MOST_KEPT + 5)]
    for store in stores:
        note(recycler, store)
    recycler.keep(stores)
    assert recycler._kept_count == recycling.MOST_KEPT
    recycler.clear()
    assert recycler._kept_count == 0 and not recycler.created
    note(recycler, Store("x"))
    assert recycler.reuse(kind(), (kind(), "a line", 0)) is None


def test_a_window_bigger_than_the_bound_keeps_a_windows_worth() -> None:
    """A window makes as many temporaries as it has tasks at most: all are kept."""
    recycler = StoreRecycler(most_kept=2 * recycling.MOST_KEPT)
    stores = [Store(f"t{i}") for i in range(2 * recycling.MOST_KEPT + 5)]
    for store in stores:
        note(recycler, store)
    recycler.keep(stores)
    assert recycler._kept_count == 2 * recycling.MOST_KEPT


def test_past_the_bound_the_stores_kept_first_go() -> None:
    """A program that moved on to arrays of another shape: the stores it kept of the old shape
    make room for the new ones, never the other way round."""
    recycler = StoreRecycler()
    old = [Store(f"old{i}") for i in range(recycling.MOST_KEPT)]
    for store in old:
        recycler.note_created(store, kind((7,)), (kind((7,)), "old line", 0))
    recycler.keep(old)
    recycler.window_flushed()
    new = [Store("new0"), Store("new1")]
    for store in new:
        note(recycler, store)
    recycler.keep(new)
    recycler.window_flushed()
    assert recycler._kept_count == recycling.MOST_KEPT
    assert [store for _, store in recycler._kept[kind((7,))]] == old[2:]
    assert recycler.reuse(kind(), (kind(), "a line", 0)) is new[0]

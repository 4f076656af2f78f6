"""The roots of the arrays a program holds: found once per array by the tracker, and given to
the analysis as a set of keys it asks about the window's roots only (window/liveness.py,
ir/window.h). No Legate: arrays and stores are stand-ins with Legate's descriptions."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from legate_fuse import _core
from legate_fuse.window.liveness import ArrayTracker

from .window_builder import WindowBuilder, region, shifted

A, D, T1 = region(0), region(3), region(4)


class Store:
    def __init__(self, description: str) -> None:
        self.description = description
        self.described = 0

    def __str__(self) -> str:
        self.described += 1
        return self.description


class Array:  # a DeferredArray: its store is `base`
    def __init__(self, base: Store | None) -> None:
        self.base = base


def key(description: str) -> str:
    desc = _core.parse_store_desc(description)
    assert desc is not None
    return desc.root_key


def tracking(*arrays: Any) -> ArrayTracker:
    tracker = ArrayTracker()
    tracker._arrays.extend(weakref.ref(a) for a in arrays)  # as the __init__ hook does
    return tracker


def test_the_roots_of_live_arrays_each_described_once() -> None:
    a, view = Array(Store(A)), Array(Store(shifted(0, 1)))  # a and a[1:]: one root
    d = Array(Store(D))
    tracker = tracking(a, view, d)
    assert tracker.live_roots() == {key(A), key(D)}
    assert tracker.live_roots() == {key(A), key(D)}
    assert a.base is not None and a.base.described == 1


def test_dead_arrays_are_forgotten() -> None:
    a, d = Array(Store(A)), Array(Store(D))
    tracker = tracking(a, d)
    del d
    gc.collect()
    assert tracker.live_roots() == {key(A)}
    assert len(tracker._arrays) == 1


def test_a_replaced_store_is_described_again() -> None:
    a = Array(Store(A))
    tracker = tracking(a)
    assert tracker.live_roots() == {key(A)}
    a.base = Store(D)  # as cuPyNumeric's sort replaces its result's store
    assert tracker.live_roots() == {key(D)}


def test_arrays_over_the_windows_own_stores_are_not_described() -> None:
    # Their stores' reachability comes from reference counts (foreign_references): the
    # array's reference to its store is counted there.
    a, d = Array(Store(A)), Array(Store(D))
    tracker = tracking(a, d)
    assert tracker.live_roots(referenced={id(d.base)}) == {key(A)}
    assert d.base is not None and d.base.described == 0
    assert tracker.live_roots() == {key(A), key(D)}  # asked again without: described


def test_an_unbound_store_is_described_at_each_window() -> None:
    unbound = Store("Store(9) {shape: unbound, type: float64, storage: unbound}")
    a = Array(unbound)
    tracker = tracking(a, Array(None))
    tracker.live_roots()
    tracker.live_roots()
    assert unbound.described == 2


def test_a_root_the_program_holds_is_never_eliminated() -> None:
    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), (T1, "R"))
    w.keep_alive(A, D)
    eliminated, _ = w.analyzer.analyze(w.descriptions, w.live, w.encoded)
    assert [w.descriptions[s] for s in eliminated.groups[0].temporaries] == [T1]
    # T1's root is held through another view, known only by its key (and the plan cached
    # without it is not reused).
    kept, hit = w.analyzer.analyze(w.descriptions, w.live, w.encoded,
                                   live_roots={key(shifted(4, 4))})
    assert not hit and list(kept.groups[0].temporaries) == []


def test_a_failed_root_lookup_counts_as_held() -> None:
    class Failing:
        def __contains__(self, _key: object) -> bool:
            raise RuntimeError("lookup failed")

    w = WindowBuilder()
    w.task((T1, "W"), (A, "R"))
    w.task((D, "W"), (T1, "R"))
    w.keep_alive(A, D)
    plan, _ = w.analyzer.analyze(w.descriptions, w.live, w.encoded, use_cache=False,
                                 live_roots=Failing())  # type: ignore[arg-type]
    assert list(plan.groups[0].temporaries) == []

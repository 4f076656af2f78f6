"""Store identity read from Legate's own descriptions, over every transform cuPyNumeric uses
(Shift, Promote, Project, Transpose, Broadcast, Delinearize) in one to three dimensions."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import pytest
from legate.core import get_legate_runtime, types

from legate_fuse._core import parse_store_desc

View = Callable[[Any], Any]


def views_of(ndim: int) -> dict[str, View]:
    views: dict[str, View] = {"whole": lambda s: s}
    for d in range(ndim):
        views[f"slice{d}[0:2]"] = lambda s, d=d: s.slice(d, slice(0, 2))
        views[f"slice{d}[1:3]"] = lambda s, d=d: s.slice(d, slice(1, 3))
        views[f"slice{d}[2:]"] = lambda s, d=d: s.slice(d, slice(2, None))
        views[f"project{d}@1"] = lambda s, d=d: s.project(d, 1)
        views[f"project{d}@2"] = lambda s, d=d: s.project(d, 2)
    for d in range(ndim + 1):
        views[f"promote{d}"] = lambda s, d=d: s.promote(d, 5)
    for axes in itertools.permutations(range(ndim)):
        if list(axes) != list(range(ndim)):
            views[f"transpose{axes}"] = lambda s, axes=axes: s.transpose(list(axes))
    views["promote0>>slice1"] = lambda s: s.promote(0, 3).slice(1, slice(1, 3))
    if ndim >= 2:
        views["slice0>>slice1"] = lambda s: s.slice(0, slice(1, 3)).slice(1, slice(0, 2))
        views["transpose>>slice"] = lambda s: s.transpose([1, 0, *range(2, ndim)]).slice(
            0, slice(1, 3))
    return views


def described(store: Any) -> Any:
    desc = parse_store_desc(str(store))
    assert desc is not None, str(store)
    return desc


@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_every_view_is_understood_and_shares_its_root(ndim: int) -> None:
    runtime = get_legate_runtime()
    base = runtime.create_store(types.float64, shape=(4,) * ndim)
    other = runtime.create_store(types.float64, shape=(4,) * ndim)
    root = described(base).root_key
    assert described(other).root_key != root
    keys: dict[str, str] = {}
    for name, make in views_of(ndim).items():
        first, second = described(make(base)), described(make(base))
        assert first.root_key == root, name
        assert first.view_key == second.view_key, name  # the same view, made twice
        keys[name] = first.view_key
    # Distinct views address distinct elements: no two share a view key.
    assert len(set(keys.values())) == len(keys)


def test_broadcast_and_delinearize() -> None:
    runtime = get_legate_runtime()
    row = runtime.create_store(types.float32, shape=(1, 6))
    wide = described(row.broadcast(0, 4))
    assert wide.transform.startswith("Broadcast(") and wide.shape == [4, 6]
    assert wide.root_key == described(row).root_key
    flat = runtime.create_store(types.int64, shape=(12,))
    grid = described(flat.delinearize(0, (3, 4)))
    assert grid.transform.startswith("Delinearize(") and grid.shape == [3, 4]
    assert grid.root_key == described(flat).root_key
    assert grid.view_key != described(flat).view_key


def test_cupynumeric_arrays_and_their_views() -> None:
    a, b = cn.zeros((6, 6)), cn.zeros((6, 6))
    base = described(a._thunk.base)
    assert described(b._thunk.base).root_key != base.root_key
    for view in (a[1:-1, 1:-1], a[0], a[:, 2], a.T, a[None], a[2:, :-2]):
        assert described(view._thunk.base).root_key == base.root_key
    assert described(a[1:-1, 1:-1]._thunk.base).view_key == \
        described(a[1:-1, 1:-1]._thunk.base).view_key
    assert described(a[1:-1, 1:-1]._thunk.base).view_key != \
        described(a[2:, :-2]._thunk.base).view_key


def test_future_backed_values() -> None:
    total = cn.sum(cn.ones(10))
    desc = described(total._thunk.base)
    assert desc.is_future and desc.shape == []
    assert float(total) == 10.0

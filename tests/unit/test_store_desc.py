"""Parsing Legate's store descriptions (formats copied from Legate 26.06's own output)."""

from __future__ import annotations

import pytest

from legate_fuse._core import parse_store_desc

ROOT = ("Store(1) {shape: [4, 6], type: float64, storage: Storage(1) {kind: Region, level: 0, "
        "region: (7, (5, 1), 6), field: 10000}}")
SLICE = ("Store(2) {shape: [2, 6], transform: Shift(dim: 0, offset: -1), type: float64, "
         "storage: Storage(2) {kind: Region, level: 2, region: (7, (13, 1), 6), field: 10000}}")
STACK = ("Store(8) {shape: [3, 4, 3], transform: Promote(extra_dim: 2, dim_size: 3) >> "
         "Transpose(axes: 1, 0) >> Shift(dim: 1, offset: -2), type: float64, storage: "
         "Storage(4) {kind: Region, level: 2, region: (7, (21, 1), 6), field: 10000}}")
FUTURE = "Store(15) {shape: [], type: float64, storage: Storage(8) {kind: Future, level: 0}}"
UNBOUND = ("Store(1) {shape: (unbound), type: float64, storage: Storage(1) {kind: Region, "
           "level: 0, region: unbound}}")
POINT = ("Store(3) {shape: [3], type: int64[2], storage: Storage(3) {kind: Region, level: 0, "
         "region: (7, (5, 1), 6), field: 10001}}")


def test_root_store() -> None:
    d = parse_store_desc(ROOT)
    assert d is not None
    assert (d.store_id, d.shape, d.transform, d.dtype) == (1, [4, 6], "", "float64")
    assert (d.tree_id, d.index_space, d.field_id, d.is_future) == (7, 5, 10000, False)


def test_slice_shares_the_root_but_not_the_view() -> None:
    root, view = parse_store_desc(ROOT), parse_store_desc(SLICE)
    assert root is not None and view is not None
    assert view.transform == "Shift(dim: 0, offset: -1)"
    assert root.root_key == view.root_key
    assert root.view_key != view.view_key


def test_transform_stack_is_kept_whole() -> None:
    d = parse_store_desc(STACK)
    assert d is not None
    assert d.transform.count(">>") == 2 and d.shape == [3, 4, 3]


def test_future_store() -> None:
    d = parse_store_desc(FUTURE)
    assert d is not None and d.is_future and d.shape == []
    assert d.root_key == "F8"


def test_unbound_store() -> None:
    d = parse_store_desc(UNBOUND)
    assert d is not None and d.unbound


def test_type_with_punctuation() -> None:
    d = parse_store_desc(POINT)
    assert d is not None and d.dtype == "int64[2]"


def test_fields_of_one_region_tree_are_different_roots() -> None:
    a, b = parse_store_desc(ROOT), parse_store_desc(ROOT.replace("10000", "10001"))
    assert a is not None and b is not None and a.root_key != b.root_key


@pytest.mark.parametrize("text", [
    "", "Store(1)", ROOT[:-1], ROOT + "x", ROOT.replace("kind: Region", "kind: Other"),
    ROOT.replace("shape: [4, 6]", "shape: [4, x]"), FUTURE.replace("level: 0", "level: "),
])
def test_anything_else_is_not_understood(text: str) -> None:
    assert parse_store_desc(text) is None

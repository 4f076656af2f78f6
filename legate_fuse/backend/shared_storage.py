"""The stores a planned window's tasks run with: those the program gave, but for the arrays the
plan runs in the memory of another, dead before them (`Plan.shared_storage`, see
src/cpp/analysis/storage_sharing.h).
"""

from __future__ import annotations

import re
from typing import Any

from legate_fuse import _core
from legate_fuse.capture.build_task import BuildAndExecute
from legate_fuse.counters import Stats
from legate_fuse.plan.planner import PlannedWindow

_SHIFT = re.compile(r"Shift\(dim: (\d+), offset: -(\d+)\)")
_PROJECT = re.compile(r"Project\(dim: (\d+), coord: (\d+)\)")
_PROMOTE = re.compile(r"Promote\(extra_dim: (\d+), dim_size: (\d+)\)")


def launch_stores(planned: PlannedWindow, stats: Stats) -> list[Any]:
    """The window's stores by number, as its launches use them; the records that run as built
    are told theirs (`TaskRecord.storage`). All or nothing: when a view cannot be rebuilt over
    its new memory, or a task the plan shares a store with cannot be rebuilt with another store
    (one built when the program made it: the analysis rules such tasks out, this makes sure of
    it), every store stays as the program gave it."""
    shared = planned.plan.shared_storage
    stores = planned.stores
    if not shared:
        return stores
    launched = list(stores)
    for store, owner in shared:
        view = view_over(stores[owner], planned.descriptions[store])
        if view is None:
            return stores
        launched[store] = view
    moved = {id(stores[store]): launched[store] for store, _ in shared}
    touching = [record for record in planned.records
                if any(id(arg.store) in moved for arg in record.args)]
    if any(not record.lazy or type(record.task) is not BuildAndExecute for record in touching):
        return stores
    for record in touching:
        record.storage = {id(arg.store): moved[id(arg.store)] for arg in record.args
                          if id(arg.store) in moved}
    # (An array's whole store runs as its owner's; its views are views of the owner.)
    stats.arrays_in_shared_memory += sum(launched[store] is stores[owner]
                                         for store, owner in shared)
    return launched


def view_over(owner: Any, description: str) -> Any | None:
    """The view of `owner` (a whole store) that the store `description` describes has of its
    own array: the same slices and projections, in the order Legate applied them (its
    description lists the latest first), and a promotion last (a product's result, as
    cuPyNumeric promotes it); None when it cannot be rebuilt exactly."""
    wanted = _core.parse_store_desc(description)
    if wanted is None:
        return None
    shape, transform = list(wanted.shape), wanted.transform
    latest, _, earlier = transform.partition(" >> ")
    promote = _PROMOTE.fullmatch(latest)
    if promote is None:
        view = _sliced_view(owner, shape, transform)
    else:
        dim, size = int(promote[1]), int(promote[2])
        if dim >= len(shape) or shape[dim] != size:
            return None
        base = _sliced_view(owner, shape[:dim] + shape[dim + 1:], earlier)
        view = None if base is None else base.promote(dim, size)
    if view is None or view is owner:
        return view
    rebuilt = _core.parse_store_desc(str(view))
    if rebuilt is None or (rebuilt.shape, rebuilt.transform) != (wanted.shape, transform):
        return None
    return view


def _sliced_view(owner: Any, shape: list[int], transform: str) -> Any | None:
    """The view of `owner` of this shape through these slices and projections (a store's
    description's transform, latest first), or None."""
    if not transform and shape == list(owner.shape):
        return owner  # (the common case: a whole array)
    steps = []
    for step in transform.split(" >> ")[::-1] if transform else ():
        if shift := _SHIFT.fullmatch(step):
            steps.append((True, int(shift[1]), int(shift[2])))
        elif project := _PROJECT.fullmatch(step):
            steps.append((False, int(project[1]), int(project[2])))
        else:
            return None
    # The array's dimension behind each of the view's, and where each slice starts: a slice
    # from 0 leaves no Shift, only its extent, which is the view's.
    dims, starts = list(range(owner.ndim)), {}
    for is_shift, dim, amount in steps:
        if dim >= len(dims):
            return None
        if is_shift:
            starts[dims[dim]] = amount
        else:
            dims.pop(dim)
    if len(dims) != len(shape):
        return None
    extents = dict(zip(dims, shape, strict=True))
    view = owner
    for dim in dims:
        if dim not in starts and extents[dim] != owner.shape[dim]:
            view = view.slice(dim, slice(0, extents[dim]))
    dims = list(range(owner.ndim))
    for is_shift, dim, amount in steps:
        if is_shift:
            if dims[dim] not in extents:  # a slice later projected away
                return None
            view = view.slice(dim, slice(amount, amount + extents[dims[dim]]))
        else:
            view = view.project(dim, amount)
            dims.pop(dim)
    return view

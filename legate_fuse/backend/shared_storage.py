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


# A view's steps over a whole store: ("slice", dim, start, stop), ("project", dim, coord) or
# ("promote", dim, size), the Legate calls that make it, in order.
Recipe = tuple[tuple[str, int, int, int], ...]

# Recipes that rebuilt a view exactly, by (the view's shape, its transform, the whole store's
# shape); None where none could. A loop's windows share their stores' memory the same way each
# time, on new stores of the same shapes: the recipe is worked out and checked once.
_recipes: dict[tuple[tuple[int, ...], str, tuple[int, ...]], Recipe | None] = {}
_MOST_RECIPES = 4096


def view_over(owner: Any, description: str) -> Any | None:
    """The view of `owner` (a whole store) that the store `description` describes has of its
    own array: the same slices and projections, in the order Legate applied them (its
    description lists the latest first), and a promotion last (a product's result, as
    cuPyNumeric promotes it); None when it cannot be rebuilt exactly."""
    wanted = _core.parse_store_desc(description)
    if wanted is None:
        return None
    # Only a whole store's recipes are remembered (one that is not is worked out afresh).
    key = (None if owner.transformed
           else (tuple(wanted.shape), wanted.transform, tuple(owner.shape)))
    if key in _recipes:
        recipe = _recipes[key]
        return None if recipe is None else _applied(owner, recipe)
    recipe = _recipe(list(owner.shape), list(wanted.shape), wanted.transform)
    view = None if recipe is None else _checked(_applied(owner, recipe), owner, wanted)
    if key is not None:
        if len(_recipes) >= _MOST_RECIPES:
            _recipes.clear()
        _recipes[key] = recipe if view is not None else None
    return view


def _checked(view: Any, owner: Any, wanted: Any) -> Any | None:
    """`view` if its description has the shape and transform wanted, else None."""
    if view is owner:
        return view
    rebuilt = _core.parse_store_desc(str(view))
    if rebuilt is None or (rebuilt.shape, rebuilt.transform) != (wanted.shape,
                                                                 wanted.transform):
        return None
    return view


def _applied(owner: Any, recipe: Recipe) -> Any:
    view = owner
    for call, dim, first, second in recipe:
        if call == "slice":
            view = view.slice(dim, slice(first, second))
        elif call == "project":
            view = view.project(dim, first)
        else:
            view = view.promote(dim, first)
    return view


def _recipe(owner_shape: list[int], shape: list[int], transform: str) -> Recipe | None:
    """The steps that make a view of this shape and transform (a description's, latest
    first) from a whole store of `owner_shape`, or None."""
    latest, _, earlier = transform.partition(" >> ")
    promote = _PROMOTE.fullmatch(latest)
    if promote is None:
        return _sliced(owner_shape, shape, transform)
    dim, size = int(promote[1]), int(promote[2])
    if dim >= len(shape) or shape[dim] != size:
        return None
    base = _sliced(owner_shape, shape[:dim] + shape[dim + 1:], earlier)
    return None if base is None else (*base, ("promote", dim, size, 0))


def _sliced(owner_shape: list[int], shape: list[int], transform: str) -> Recipe | None:
    """The slices and projections that make a view of this shape through these (a store's
    description's transform, latest first) from a whole store of `owner_shape`, or None."""
    if not transform and shape == owner_shape:
        return ()  # (the common case: a whole array)
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
    ndim = len(owner_shape)
    dims, starts = list(range(ndim)), {}
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
    recipe: list[tuple[str, int, int, int]] = []
    for dim in dims:
        if dim not in starts and extents[dim] != owner_shape[dim]:
            recipe.append(("slice", dim, 0, extents[dim]))
    dims = list(range(ndim))
    for is_shift, dim, amount in steps:
        if is_shift:
            if dims[dim] not in extents:  # a slice later projected away
                return None
            recipe.append(("slice", dim, amount, amount + extents[dims[dim]]))
        else:
            recipe.append(("project", dim, amount, 0))
            dims.pop(dim)
    return tuple(recipe)

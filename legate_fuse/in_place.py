"""Fused outputs written over an input array that dies in the same group.

`x = f(x, ...)` in a loop: the group reads the old x for the last time and writes the new x.
Instead of allocating the new array, the kernel writes its results over the old one, element by
element after reading it (both kernels load every input of an element before storing), and the
program's new array is then given the old one's storage. Nothing is allocated, and nothing
stays allocated for a dead array either.

Every condition below is what makes that invisible to the program; when any does not hold the
output is allocated as usual:
- the old and new stores are whole arrays (no view) of the same shape, type and index space;
- the old store is not over memory the program owns (a NumPy array attached with
  `cupynumeric.asarray`): writing it would change the NumPy array;
- the group touches the old array through that whole view only, and does not write it;
- nothing can reach the old array after the group: no live array (or view) of it, no reference
  from elsewhere, no task of the window outside the group touching it;
- the new array is reached only through the one cuPyNumeric array that owns it: no view of it,
  no other reference, no task of the window outside the group touching it.
"""

from __future__ import annotations

import logging
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from legate_fuse import _core
from legate_fuse.kernel_spec import ROLE_INPUT, ROLE_OUTPUT, FusedKernel, KernelArg
from legate_fuse.liveness import DESCRIPTION_CACHE, held_references

logger = logging.getLogger("legate_fuse")


@dataclass(frozen=True)
class Reuse:
    """After the launch: `array.base = store` (the store the kernel wrote over)."""

    array: Any
    store: Any


class WindowFacts:
    """What the in-place rules ask of a planned window, computed once per window on demand."""

    def __init__(self, planned: Any, arrays_with_base: Callable[[Any], list[Any]],
                 external_roots: set[str]) -> None:
        self.planned = planned
        self.arrays_with_base = arrays_with_base
        self.external_roots = external_roots
        self._position = {id(s): i for i, s in enumerate(planned.stores)}
        self._reachable: Counter[str] | None = None
        self._arrays: Counter[str] | None = None
        self._touches: list[set[str]] | None = None
        self._held: Counter[int] | None = None

    def desc(self, store: Any) -> _core.StoreDesc | None:
        index = self._position.get(id(store))
        found: _core.StoreDesc | None = None if index is None else self.planned.parsed[index]
        return found

    @staticmethod
    def _roots(texts: list[str]) -> Counter[str]:
        roots: Counter[str] = Counter()
        for text in texts:
            d = _core.parse_store_desc(text)
            roots[d.root_key if d is not None else text] += 1
        return roots

    def reachable_roots(self) -> Counter[str]:
        """Roots the program can reach after the window: live arrays and foreign references."""
        if self._reachable is None:
            self._reachable = self._roots(self.planned.live)
        return self._reachable

    def array_roots(self) -> Counter[str]:
        """How many live cuPyNumeric arrays (views included) address each root."""
        if self._arrays is None:
            self._arrays = self._roots(self.planned.live_arrays)
        return self._arrays

    def touched_roots(self, task: int) -> set[str]:
        if self._touches is None:
            touches = []
            for record in self.planned.records:
                roots = set()
                for store in record.stores:
                    d = self.desc(store)
                    roots.add(d.root_key if d is not None else f"unknown {id(store)}")
                touches.append(roots)
            self._touches = touches
        return self._touches[task]

    def held(self) -> Counter[int]:
        """References to stores held by the window's own records and lists."""
        if self._held is None:
            held = held_references(self.planned.records, self.planned.lifted)
            held.update(map(id, self.planned.stores))
            self._held = held
        return self._held


def _whole(d: _core.StoreDesc | None) -> bool:
    return d is not None and not d.is_future and not d.unbound and d.transform == "" \
        and len(d.shape) > 0


def _only_owner(arg: KernelArg, facts: WindowFacts) -> Any:
    """The one cuPyNumeric array owning `arg.store` when nothing else references the store."""
    owners = facts.arrays_with_base(arg.store)
    if len(owners) != 1:
        return None
    # References expected: the KernelArg, the owner's `base` (and the liveness tracker's
    # description cache on it), the window's own (records, lifted tasks, the planned store
    # list) and getrefcount's argument. Any more is foreign.
    cached = owners[0].__dict__.get(DESCRIPTION_CACHE)
    owner_refs = 1 + int(cached is not None and cached[0] is arg.store)
    expected = 1 + owner_refs + facts.held()[id(arg.store)] + 1
    if sys.getrefcount(arg.store) > expected:
        return None
    return owners[0]


def plan_reuse(kernel: FusedKernel, group: _core.Group, facts: WindowFacts
               ) -> tuple[FusedKernel, list[Reuse]]:
    """The kernel with outputs redirected over dying inputs, and the swaps to make after the
    launch; the kernel unchanged and no swaps when no output qualifies."""
    args = list(kernel.args)
    descs = [facts.desc(a.store) for a in args]
    views: dict[str, set[str]] = {}
    for d in descs:
        if d is not None:
            views.setdefault(d.root_key, set()).add(d.view_key)
    written = {d.root_key for a, d in zip(args, descs, strict=True)
               if d is not None and a.role != ROLE_INPUT}
    # Tasks that run after this group: all but its own and those of the groups before it
    # (groups run in plan order, whatever their tasks' positions in the window).
    done = set(group.tasks)
    for earlier in facts.planned.plan.groups:
        if list(earlier.tasks) == list(group.tasks):
            break
        done.update(earlier.tasks)
        done.update(earlier.dead_tasks)
    later_outside = [t for t in range(len(facts.planned.records)) if t not in done]

    def touched_outside(root: str) -> bool:
        return any(root in facts.touched_roots(t) for t in later_outside)

    def new_qualifies(d: _core.StoreDesc | None) -> bool:
        return _whole(d) and d is not None and len(views[d.root_key]) == 1 \
            and facts.array_roots()[d.root_key] == 1 and not touched_outside(d.root_key)

    def old_qualifies(d: _core.StoreDesc | None, new: _core.StoreDesc) -> bool:
        return _whole(d) and d is not None and d.root_key not in written \
            and d.root_key not in facts.external_roots \
            and (d.dtype, d.shape, d.index_space) == (new.dtype, new.shape, new.index_space) \
            and len(views[d.root_key]) == 1 and facts.reachable_roots()[d.root_key] == 0 \
            and not touched_outside(d.root_key)

    swaps: list[Reuse] = []
    taken: set[int] = set()
    for out_position, (arg, new_desc) in enumerate(zip(args, descs, strict=True)):
        if arg.role != ROLE_OUTPUT or not new_qualifies(new_desc):
            continue
        assert new_desc is not None
        for in_position, (candidate, old_desc) in enumerate(zip(args, descs, strict=True)):
            if candidate.role != ROLE_INPUT or in_position in taken \
                    or old_desc is None or not old_qualifies(old_desc, new_desc):
                continue
            owner = _only_owner(arg, facts)
            if owner is not None:
                logger.debug("output %s written over %s", new_desc.view_key, old_desc.view_key)
                args[out_position] = KernelArg(candidate.store, ROLE_OUTPUT, arg.redop)
                taken.add(in_position)
                swaps.append(Reuse(owner, candidate.store))
            break
    if not swaps:
        return kernel, []
    return FusedKernel(kernel.spec, tuple(args)), swaps

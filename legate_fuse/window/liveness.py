"""Which stores the program can still reach, so that the analysis never eliminates them.

cuPyNumeric keeps each array's data in `DeferredArray.base`, a LogicalStore; a view (a slice, a
broadcast) is another DeferredArray whose store addresses the same root. Every DeferredArray is
tracked weakly from its creation: at a flush, the stores of those still alive are the stores the
program can reach. Stores referenced from anywhere else (another library, user code holding a
store) are caught by their reference count (see `foreign_references`).
"""

from __future__ import annotations

import functools
import gc
import sys
import weakref
from collections.abc import Callable, Container, Sequence
from typing import Any

from legate_fuse.capture.compat import STORE_ATTRIBUTE
from legate_fuse.capture.patches import PATCHES

ROOT_CACHE = "_legate_fuse_root"  # on each array: (its store, the store's root key)
_FIRST_PRUNE = 1024  # tracked arrays, dead or alive, before the first pruning


class ArrayTracker:
    """Every DeferredArray, weakly. A list of weak references costs the program a fraction of
    a microsecond per array (a WeakSet, written in Python, costs several): dead ones are
    dropped when the list has doubled since it was last pruned, and at each read."""

    def __init__(self) -> None:
        self._arrays: list[weakref.ref[Any]] = []
        self._prune_at = _FIRST_PRUNE
        self.installed = False
        # A call due once so many more arrays are created (call_after), at a length of the
        # list (moved down as pruning shortens it); the list's length checked at each array.
        self._callback: Callable[[], None] | None = None
        self._callback_at = 0
        self._check_at = self._prune_at

    def install(self) -> bool:
        """Starts tracking DeferredArrays; True once done (the class may not exist yet while
        cuPyNumeric is importing)."""
        if self.installed:
            return True
        module = sys.modules.get("cupynumeric._thunk.deferred")
        cls = getattr(module, "DeferredArray", None) if module is not None else None
        if cls is None:
            return False
        original_init = cls.__init__
        tracker, arrays = self, self._arrays

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            original_init(self, *args, **kwargs)
            arrays.append(weakref.ref(self))
            if len(arrays) >= tracker._check_at:
                tracker._check()

        __init__.__wrapped__ = original_init  # type: ignore[attr-defined]
        PATCHES.replace(cls, "__init__", __init__)
        # Arrays created before tracking started (normally none).
        for obj in gc.get_objects():
            if isinstance(obj, cls):
                arrays.append(weakref.ref(obj))
        self.installed = True
        return True

    def call_after(self, arrays: int, callback: Callable[[], None]) -> None:
        """Calls `callback` once `arrays` more arrays have been created (replacing any call
        not made yet)."""
        self._callback = callback
        self._callback_at = len(self._arrays) + arrays
        self._check_at = min(self._prune_at, self._callback_at)

    def _check(self) -> None:
        """Prunes the list when it has doubled; makes the call due, if any."""
        if len(self._arrays) >= self._prune_at:
            self._prune()
        callback = self._callback
        if callback is not None and len(self._arrays) >= self._callback_at:
            self._callback = None
            self._check_at = self._prune_at
            callback()

    def _prune(self) -> None:
        """Drops the references to dead arrays (in place: the tracking hook appends to this
        list)."""
        before = len(self._arrays)
        self._arrays[:] = [reference for reference in self._arrays if reference() is not None]
        self._set_prune_at(before)

    def _set_prune_at(self, length_before: int) -> None:
        """After pruning from `length_before` references: the next pruning when the list has
        doubled, the call due counted in arrays created since it was asked for."""
        self._prune_at = max(_FIRST_PRUNE, 2 * len(self._arrays))
        self._callback_at -= length_before - len(self._arrays)
        self._check_at = min(self._prune_at, self._callback_at) if self._callback else (
            self._prune_at)

    def live_roots(self, referenced: Container[int] = ()) -> set[str]:
        """The root keys (`root_of`) of the stores of the DeferredArrays still alive, each
        found once per array and store; drops the references to dead arrays on the way.
        An array whose store is one of `referenced` (ids of stores whose reachability the
        caller learns otherwise: a window's own stores, by `foreign_references`, which counts
        the array's reference) is passed over: most arrays a window's tasks take are new, and
        would be described for nothing.

        This runs at every window, over every array the program holds: one pass, one cached
        key per array (a program holding thousands of arrays paid about a microsecond per
        array per window when their descriptions went to the analysis to be parsed)."""
        roots: set[str] = set()
        alive: list[weakref.ref[Any]] = []
        for reference in self._arrays:
            array = reference()
            if array is None:
                continue
            alive.append(reference)
            attributes = array.__dict__
            base = attributes.get(STORE_ATTRIBUTE)
            if base is None or id(base) in referenced:
                continue
            cached = attributes.get(ROOT_CACHE)
            if cached is None or cached[0] is not base:
                # An array's store can be replaced (a sort's result): the key follows it.
                text = str(base)
                cached = (base, root_of(text))
                if "unbound" not in text:  # an unbound store's description changes once bound
                    attributes[ROOT_CACHE] = cached
            if cached[1] is not None:
                roots.add(cached[1])
        before = len(self._arrays)
        self._arrays[:] = alive
        self._set_prune_at(before)
        return roots


def reference_counts_as_assumed() -> bool:
    """Whether this interpreter's reference counts behave as `foreign_references` assumes.

    CPython 3.11-3.13 count every reference; later versions may borrow references (locals,
    arguments) and report lower counts, which would make a store referenced from outside the
    window look dead: the unsafe direction. The probe runs the real function on an object
    referenced only through the window's list, and again with one more reference; other
    interpreters and versions are not trusted at all."""
    if sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info[:2] <= (3, 13):
        return False
    stores = [object()]
    alone = foreign_references(stores, [0])
    extra = stores[0]  # a reference from outside the window's records
    referenced = foreign_references(stores, [0])
    del extra
    return alone == [] and referenced == [0]


def foreign_references(stores: Sequence[Any], held: Sequence[int]) -> list[int]:
    """The indices in `stores` of those referenced from outside the window's own records.

    `held[i]` counts the references the caller's records hold to `stores[i]`. Two more are
    expected: the caller's `stores` sequence and `sys.getrefcount`'s argument (the loop runs
    over indices: a loop variable, or a tuple of zip's, would hold one more). An over-count
    only makes a store look reachable, which is safe."""
    found = []
    for i in range(len(stores)):
        if sys.getrefcount(stores[i]) - 2 - held[i] > 0:
            found.append(i)
    return found


def root_key(store: Any) -> str | None:
    """The identity of the storage under a store, whatever view of it the store is; None when
    Legate's description of the store cannot be read."""
    return root_of(str(store))


def root_of(description: str) -> str | None:
    """`root_key` from Legate's description of a store."""
    desc = _parse_store_desc()(description)
    return desc.root_key if desc is not None else None


@functools.cache
def _parse_store_desc() -> Callable[[str], Any]:
    """The analysis' parser of store descriptions, imported on first use (this module is
    imported when the session starts, before anything needs the native extension)."""
    from legate_fuse import _core

    return _core.parse_store_desc

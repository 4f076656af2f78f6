"""Futures that a fused task returns together, and fills whose value is one of them.

Legate packs the Futures a task returns into one; a task that reads one of them later gets
the right value, but `Runtime.issue_fill(store, value)` with such a store as the value fills
with the first of the packed values (legate 26.06). cuPyNumeric's own tasks never return two
Futures, and it funnels every other use of a Future through such a fill (a copy between
one-element arrays, the conversion of a Future to a region), so only that call needs care:
the runtime proxy reads the value (which waits for the fused task) and fills with it as a
Scalar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy

# Beyond this many remembered storages, those no live array or held task uses are forgotten.
_PRUNE_AT = 4096


class PackedFutures:
    def __init__(self, root_key: Callable[[Any], str | None],
                 roots_in_use: Callable[[], set[str | None]]) -> None:
        self._root_key = root_key
        self._roots_in_use = roots_in_use
        self._roots: set[str | None] = set()

    def note_results(self, stores: Iterable[Any]) -> None:
        """A fused task was submitted with these output and reduction stores."""
        futures = [store for store in stores if store.has_scalar_storage]
        if len(futures) < 2:
            return
        self._roots.update(self._root_key(store) for store in futures)
        if len(self._roots) > _PRUNE_AT:
            self._roots &= self._roots_in_use()

    def fill_value(self, value: Any) -> Any:
        """The value to fill with: `value` itself, or, for a packed Future, its contents as a
        Scalar (the caller has run every held task)."""
        if not self._roots:  # the common case, checked first: this runs for every fill
            return value
        from legate.core import LogicalStore, Scalar

        if not isinstance(value, LogicalStore) or not value.has_scalar_storage:
            return value
        if self._root_key(value) not in self._roots:
            return value
        contents = numpy.asarray(value.get_physical_store().get_inline_allocation())
        # A 0-d array, not an element: Scalar takes NumPy's bool scalar for no type, and the
        # array keeps every bit (NaN payloads included).
        return Scalar(contents.reshape(-1)[:1].reshape(()).copy(), value.type)

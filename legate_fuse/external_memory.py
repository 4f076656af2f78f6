"""Memory the program owns: NumPy buffers that Legate works on in place.

`cupynumeric.asarray(host)`, a ufunc's `out=host` and NumPy's own `host *= x` attach `host`'s
buffer to a store (`Runtime.create_store_from_buffer`). NumPy reads that buffer as soon as
cuPyNumeric returns, calling no one, so a task writing such a store must run before
cuPyNumeric returns: the session flushes right after holding it.

A store's storage is known by its root (region tree and field, see `session.root_key`); Legate
recycles a root once its store dies, so a root is external only while the buffer behind it is
alive (a weak reference to the buffer). A root recycled while the buffer lives only flushes
more. `cupynumeric.array(host)` attaches a private copy that NumPy never reads: stores created
while cuPyNumeric copies are not external.
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable
from typing import Any

from legate_fuse import compat

# A root that could not be read: every write then counts as a write to external memory.
UNKNOWN_ROOT = "<storage not described>"

_MARK = "__legate_fuse_copies__"


class ExternalMemory:
    def __init__(self, root_key: Callable[[Any], str | None]) -> None:
        self._root_key = root_key
        self._buffers: dict[str, list[Callable[[], Any]]] = {}
        self._copying = 0
        self.installed = False

    def install(self) -> bool:
        """Learns when cuPyNumeric attaches a copy rather than the program's buffer; True once
        done. Until then every attached buffer counts as the program's."""
        if self.installed:
            return True
        module_name, class_name, attribute = compat.ARRAY_ATTACH
        owner = getattr(sys.modules.get(module_name), class_name, None)
        original = getattr(owner, attribute, None)
        if original is None:
            return False
        if not hasattr(original, _MARK):
            memory = self

            @functools.wraps(original)
            def find_or_create_array_thunk(runtime: Any, array: Any, transfer: Any,
                                           *args: Any, **kwargs: Any) -> Any:
                # A TransferType; anything else counts as sharing (flushes more, never less).
                copying = getattr(transfer, "name", None) == "MAKE_COPY"
                memory._copying += copying
                try:
                    return original(runtime, array, transfer, *args, **kwargs)
                finally:
                    memory._copying -= copying

            setattr(find_or_create_array_thunk, _MARK, original)
            setattr(owner, attribute, find_or_create_array_thunk)
        self.installed = True
        return True

    def note(self, store: Any, buffer: Any) -> None:
        """`store` was created over `buffer`."""
        if self._copying:
            return
        try:
            alive: Callable[[], Any] = weakref.ref(buffer)
        except TypeError:  # cannot tell when it dies: external for good
            alive = functools.partial(lambda kept: kept, buffer)
        self._buffers.setdefault(self._root_key(store) or UNKNOWN_ROOT, []).append(alive)

    @property
    def tracking(self) -> bool:
        """Whether any buffer of the program is attached (it may have died since)."""
        return bool(self._buffers)

    def holds(self, root: str | None) -> bool:
        """Whether a store with this root may be over a live buffer of the program."""
        if not self._buffers:
            return False
        if root is None or self._alive(UNKNOWN_ROOT):
            return True
        return self._alive(root)

    def _alive(self, root: str) -> bool:
        buffers = self._buffers.get(root)
        if buffers is None:
            return False
        buffers[:] = [alive for alive in buffers if alive() is not None]
        if not buffers:
            del self._buffers[root]
        return bool(buffers)

"""Memory NumPy can read without calling anyone: a task writing it must run before
cuPyNumeric returns (the session flushes right after holding it).

Two ways make such memory. `cupynumeric.asarray(host)`, a ufunc's `out=host` and NumPy's own
`host *= x` attach `host`'s buffer to a store (`Runtime.create_store_from_buffer`). And
`np.asarray(x)` (and `x.flat`, `x.__array__()`...) returns a NumPy view of the store's own
allocation (`DeferredArray.__numpy_array__`), as does DLPack; later writes to `x` show through
that view.

Such memory, and the private copies `cupynumeric.array(host)` attaches, is also never handed
to another array by a window's plan (`foreign_roots`; analysis/storage_sharing.h): it is not
Legate's to reuse.

A store's storage is known by its root (region tree and field, see `liveness.root_key`); Legate
recycles a root once its store dies, so a root is external only while the buffer behind it is
alive (a weak reference to the buffer). A root recycled while the buffer lives is told apart
by its storage: a store made over the root anew (level 0 of Legate's storage tree) has a
storage of its own, and one that is not the storage of a store noted over the buffer is not
external (a NumPy `out=` array's field, recycled once cuPyNumeric let go of the store attached
to it, made every later task writing a new array of its shape flush the window). A view of it
(a storage of a deeper level, which names no allocation) still counts as external. Where the
reader cannot be seen (a DLPack consumer, tiles of external allocations), the root is external
while any cuPyNumeric array over it is alive: only through one can a task write it.
`cupynumeric.array(host)` attaches a private copy that NumPy never reads: stores created while
cuPyNumeric copies are not external.
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable, Container
from typing import Any

import numpy

from legate_fuse.capture import compat
from legate_fuse.capture.patches import PATCHES
from legate_fuse.capture.task_record import TaskRecord

# A root that could not be read: every write then counts as a write to external memory.
UNKNOWN_ROOT = "<storage not described>"

_MARK = "__legate_fuse_external__"

# Roots over memory not Legate's own remembered; past this many, every root counts as such.
MOST_FOREIGN = 1024


class _Everything:
    """Contains every root key."""

    def __contains__(self, key: object) -> bool:
        return True


def _forever() -> bool:
    return True


def _allocation(store: Any) -> int | None:
    """The id of the storage Legate made with the store, when the store is over all of it
    (level 0 of the storage tree, however transformed); None for a view or a store that could
    not be read."""
    from legate_fuse import _core

    desc = _core.parse_store_desc(str(store))
    if desc is None or desc.is_future or desc.level != 0:
        return None
    return int(desc.storage_id)


def _reference(buffer: Any) -> Callable[[], Any] | None:
    """A weak reference to `buffer`; None when it cannot have one (None itself, say)."""
    try:
        return weakref.ref(buffer)
    except TypeError:
        return None


class ExternalMemory:
    def __init__(self, root_key: Callable[[Any], str | None],
                 live_roots: Callable[[], set[str | None]]) -> None:
        self._root_key = root_key
        self._live_roots = live_roots
        self._buffers: dict[str, list[Callable[[], Any]]] = {}
        # Per root with buffers, the storages of the stores noted over it (None: a view's).
        self._storages: dict[str, set[int | None]] = {}
        # Roots over memory Legate did not make for the program's arrays alone, whoever reads
        # it, while what owns it lives (for good when that cannot be seen).
        self._foreign: dict[str, list[Callable[[], Any]]] = {}
        self._copying = 0
        self.installed = False
        # Told of every store noted: memory the program can now write without a task.
        self.exported: Callable[[list[Any]], None] | None = None

    def install(self) -> bool:
        """Wraps the methods that attach and export memory (compat.ARRAY_ATTACH and
        ARRAY_EXPORTS); True once done. Until then every attached buffer counts as the
        program's, and the session holds no task (read points are pending)."""
        if self.installed:
            return True
        if any(_method(*name) is None for name in (compat.ARRAY_ATTACH, *compat.ARRAY_EXPORTS)):
            return False
        _wrap(compat.ARRAY_ATTACH, self._counting_copies)
        for name in compat.ARRAY_EXPORTS:
            _wrap(name, self._noting_exports)
        self.installed = True
        return True

    @property
    def copying(self) -> bool:
        """Whether cuPyNumeric is attaching a private copy of NumPy data (`cupynumeric.array`):
        a buffer no one else holds, never read or written but through Legate."""
        return self._copying > 0

    def note_attached(self, store: Any, buffer: Any) -> None:
        """`store` was created over `buffer`."""
        if not self.copying:
            self.note(store, buffer)
        else:
            root = self._root_key(store) or UNKNOWN_ROOT
            self._foreign.setdefault(root, []).append(_reference(buffer) or _forever)

    def note(self, store: Any, buffer: Any) -> None:
        """`store`'s memory is visible to the program while `buffer` is alive (while an array
        over it is, when `buffer` cannot be weakly referenced, e.g. None)."""
        if self.exported is not None:
            self.exported([store])
        root = self._root_key(store) or UNKNOWN_ROOT
        reference = _reference(buffer)
        self._buffers.setdefault(root, []).append(
            reference or functools.partial(self._array_over, root))
        self._storages.setdefault(root, set()).add(_allocation(store))
        self._foreign.setdefault(root, []).append(reference or _forever)

    def foreign_roots(self) -> Container[str]:
        """The roots over memory that is not Legate's own for the program's arrays: attached
        buffers and private copies while they live, memory NumPy or a DLPack consumer was
        given; every root when one could not be read or too many were noted."""
        if not self._foreign:  # the common case
            return frozenset()
        for root in list(self._foreign):
            owners = self._foreign[root]
            owners[:] = [alive for alive in owners if alive() is not None]
            if not owners:
                del self._foreign[root]
        if UNKNOWN_ROOT in self._foreign or len(self._foreign) > MOST_FOREIGN:
            return _Everything()
        return frozenset(self._foreign)

    def _array_over(self, root: str) -> bool | None:
        return True if root == UNKNOWN_ROOT or root in self._live_roots() else None

    @property
    def tracking(self) -> bool:
        """Whether any store is visible to the program now (forgets the buffers that died, so
        that a program that read an array once pays nothing afterwards)."""
        if not self._buffers:  # the common case, without allocating: this runs per task
            return False
        for root in list(self._buffers):
            self._alive(root)
        return bool(self._buffers)

    def written_by(self, record: TaskRecord) -> bool:
        """Whether the task writes or reduces into a store over memory the program owns (or
        might: a store whose storage cannot be told counts as such)."""
        if not self.tracking:  # the common case, checked first: this runs for every task
            return False
        from legate_fuse.capture.store_args import stores_of

        return any(self.holds(root) and not self._made_anew(store, root)
                   for arg in record.args if arg.kind != "add_input"
                   for store in stores_of(arg.store)
                   for root in (self._root_key(store),))

    def _made_anew(self, store: Any, root: str | None) -> bool:
        """Whether `store` was made over its root after the stores noted over it: its own
        allocation, not the buffer's."""
        noted = self._storages.get(root) if root is not None else None
        if noted is None or None in noted:
            return False
        allocation = _allocation(store)
        return allocation is not None and allocation not in noted

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
            self._storages.pop(root, None)
        return bool(buffers)

    # -- wrappers ---------------------------------------------------------------------------
    def _counting_copies(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def find_or_create_array_thunk(runtime: Any, array: Any, transfer: Any,
                                       *args: Any, **kwargs: Any) -> Any:
            # A TransferType; anything else counts as sharing (flushes more, never less).
            copying = getattr(transfer, "name", None) == "MAKE_COPY"
            self._copying += copying
            try:
                return original(runtime, array, transfer, *args, **kwargs)
            finally:
                self._copying -= copying

        return find_or_create_array_thunk

    def _noting_exports(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def export(thunk: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(thunk, *args, **kwargs)
            # NumPy views keep the object owning the memory alive through `.base`; a DLPack
            # capsule's consumer cannot be seen, so its store stays visible for good.
            owner = result
            while isinstance(owner, numpy.ndarray) and owner.base is not None:
                owner = owner.base
            self.note(getattr(thunk, compat.STORE_ATTRIBUTE),
                      owner if isinstance(result, numpy.ndarray) else None)
            return result

        return export


def _method(module_name: str, class_name: str, attribute: str) -> Any:
    owner = getattr(sys.modules.get(module_name), class_name, None)
    return owner.__dict__.get(attribute) if isinstance(owner, type) else None


def _wrap(name: tuple[str, str, str],
          wrapper: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Replaces a method by `wrapper(method)`, once."""
    module_name, class_name, attribute = name
    original = _method(module_name, class_name, attribute)
    if hasattr(original, _MARK):
        return
    wrapped = functools.wraps(original)(wrapper(original))
    setattr(wrapped, _MARK, original)
    PATCHES.replace(getattr(sys.modules[module_name], class_name), attribute, wrapped)

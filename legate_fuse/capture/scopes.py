"""Legate's scope (machine, priority, exception mode, parallel policy) is a task's to keep: a held
task must run under the scope it was created in, and so must a fused task built for it.

`legate.core.Scope` is replaced by a subclass that runs everything held before the scope is
entered and before it is left, so that a window never spans two scopes: what it holds runs under
the scope in force when it is flushed, the one its tasks were created in. A scope that only sets
the provenance (a label for profiles) does not flush; lazily built tasks keep their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legate_fuse.capture.patches import PATCHES

_ORIGINAL: list[Any] = []


def legate_scope() -> Any:
    """Legate's own Scope class (which never flushes)."""
    if _ORIGINAL:
        return _ORIGINAL[0]
    from legate.core import Scope

    return Scope


def install(core: Any, flush: Callable[[str], None]) -> None:
    """Replaces `core.Scope` (legate.core's) by a scope that flushes the window when entered and
    left. Runs as soon as legate.core is imported, before anyone takes a reference to it."""
    if _ORIGINAL:
        return
    original = core.Scope

    class Scope(original):  # type: ignore[misc, valid-type]
        __doc__ = original.__doc__

        def __init__(self, **settings: Any) -> None:
            super().__init__(**settings)
            self._legate_fuse_flushes = any(
                value is not None for key, value in settings.items() if key != "provenance")

        def __enter__(self) -> None:
            if self._legate_fuse_flushes:
                flush("scope")
            super().__enter__()

        def __exit__(self, *exc: Any) -> None:
            if self._legate_fuse_flushes:
                flush("scope")
            super().__exit__(*exc)

    Scope.__name__ = Scope.__qualname__ = original.__name__
    Scope.__module__ = original.__module__
    _ORIGINAL.append(original)
    PATCHES.replace(core, "Scope", Scope)

"""Legate's traces (`Trace(trace_id)`, Legion tracing): a window never spans a trace boundary.

Legion records the operations issued between `begin_trace` and `end_trace` and expects the same
ones each time the trace runs. Tasks held across a boundary would be issued outside the trace
they were created in, or in the next one: with fusion on, a loop body in a trace hung the
process. `Trace` is replaced, in every module that exports it, by a subclass that runs
everything held before the trace begins and before it ends, so that the tasks created in the
trace (fused or not) are issued inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from legate_fuse.capture.patches import PATCHES

# Where Legate defines or re-exports Trace (the first is where 26.06 defines it).
MODULES = ("legate.core._lib.experimental.trace", "legate.core.experimental.trace")
_MARK = "_legate_fuse_flushes"


def install(module: ModuleType, flush: Callable[[str], None],
            entering: Callable[[], None] = lambda: None,
            leaving: Callable[[], None] = lambda: None) -> None:
    """Replaces `module.Trace` by a subclass flushing the window on entry and exit (once),
    calling `entering` on entry, after the flush, before the trace begins, and `leaving` after
    the flush on exit."""
    original = getattr(module, "Trace", None)
    if original is None or getattr(original, _MARK, False):
        return

    class Trace(original):  # type: ignore[misc, valid-type]
        __doc__ = original.__doc__

        def __enter__(self) -> Any:
            flush("trace")
            entering()
            return super().__enter__()

        def __exit__(self, *exc: Any) -> Any:
            flush("trace")
            leaving()
            return super().__exit__(*exc)

    Trace.__name__ = Trace.__qualname__ = original.__name__
    Trace.__module__ = original.__module__
    setattr(Trace, _MARK, True)
    PATCHES.replace(module, "Trace", Trace)

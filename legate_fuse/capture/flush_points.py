"""Where data flows from Legate back to Python: the window must be flushed before each.

cuPyNumeric reads array contents only through a few DeferredArray methods (behind `__array__`,
`__bool__`, `__float__`, `item`, `tolist`, printing, pickling...), hands stores to other code
through DLPack and the Legate data interface, and `legate.timing.time()` orders itself after
all submitted work. Each of these is wrapped to flush the window first. Reading a held Future
would abort the process and reading a held region would silently return stale data, so none may
be missed.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from legate_fuse.capture import compat
from legate_fuse.capture.patches import PATCHES

_MARK = "__legate_fuse_flushes__"


# The read point a Legate library reaches cuPyNumeric's stores through, to build its own tasks.
DATA_INTERFACE = "data_interface"


def _flushing(original: Callable[..., Any], flush: Callable[[str], None], reason: str,
              builds_tasks: Callable[[str], bool] | None = None) -> Any:
    if builds_tasks is not None:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            # A library whose lifting says it only builds tasks with the stores it gets (and
            # those tasks reach the window): nothing is read, nothing need run first.
            if not builds_tasks(sys._getframe(1).f_globals.get("__name__", "")):
                flush(reason)
            return original(*args, **kwargs)
    else:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            flush(reason)
            return original(*args, **kwargs)

    setattr(wrapper, _MARK, original)
    return wrapper


def _wrap(owner: Any, attribute: str, flush: Callable[[str], None], reason: str,
          builds_tasks: Callable[[str], bool] | None = None) -> None:
    current = owner.__dict__[attribute] if isinstance(owner, type) else getattr(owner, attribute)
    if isinstance(current, property):
        if current.fget is None or hasattr(current.fget, _MARK):
            return
        wrapped: Any = property(_flushing(current.fget, flush, reason, builds_tasks),
                                current.fset, current.fdel)
    else:
        if hasattr(current, _MARK):
            return
        wrapped = _flushing(current, flush, reason, builds_tasks)
    PATCHES.replace(owner, attribute, wrapped)


MODULES = tuple(dict.fromkeys(module for module, *_ in compat.READ_POINTS))


def install(flush: Callable[[str], None], builds_tasks: Callable[[str], bool] | None = None
            ) -> bool:
    """Wraps every read point whose module is imported. Idempotent: called again as modules
    arrive. Returns False while an imported module is still initialising (its class does not
    exist yet), so the caller tries again later. `builds_tasks(module name)`: whether code of
    that module reaches stores through the data interface only to build tasks with them."""
    complete = True
    for module_name, class_name, attribute, reason in compat.READ_POINTS:
        module = sys.modules.get(module_name)
        if module is None:
            continue
        owner = getattr(module, class_name, None) if class_name else module
        if owner is None or not hasattr(owner, attribute):
            complete = False
            continue
        _wrap(owner, attribute, flush, reason,
              builds_tasks if reason == DATA_INTERFACE else None)
    return complete

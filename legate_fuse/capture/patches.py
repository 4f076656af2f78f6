"""Every change the plugin makes to Legate's and cuPyNumeric's modules and classes, recorded so
that all of them can be undone.

When a kill switch fires after the hooks are in place (a name missing from a module imported
late, a store description the planner cannot read), the plugin must leave the program's path:
with nothing held, each replaced attribute gets its original back, and every reference taken
meanwhile to a replacement (cuPyNumeric's `from legate.core import get_legate_runtime`, its
module-level `legate_runtime = get_legate_runtime()`, which is a runtime proxy) is swapped for
the original in every imported module's namespace. From then on the program calls Legate's own
runtime, functions and classes, with no frame of the plugin's.
"""

from __future__ import annotations

import sys
from typing import Any


class Patches:
    def __init__(self) -> None:
        # (owner, attribute, original, replacement), in the order applied.
        self._applied: list[tuple[Any, str, Any, Any]] = []
        # id(stand-in) -> (stand-in, original): objects handed out in place of Legate's.
        self._stand_ins: dict[int, tuple[Any, Any]] = {}

    def replace(self, owner: Any, attribute: str, replacement: Any) -> Any:
        """Sets `owner.attribute` to `replacement`; returns what it was (for a class, its own
        entry, so that a property stays a property)."""
        if isinstance(owner, type) and attribute in owner.__dict__:
            original = owner.__dict__[attribute]
        else:
            original = getattr(owner, attribute)
        setattr(owner, attribute, replacement)
        self._applied.append((owner, attribute, original, replacement))
        return original

    def stand_in(self, stand_in: Any, original: Any) -> None:
        """`stand_in` was handed out in place of `original` (a runtime proxy for the runtime)."""
        self._stand_ins[id(stand_in)] = (stand_in, original)

    def undo(self) -> None:
        """Restores every original, and swaps back every reference to a replacement or a
        stand-in found in a module's namespace."""
        originals = dict(self._stand_ins)
        for owner, attribute, original, replacement in reversed(self._applied):
            originals[id(replacement)] = (replacement, original)
            current = (owner.__dict__.get(attribute) if isinstance(owner, type)
                       else getattr(owner, attribute, None))
            if current is replacement:
                setattr(owner, attribute, original)
        self._applied.clear()
        self._stand_ins.clear()
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if not isinstance(namespace, dict):
                continue
            for name, value in list(namespace.items()):
                entry = originals.get(id(value))
                if entry is not None and entry[0] is value:
                    namespace[name] = entry[1]


# The process's one record (the plugin patches each name once per process).
PATCHES = Patches()

"""Run a callback once a named module has been imported, whenever that happens.

legate-fuse must act at precise moments of the program's imports: install its runtime proxy
once `legate.core` exists but before `cupynumeric` takes a reference to the runtime, wrap read
points once their modules exist, and check the names it relies on (compat.py) once their
modules are whole. A meta-path finder that wraps the loader of the watched modules gives that
without importing anything early.

A module is *imported* here when its body has run to the end. A module found in `sys.modules`
may still be running its body (it imports a module that imports it, or a callback runs inside
its import): judged then, its later names would look missing. Such a module's callbacks wait
until `poll()` finds it whole (its loader is already running and can no longer be wrapped).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

PostImportCallback = Callable[[ModuleType], None]


class PostImportFinder:
    """A meta-path finder (the import system needs only its find_spec; importlib.abc's base
    class would import importlib.resources and what it imports: 0.5 MiB and 12 ms at start)."""

    def __init__(self) -> None:
        self._callbacks: dict[str, list[PostImportCallback]] = {}
        # Modules whose body ran to the end under a wrapped loader: importlib still marks
        # them as initialising while their callbacks run.
        self.completed: set[str] = set()

    def watch(self, module_name: str, callback: PostImportCallback) -> None:
        self._callbacks.setdefault(module_name, []).append(callback)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        callbacks = self._callbacks.pop(fullname, None)
        if callbacks is None:
            return None
        spec = self._find_with_other_finders(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader: Any = spec.loader
        original_exec = loader.exec_module
        completed = self.completed

        def exec_module(module: ModuleType) -> None:
            original_exec(module)
            completed.add(fullname)
            for callback in callbacks:
                callback(module)

        loader.exec_module = exec_module
        return spec

    def _find_with_other_finders(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None
    ) -> ModuleSpec | None:
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None


_finder: PostImportFinder | None = None
# Callbacks of modules that were still running their body when asked for (see poll).
_awaiting: list[tuple[str, PostImportCallback]] = []


def is_imported(module_name: str) -> bool:
    """Whether the module is in `sys.modules` with its body run to the end."""
    module = sys.modules.get(module_name)
    if module is None:
        return False
    if _finder is not None and module_name in _finder.completed:
        return True
    return not getattr(getattr(module, "__spec__", None), "_initializing", False)


def after_import(module_name: str, callback: PostImportCallback) -> None:
    """Calls `callback(module)` now if the module is imported, else right after its import
    (for a module already running its body, at the first `poll()` after it ends)."""
    if is_imported(module_name):
        callback(sys.modules[module_name])
        return
    if module_name in sys.modules:
        _awaiting.append((module_name, callback))
        return
    global _finder
    if _finder is None:
        _finder = PostImportFinder()
        sys.meta_path.insert(0, _finder)
    _finder.watch(module_name, callback)


def awaiting() -> bool:
    """Whether a callback waits for a module that was running its body when asked for."""
    return bool(_awaiting)


def poll() -> None:
    """Runs the waiting callbacks whose modules are now imported."""
    if not _awaiting:
        return
    ready = [(name, callback) for name, callback in _awaiting if is_imported(name)]
    _awaiting[:] = [entry for entry in _awaiting if entry not in ready]
    for name, callback in ready:
        callback(sys.modules[name])

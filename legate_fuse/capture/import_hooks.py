"""Run a callback right after a named module has been imported, whenever that happens.

legate-fuse must act at precise moments of the program's imports: install its runtime proxy
once `legate.core` exists but before `cupynumeric` takes a reference to the runtime, and wrap
read points once their modules exist. A meta-path finder that wraps the loader of the watched
modules gives that without importing anything early.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

PostImportCallback = Callable[[ModuleType], None]


class PostImportFinder(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        self._callbacks: dict[str, list[PostImportCallback]] = {}

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

        def exec_module(module: ModuleType) -> None:
            original_exec(module)
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


def after_import(module_name: str, callback: PostImportCallback) -> None:
    """Calls `callback(module)` now if the module is imported, else right after its import."""
    module = sys.modules.get(module_name)
    if module is not None:
        callback(module)
        return
    global _finder
    if _finder is None:
        _finder = PostImportFinder()
        sys.meta_path.insert(0, _finder)
    _finder.watch(module_name, callback)

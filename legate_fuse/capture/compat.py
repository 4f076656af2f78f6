"""Every internal name of Legate and cuPyNumeric the plugin relies on, in one place.

Read from legate 26.6.1 and nvidia-cupynumeric 26.6.1 (`site-packages/legate/core/_lib/`,
`site-packages/cupynumeric/_thunk/deferred.py`, `cupynumeric/config.py`). Anything the plugin
intercepts, wraps or reads that is not a documented public API is listed here, so that a new
release can be checked against one list. `missing_in()` reports what an installed version
lacks, module by module as each import completes; the session then turns fusion off (see
session.py), because a hook that is not there is a place where held work could be read stale.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Any

# The versions every name below was read from (distribution name -> version).
TESTED_VERSIONS = {"legate": "26.6.1", "nvidia-cupynumeric": "26.6.1"}

# -- legate.core.Runtime ---------------------------------------------------------------------
# Methods the runtime proxy forwards untouched: they create objects or answer questions, and
# neither depend on nor change the contents of any store a held task touches. So does
# prefetch_bloated_instances, a hint (Legate's documentation) that changes no contents: given
# while tasks are held, it is given before they run, where a stencil's tasks still follow it
# (cuPyNumeric's `stencil_hint`, which passes initialize=False, so nothing is even read).
RUNTIME_PASS_THROUGH = frozenset({
    "add_shutdown_callback", "config", "core_library", "create_array", "create_array_like",
    "create_library", "create_nullable_array", "create_store_from_scalar",
    "create_struct_array", "find_library", "find_or_create_library", "get_machine", "machine",
    "node_count", "node_id", "prefetch_bloated_instances", "realm_config",
})
# Operations on stores: run at once, after the window if a held task touches their stores.
RUNTIME_STORE_OPERATIONS = frozenset({
    "issue_copy", "issue_gather", "issue_scatter", "issue_scatter_gather",
})
# Methods the proxy defines itself (tasks, synchronisation, external memory).
RUNTIME_HANDLED = frozenset({
    "create_auto_task", "create_manual_task", "submit", "tree_reduce", "issue_fill",
    "create_store", "issue_execution_fence",
    "issue_mapping_fence", "finish", "create_store_from_buffer", "create_store_from_tiles",
})
# Any other method or attribute flushes the window first (reason "unknown_runtime_call").

# -- legate.core.AutoTask --------------------------------------------------------------------
# The calls a lifted (fusible) task may have been built with; a lazily recorded task given any
# other call is built at once (capture/lazy_task.py).
TASK_LIFTABLE_CALLS = frozenset({
    "add_input", "add_output", "add_reduction", "add_scalar_arg", "add_constraint",
    "add_alignment", "add_broadcast",
})

# -- Hooks: (module, class or None, attribute) -------------------------------------------------
# Where data flows back to Python (see flush_points.py), with the flush reason of each.
READ_POINTS: tuple[tuple[str, str | None, str, str], ...] = (
    ("cupynumeric._thunk.deferred", "DeferredArray", "__numpy_array__", "read"),
    ("cupynumeric._thunk.deferred", "DeferredArray", "__dlpack__", "dlpack"),
    ("cupynumeric._thunk.deferred", "DeferredArray", "__dlpack_device__", "dlpack"),
    ("cupynumeric._array.array", "ndarray", "__legate_data_interface__", "data_interface"),
    ("legate.timing", None, "time", "timing"),
    ("legate.timing._lib.timing", None, "time", "timing"),
)
# Every other name the plugin reads.
OTHER_NAMES: tuple[tuple[str, str | None, str], ...] = (
    # Replaced by the proxy's factory before cuPyNumeric takes its reference.
    ("legate.core", None, "get_legate_runtime"),
    ("legate.core", None, "LogicalStore"),
    ("legate.core", None, "LogicalArray"),
    # Replaced so that variables of tasks not built yet can be constrained (lazy_task.py), and
    # so that a change of scope runs what was held under the previous one (scopes.py).
    ("legate.core", None, "align"),
    ("legate.core", None, "broadcast"),
    ("legate.core", None, "image"),
    ("legate.core", None, "scale"),
    ("legate.core", None, "bloat"),
    ("legate.core", None, "Scope"),
    # Liveness: every array is tracked from its construction; its store is `DeferredArray.base`.
    ("cupynumeric._thunk.deferred", "DeferredArray", "__init__"),
    # Lifting: task ids and operation codes, read at run time.
    ("cupynumeric.config", None, "CuPyNumericOpCode"),
    ("cupynumeric.config", None, "UnaryOpCode"),
    ("cupynumeric.config", None, "BinaryOpCode"),
    ("cupynumeric.config", None, "UnaryRedCode"),
    ("cupynumeric.config", None, "ConvertCode"),
)
# Wrapped to tell a private copy of a NumPy array (`TransferType.MAKE_COPY`, by name) from the
# program's own buffer attached in place (see external_memory.py).
ARRAY_ATTACH = ("cupynumeric.runtime", "Runtime", "find_or_create_array_thunk")
# Wrapped to learn which stores NumPy (or a DLPack consumer) can see the memory of.
ARRAY_EXPORTS = (("cupynumeric._thunk.deferred", "DeferredArray", "__numpy_array__"),
                 ("cupynumeric._thunk.deferred", "DeferredArray", "__dlpack__"))
# Members of CuPyNumericOpCode the lifting looks up (a missing one only leaves its tasks opaque).
LIFTED_TASK_KINDS = ("UNARY_OP", "BINARY_OP", "WHERE", "CONVERT", "FILL", "SCALAR_UNARY_RED",
                     "UNARY_RED", "DOT", "PUTMASK", "ARANGE", "MATVECMUL", "MATMUL",
                     "BITGENERATOR")
# The attribute of DeferredArray that holds its LogicalStore (an instance attribute).
STORE_ATTRIBUTE = "base"


def _all_names() -> list[tuple[str, str | None, str]]:
    return [(m, c, a) for m, c, a, _ in READ_POINTS] + [*OTHER_NAMES, ARRAY_ATTACH,
                                                        *ARRAY_EXPORTS]


def modules() -> tuple[str, ...]:
    """Every module named above, once each, in the order first named."""
    return tuple(dict.fromkeys(module for module, _, _ in _all_names()))


def missing_in(module: ModuleType) -> list[str]:
    """The names the plugin relies on that `module` lacks, as 'module.Class.attribute'.

    Only a module whose body has run to the end may be judged (import_hooks.is_imported): one
    still being imported has not defined its later names yet."""
    found = []
    for module_name, class_name, attribute in _all_names():
        if module_name != module.__name__:
            continue
        owner = getattr(module, class_name, None) if class_name else module
        if owner is None or not hasattr(owner, attribute):
            found.append(".".join(filter(None, (module_name, class_name, attribute))))
    return found


def unreadable_store_description(runtime: Any) -> str | None:
    """None if the planner reads Legate's description of a fresh store and of its views
    (`str(store)`, parsed by `_core.parse_store_desc`); else what it could not read. A format
    it cannot read would leave every task unfused without a word."""
    from legate.core import types

    from legate_fuse import _core

    store = runtime.create_store(types.float64, shape=(4, 3))
    for view in (store, store.slice(0, slice(1, 3)), store.transpose((1, 0))):
        text = str(view)
        if _core.parse_store_desc(text) is None:
            return f"Legate describes stores in a form legate-fuse cannot read: {text!r}"
    return None


def installed_version(distribution: str) -> str | None:
    """The version of an installed distribution, from its `<name>-<version>.dist-info` folder
    on sys.path (the first, as the import system finds packages). Not importlib.metadata:
    importing it (it brings the email, zipfile and csv modules) and scanning every
    distribution's metadata cost about 1.8 MiB of peak memory in every fused program."""
    prefix = distribution.replace("-", "_").lower() + "-"
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.lower().startswith(prefix):
                return name[len(prefix):-len(".dist-info")]
    return None


def untested_versions() -> list[str]:
    """Installed distributions whose version differs from the one the names were read from."""
    found = []
    for distribution, tested in TESTED_VERSIONS.items():
        installed = installed_version(distribution)
        if installed is not None and installed != tested:
            found.append(f"{distribution} {installed} (tested with {tested})")
    return found

"""How legate-fuse records legate_csr's tasks: its lifting (see legate_fuse.lift.Lifting),
declared as an entry point of the group `legate_fuse.liftings` (pyproject.toml), so that the
plugin finds it without this package importing the plugin.

The library's tasks are recorded lazily and held in the window with the program's other tasks,
instead of running at once after what is held; each runs as built, in program order (none is
fused yet). The library reaches cuPyNumeric's stores through `__legate_data_interface__` only
to build these tasks (`_stores.store_of`), so that read does not flush the window either.
"""

from __future__ import annotations

from typing import Any

import _legate_csr as _tasks

data_interface_builds_tasks = True

_NAMES = {_tasks.SPMV_TASK_ID: "SPMV", _tasks.SPMV_TRANSPOSE_TASK_ID: "SPMV_TRANSPOSE",
          _tasks.DIAGONAL_TASK_ID: "DIAGONAL"}


def lifted_task_ids() -> list[int]:
    return list(_NAMES)


def scalar_limits() -> dict[int, int]:
    return {}


def task_names() -> dict[int, str]:
    return dict(_NAMES)


def lift(record: Any) -> None:
    """None: each task runs as the library built it."""
    del record


def pays_alone(record: Any) -> bool:
    del record
    return False


def runtime_scalar(record: Any, index: int) -> bytes:
    raise ValueError("legate_csr's tasks have no run-time values to fuse")

"""Python side of the Legate library "legate_fuse" (its tasks are in src/cpp/tasks)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from legate_fuse import _tasks

LIBRARY_NAME: str = _tasks.LIBRARY_NAME
FUSED_TASK_ID: int = _tasks.FUSED_TASK_ID

# The C header of the kernel calling convention, for code compiled at run time.
KERNEL_INCLUDE_DIR = Path(__file__).resolve().parents[1] / "include"


@cache
def library() -> Any:
    """The registered `legate_fuse` Legate library (registers it on first use)."""
    from legate.core import get_legate_runtime

    _tasks.register_library()
    return get_legate_runtime().find_library(LIBRARY_NAME)

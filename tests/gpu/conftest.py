"""Device tests: they run fused kernels on a GPU and are skipped, with the reason, without one."""

from __future__ import annotations

import os

import pytest

import legate_fuse

# Kernels compile before their group's first launch (LEGATE_FUSE_COMPILE=wait): these tests
# check fused results from a program's first window. test_background_compile.py runs the
# default, a group unfused until its kernel is ready.
os.environ["LEGATE_FUSE_COMPILE"] = "wait"
legate_fuse.enable()
del os.environ["LEGATE_FUSE_COMPILE"]

import cupynumeric  # noqa: E402, F401  (must follow enable())
from legate.core import TaskTarget, get_machine  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if get_machine().count(TaskTarget.GPU) == 0:
        skip = pytest.mark.skip(reason="no GPU: Legate found no CUDA device on this machine")
        for item in items:
            if "tests/gpu" in str(item.fspath):
                item.add_marker(skip)
